package io.tetradb.core.script;

/**
 * Where a script execution's time bound reads the time: {@link #SYSTEM} in the server; a test hands in its own
 * (through {@link ScriptLimits#withClock}) so that whether a script runs out of time depends on what it did, not on
 * how fast a loaded machine ran it.
 */
@FunctionalInterface
public interface ScriptClock {
    ScriptClock SYSTEM = System::nanoTime;

    /** A monotonic reading in nanoseconds, as {@link System#nanoTime()}. */
    long nanos();
}

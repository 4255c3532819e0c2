package io.tetradb.core.net;

/** A monotonic clock in nanoseconds, as {@link System#nanoTime()}; tests give one they move by hand. */
@FunctionalInterface
public interface NanoClock {
    NanoClock SYSTEM = System::nanoTime;

    long nanoTime();
}

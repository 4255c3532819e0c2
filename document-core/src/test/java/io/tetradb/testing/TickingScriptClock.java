package io.tetradb.testing;

import io.tetradb.core.script.ScriptClock;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A script clock that moves by one fixed step each time it is read, and only then. The engine reads it every 10,000
 * instructions and at every collection operation, so a script's time is a count of its work: a bound is reached
 * after the same work on a fast machine and on one at load 80, and a test can say how far the clock had gone.
 */
public final class TickingScriptClock implements ScriptClock {
    private final long stepNanos;
    private final AtomicLong readings = new AtomicLong();

    public TickingScriptClock(Duration step) {
        this.stepNanos = step.toNanos();
    }

    @Override
    public long nanos() {
        return readings.incrementAndGet() * stepNanos;
    }

    /** How many times the clock was read so far (each reading advanced it by one step). */
    public long readings() {
        return readings.get();
    }
}

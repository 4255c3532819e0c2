package io.tetradb.core.cancel;

import io.tetradb.core.net.NanoClock;

/**
 * What a face tells the core about the request a thread runs: polled by {@link CallStop} every
 * {@link CallStop#EVERY_ROWS} rows of a query or read loop, so it must be cheap (a volatile read, a clock read).
 */
@FunctionalInterface
public interface StopSignal {
    /** Why the call must stop now, or null to go on. */
    StopReason poll();

    /** Stops with {@link StopReason#TIME_LIMIT} once {@code clock} reaches {@code deadlineNanos}. */
    static StopSignal deadline(NanoClock clock, long deadlineNanos) {
        return () -> clock.nanoTime() - deadlineNanos >= 0 ? StopReason.TIME_LIMIT : null;
    }
}

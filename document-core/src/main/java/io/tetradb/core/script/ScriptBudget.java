package io.tetradb.core.script;

import java.lang.management.ManagementFactory;

/** The running total of one execution: time, counted instructions (its CPU cost) and allocated bytes. */
final class ScriptBudget {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    final ScriptLimits limits;
    private final ScriptClock clock;
    final long startNanos;
    final long deadlineNanos;
    final long acceptUntilNanos;
    private final long allocatedAtStart;
    long instructions;
    int operations;
    boolean refused;

    ScriptBudget(ScriptLimits limits) {
        this.limits = limits;
        this.clock = limits.clock();
        this.startNanos = clock.nanos();
        long bound = limits.timeout().toNanos();
        this.deadlineNanos = startNanos + bound;
        this.acceptUntilNanos = startNanos + (long) (bound * limits.acceptFraction());
        this.allocatedAtStart = allocated();
    }

    private static long allocated() {
        return THREADS.isThreadAllocatedMemoryEnabled() ? THREADS.getCurrentThreadAllocatedBytes() : 0;
    }

    /** Called every few thousand script instructions, and before every host operation. */
    void check() {
        if (clock.nanos() - deadlineNanos > 0) {
            throw new ScriptStop(ScriptStop.Reason.TIMEOUT);
        }
        if (allocated() - allocatedAtStart > limits.maxAllocatedBytes()) {
            throw new ScriptStop(ScriptStop.Reason.MEMORY);
        }
    }

    /** Whether one more collection operation is accepted; once refused, always refused (Cosmos DB's rule). */
    boolean accept() {
        if (refused || operations >= limits.maxOperations() || clock.nanos() - acceptUntilNanos > 0) {
            refused = true;
            return false;
        }
        operations++;
        return true;
    }
}

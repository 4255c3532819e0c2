package io.tetradb.bench.core;

import io.tetradb.bench.ProcTasks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The calling thread's scheduler counters from Linux's {@code /proc/thread-self}: time on a CPU, time runnable but
 * waiting for one (the run queue: a loaded machine), and voluntary (blocked: an fsync, a lock, a park) and
 * involuntary (preempted) context switches. Wall time minus on-CPU minus run-queue is the time the thread was blocked.
 * All zero where {@code /proc} has no such files.
 */
record ThreadSched(long onCpuNanos, long runQueueNanos, long voluntary, long involuntary, long wallNanos,
                   long userTicks, long systemTicks) {
    private static final Path STATUS = Path.of("/proc/thread-self/status");

    /**
     * Only the time counters (one small file: cheap enough to read around every 100-item batch; reading the status
     * and stat files too cost several µs per item under load); switches and the kernel share stay zero.
     */
    static ThreadSched times() {
        ProcTasks.Schedstat s = ProcTasks.currentThreadSchedstat();
        return new ThreadSched(s.onCpuNanos(), s.runQueueNanos(), 0, 0, 0, 0, 0);
    }

    static ThreadSched now() {
        ProcTasks.Schedstat s = ProcTasks.currentThreadSchedstat();
        long vol = 0;
        long invol = 0;
        try {
            for (String line : Files.readAllLines(STATUS)) {
                if (line.startsWith("voluntary_ctxt_switches:")) {
                    vol = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                    invol = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            // no /proc: the switches stay zero
        }
        ProcTasks.TaskStat stat = ProcTasks.currentThread();
        return new ThreadSched(s.onCpuNanos(), s.runQueueNanos(), vol, invol, 0, stat.userTicks(), stat.systemTicks());
    }

    ThreadSched minus(ThreadSched earlier) {
        return new ThreadSched(onCpuNanos - earlier.onCpuNanos, runQueueNanos - earlier.runQueueNanos,
                voluntary - earlier.voluntary, involuntary - earlier.involuntary, wallNanos - earlier.wallNanos,
                userTicks - earlier.userTicks, systemTicks - earlier.systemTicks);
    }

    /**
     * The same counters with the on-CPU time measured by the JVM ({@code ThreadMXBean}): {@code schedstat}'s figure
     * of a running thread moves only at scheduler ticks and switches, too coarse for one 100-item batch.
     */
    ThreadSched withOnCpu(long nanos) {
        return new ThreadSched(nanos, runQueueNanos, voluntary, involuntary, wallNanos, userTicks, systemTicks);
    }

    /** The same counters over a stretch whose measured wall time was {@code nanos}. */
    ThreadSched withWall(long nanos) {
        return new ThreadSched(onCpuNanos, runQueueNanos, voluntary, involuntary, nanos, userTicks, systemTicks);
    }

    /** The kernel's share of the on-CPU time (from the clock-tick counts: coarse, for stretches of seconds). */
    double systemShare() {
        long ticks = userTicks + systemTicks;
        return ticks == 0 ? Double.NaN : (double) systemTicks / ticks;
    }

    /** Wall time neither on a CPU nor waiting for one: blocked (fsync, locks, parks); needs {@link #withWall}. */
    long blockedNanos() {
        return Math.max(0, wallNanos - onCpuNanos - runQueueNanos);
    }

    ThreadSched plus(ThreadSched other) {
        return new ThreadSched(onCpuNanos + other.onCpuNanos, runQueueNanos + other.runQueueNanos,
                voluntary + other.voluntary, involuntary + other.involuntary, wallNanos + other.wallNanos,
                userTicks + other.userTicks, systemTicks + other.systemTicks);
    }
}

package io.tetradb.bench.scripts;

import io.tetradb.bench.Report;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

/**
 * Server CPU time per call of one side. The store runs in the benchmark's JVM: a script, a batch or a query runs on
 * the calling thread, and a commit's WAL fsync on the store's {@code tetradb-*} threads (the group sync). So server
 * CPU per call = the calling thread's CPU time during the call + those threads' (user and system time, read with
 * nanosecond clocks). GC, the JIT and RocksDB's native background threads are left out: the process's CPU clock
 * ticks in 10 ms, too coarse around a call of a millisecond.
 */
final class CallCpu {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final long[] storeThreads;
    private long caller0;
    private long store0;
    private long callerNanos;
    private long storeNanos;
    private long calls;

    /** Call once the store is open (its threads exist). */
    CallCpu() {
        storeThreads = Arrays.stream(THREADS.getThreadInfo(THREADS.getAllThreadIds()))
                .filter(t -> t != null && t.getThreadName().startsWith("tetradb-"))
                .mapToLong(ThreadInfo::getThreadId).toArray();
    }

    private long storeThreadsCpu() {
        long sum = 0;
        for (long id : storeThreads) {
            long cpu = THREADS.getThreadCpuTime(id);
            if (cpu > 0) {
                sum += cpu;
            }
        }
        return sum;
    }

    void start() {
        store0 = storeThreadsCpu();
        caller0 = THREADS.getCurrentThreadCpuTime();
    }

    /** One call ended. */
    void stop() {
        stop(1);
    }

    /** {@code n} calls ended since {@link #start()}. */
    void stop(long n) {
        callerNanos += THREADS.getCurrentThreadCpuTime() - caller0;
        storeNanos += storeThreadsCpu() - store0;
        calls += n;
    }

    double serverMicrosPerCall() {
        return calls == 0 ? Double.NaN : (callerNanos + storeNanos) / 1000.0 / calls;
    }

    void report(Report out, String metric) {
        out.result(String.format(Locale.ROOT, "BENCH %s calls=%d server_cpu_us_per_call=%.1f calling_thread_us=%.1f "
                        + "store_threads_us=%.1f", metric, calls, serverMicrosPerCall(), callerNanos / 1000.0 / calls,
                storeNanos / 1000.0 / calls));
    }
}

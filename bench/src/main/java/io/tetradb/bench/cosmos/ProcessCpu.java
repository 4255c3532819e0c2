package io.tetradb.bench.cosmos;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * CPU time (user + system) of the two servers, read before and after each round.
 *
 * <ul>
 *   <li>The peer (a node child process): {@code utime + stime} of {@code /proc/<pid>/stat} in clock ticks
 *       (10 ms), so rounds must last long enough; other platforms: {@link ProcessHandle.Info#totalCpuDuration()}.</li>
 *   <li>TetraDB (in this JVM): the whole process's CPU time minus the benchmark's {@code main} thread, which only
 *       sends commands to the driver and waits. So GC, the JIT, RocksDB's native flush and compaction threads and
 *       the WAL fsyncs count for TetraDB, as V8's garbage collector and compiler count for the peer.</li>
 * </ul>
 */
final class ProcessCpu {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** USER_HZ: 100 on every Linux configuration in use (the kernel's ABI constant for /proc). */
    private static final long NANOS_PER_TICK = 10_000_000L;

    private ProcessCpu() {
    }

    /** CPU nanoseconds of a child process so far (-1 when unknown). */
    static long of(ProcessHandle p) {
        Path stat = Path.of("/proc", Long.toString(p.pid()), "stat");
        if (Files.isReadable(stat)) {
            try {
                return fromProcStat(Files.readString(stat));
            } catch (IOException e) {
                // the process ended: fall through
            }
        }
        return p.info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
    }

    /** utime + stime (fields 14 and 15) of a {@code /proc/<pid>/stat} line, in nanoseconds. */
    static long fromProcStat(String line) {
        // the command name (field 2) is in parentheses and may hold spaces: count fields after the last ')'
        String[] f = line.substring(line.lastIndexOf(')') + 2).trim().split(" ");
        // f[0] is field 3 (state), so field k is f[k - 3]
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * NANOS_PER_TICK;
    }

    /**
     * CPU nanoseconds so far of the JVM threads that serve requests: the face's {@code cosmos-request-*} workers,
     * Netty's {@code nioEventLoopGroup-*} and the core's {@code tetradb-*} threads (WAL sync). The rest of
     * {@link #thisJvmWithoutCaller()} is GC, the JIT and RocksDB's native threads (for the README's diagnosis).
     */
    static long requestThreads() {
        long sum = 0;
        for (java.lang.management.ThreadInfo t : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (t != null && (t.getThreadName().startsWith("cosmos-request-")
                    || t.getThreadName().startsWith("nioEventLoopGroup-")
                    || t.getThreadName().startsWith("cosmos-io-") || t.getThreadName().startsWith("tetradb-"))) {
                long cpu = THREADS.getThreadCpuTime(t.getThreadId());
                if (cpu > 0) {
                    sum += cpu;
                }
            }
        }
        return sum;
    }

    /** CPU nanoseconds of this JVM so far, without the calling (main) thread's. */
    static long thisJvmWithoutCaller() {
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        return os.getProcessCpuTime() - THREADS.getCurrentThreadCpuTime();
    }
}

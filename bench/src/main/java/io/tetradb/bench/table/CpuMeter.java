package io.tetradb.bench.table;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * CPU time (user + system) spent by the server and by the client, read before and after a round. Wall-clock
 * throughput on a shared 2-core machine moves with everyone else's load; CPU time per request moves much less, so it
 * tells what a request costs each side.
 *
 * <ul>
 *   <li>TetraDB's server: the JVM threads of {@code TableHttpServer} (Netty's {@code nioEventLoopGroup-*} and the
 *       {@code tables-request-*} workers). RocksDB's native background threads (flushes, compactions) are not
 *       Java threads and are not counted.</li>
 *   <li>Azurite's server: the whole node process ({@link ProcessHandle.Info#totalCpuDuration()}).</li>
 *   <li>The client (the same on every side): the JVM threads {@code main} (the benchmark) and the SDK's
 *       {@code reactor-http-*} event loops.</li>
 * </ul>
 */
final class CpuMeter {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    static final Predicate<String> TETRA_SERVER =
            name -> name.startsWith("tables-request-") || name.startsWith("tables-io-")
                    || name.startsWith("nioEventLoopGroup-");
    static final Predicate<String> SDK_CLIENT = name -> name.equals("main") || name.startsWith("reactor-http-");

    private CpuMeter() {
    }

    /** Total CPU nanoseconds of the live JVM threads whose names match. */
    static long threads(Predicate<String> names) {
        long sum = 0;
        for (ThreadInfo t : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (t != null && names.test(t.getThreadName())) {
                long cpu = THREADS.getThreadCpuTime(t.getThreadId());
                if (cpu > 0) {
                    sum += cpu;
                }
            }
        }
        return sum;
    }

    /** Total CPU nanoseconds of a child process (-1 when the platform does not say). */
    static long process(ProcessHandle p) {
        return p.info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
    }
}

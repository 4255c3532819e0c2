package io.tetradb.server.admin;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The process's memory as {@code /health} reports it. {@code rssBytes} is the resident set size from
 * {@code /proc/self/status} (Linux), else what the JVM has committed (heap, non-heap and direct buffers: RocksDB's
 * native memory is then not counted, which {@code rssSource} says).
 *
 * @param rssBytes            resident memory of the process
 * @param rssSource           {@code VmRSS} or {@code jvm-committed}
 * @param heapUsedBytes       heap in use now (live and not yet collected)
 * @param heapCommittedBytes  heap the JVM holds from the OS
 * @param heapMaxBytes        the heap's cap ({@code -Xmx}, from the memory budget)
 * @param directBytes         Netty's and the JDK's direct buffers
 */
public record MemoryReport(long rssBytes, String rssSource, long heapUsedBytes, long heapCommittedBytes,
                           long heapMaxBytes, long directBytes) {
    private static final Path STATUS = Path.of("/proc/self/status");

    public static MemoryReport now() {
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        long direct = 0;
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            direct += Math.max(0, pool.getMemoryUsed());
        }
        long rss = vmRss();
        String source = "VmRSS";
        if (rss < 0) {
            rss = heap.getCommitted() + ManagementFactory.getMemoryMXBean().getNonHeapMemoryUsage().getCommitted()
                    + direct;
            source = "jvm-committed";
        }
        return new MemoryReport(rss, source, heap.getUsed(), heap.getCommitted(), heap.getMax(), direct);
    }

    private static long vmRss() {
        if (!Files.isReadable(STATUS)) {
            return -1;
        }
        try {
            for (String line : Files.readAllLines(STATUS)) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.substring(6).replace("kB", "").strip()) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }
}

package io.tetradb.testing.fuzz;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This JVM's memory as a fuzz run reports it: heap in use after a full GC (what stays live), the peak heap since
 * {@link #resetPeaks()} (what was allocated at once, e.g. a buffer sized from a declared length), and the resident
 * set size from {@code /proc/self/status} (-1 where there is none).
 */
public final class MemoryProbe {
    private MemoryProbe() {
    }

    /** Heap bytes still in use after asking for full collections until the figure settles. */
    public static long heapUsedAfterGc() {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            long now = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            if (now >= used - 1024 * 1024) {
                return Math.min(now, used);
            }
            used = now;
        }
        return used;
    }

    public static void resetPeaks() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
    }

    /** The sum of the heap pools' peaks since {@link #resetPeaks()}: an upper bound of the heap used at once. */
    public static long heapPeak() {
        long sum = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                sum += pool.getPeakUsage().getUsed();
            }
        }
        return sum;
    }

    /** VmRSS in bytes, or -1 where /proc is not there (macOS, Windows). */
    public static long residentSetBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    public static long mb(long bytes) {
        return bytes < 0 ? bytes : bytes / (1024 * 1024);
    }
}

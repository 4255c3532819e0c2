package io.tetradb.bench.mongo;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * What this machine charges a thread for the first touch of a fresh 4 KiB page of memory (a minor page fault and the
 * page's zeroing): a 64 MiB direct buffer, which the JDK zeroes on allocation, timed by the allocating thread's CPU
 * clock, median of three. On bare metal this is well under 1 µs; on this PVM guest it was ≈ 12–15 µs (session 23),
 * which makes the minor faults a server's threads take a visible share of their CPU per operation. The benchmark
 * prints, per side, what its measured faults cost at this rate, so a reader can tell the server's own work from the
 * VM's price of fresh memory (RocksDB's memtable arena takes fresh pages as it fills; a pre-touched Java heap does
 * not).
 */
final class FreshPageCost {
    static final int PAGE = 4096;
    private static final int BYTES = 64 << 20;

    private FreshPageCost() {
    }

    /** Median thread-CPU microseconds per fresh 4 KiB page over {@code runs} allocations of 64 MiB. */
    static double microsPerPage(int runs) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        double[] perPage = new double[runs];
        for (int r = 0; r < runs; r++) {
            long c0 = mx.getCurrentThreadCpuTime();
            ByteBuffer fresh = ByteBuffer.allocateDirect(BYTES); // zeroed by the JDK: every page touched once
            long c1 = mx.getCurrentThreadCpuTime();
            perPage[r] = (c1 - c0) / 1000.0 / (BYTES / PAGE);
            fresh.put(0, (byte) 1); // reachable until measured
        }
        Arrays.sort(perPage);
        return perPage[runs / 2];
    }
}

package io.tetradb.bench.graph;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * One alternated run of a traversal, TinkerGraph's first and TetraGraph's right after, on this thread: each side's
 * wall and thread-CPU time (the CPU time is steadier than the wall time on a shared machine: a second view, not the
 * target). Both the graph benchmark and the traversal pair harness measure a pair this way.
 */
record AlternatedPairTiming(long tinkerWallNanos, long tetraWallNanos, long tinkerCpuNanos, long tetraCpuNanos) {
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    static AlternatedPairTiming of(Runnable tinker, Runnable tetra) {
        long c0 = CPU.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        tinker.run();
        long t1 = System.nanoTime();
        long c1 = CPU.getCurrentThreadCpuTime();
        tetra.run();
        long t2 = System.nanoTime();
        long c2 = CPU.getCurrentThreadCpuTime();
        return new AlternatedPairTiming(t1 - t0, t2 - t1, c1 - c0, c2 - c1);
    }
}

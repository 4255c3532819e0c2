package io.tetradb.bench.feed;

import io.tetradb.bench.ProcTasks;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * CPU time of this process's threads by group, from {@link ProcTasks} (user + system, clock ticks of 10 ms; the
 * thread's name is its first 15 characters, as the JVM names native threads). Native threads
 * (RocksDB's flushes and compactions, GC, the JIT) are listed there too, which the JVM's thread bean does not show.
 * A thread that ends between two snapshots loses its CPU from the difference: the benchmark's writers count their own.
 */
public final class ThreadGroupCpu {
    static final String PROCESSOR = "processor";
    static final String ROCKSDB = "rocksdb";
    static final String GC = "gc";
    static final String JIT = "jit";
    static final String FEED_PRUNER = "feed-pruner";
    static final String WAL_SYNC = "wal-sync";
    static final String CORE = "core-background";
    static final String OTHER = "other";
    /** The benchmark's own writer threads (counted apart through the thread bean, so left out of the split). */
    static final String WRITERS = "writers";

    private ThreadGroupCpu() {
    }

    /** CPU nanoseconds so far per group (empty where {@code /proc} is not there). */
    static Map<String, Long> snapshot() {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String g : new String[]{PROCESSOR, ROCKSDB, GC, JIT, FEED_PRUNER, WAL_SYNC, CORE, OTHER, WRITERS}) {
            out.put(g, 0L);
        }
        return snapshot(out, ThreadGroupCpu::group);
    }

    /** CPU nanoseconds so far per group that {@code grouping} gives a thread's (15-character) name, added to {@code out}. */
    public static Map<String, Long> snapshot(Map<String, Long> out, java.util.function.Function<String, String> grouping) {
        return ProcTasks.sumByGroup(out, grouping, ProcTasks.TaskStat::cpuNanos);
    }

    public static String group(String name) {
        if (name.startsWith("feed-writer")) {
            return WRITERS;
        }
        if (name.startsWith("tetradb-cfp")) {
            return PROCESSOR;
        }
        if (name.startsWith("rocksdb")) {
            return ROCKSDB;
        }
        if (name.startsWith("GC Thread") || name.startsWith("G1 ") || name.startsWith("VM Periodic")
                || name.startsWith("VM Thread")) {
            return GC;
        }
        if (name.contains("CompilerThre") || name.startsWith("C1 ") || name.startsWith("C2 ")) {
            return JIT;
        }
        if (name.startsWith("tetradb-feed-pr")) {
            return FEED_PRUNER;
        }
        if (name.startsWith("tetradb-wal")) {
            return WAL_SYNC;
        }
        if (name.startsWith("tetradb-")) {
            return CORE;
        }
        return OTHER;
    }

    /** {@code after - before}, group by group. */
    public static Map<String, Long> minus(Map<String, Long> after, Map<String, Long> before) {
        Map<String, Long> out = new LinkedHashMap<>();
        after.forEach((g, v) -> out.put(g, v - before.getOrDefault(g, 0L)));
        return out;
    }

    static void add(Map<String, Long> into, Map<String, Long> delta) {
        delta.forEach((g, v) -> into.merge(g, v, Long::sum));
    }
}

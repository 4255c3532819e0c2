package io.tetradb.bench.feed;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * CPU time of this process's threads by group, read from {@code /proc/self/task/<tid>/stat} (user + system, clock
 * ticks of 10 ms; the thread's name is its first 15 characters, as the JVM names native threads). Native threads
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
    private static final long NANOS_PER_TICK = 10_000_000L;

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
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(tasks)) {
            for (Path t : ds) {
                String line;
                try {
                    line = Files.readString(t.resolve("stat"));
                } catch (IOException e) {
                    continue; // the thread ended meanwhile
                }
                int open = line.indexOf('(');
                int close = line.lastIndexOf(')');
                String name = line.substring(open + 1, close);
                long cpu = (field(line, close, 12) + field(line, close, 13)) * NANOS_PER_TICK;
                out.merge(grouping.apply(name), cpu, Long::sum);
            }
        } catch (IOException e) {
            return out;
        }
        return out;
    }

    /**
     * Field {@code n} of a stat line (1-based after the name: 1 is the state, 12 utime, 13 stime), parsed in place: a
     * snapshot per phase with {@code String.split} over every thread had C2 compile {@code split} inside measured
     * rounds (≈ 100 ms of compiler time in one).
     */
    private static long field(String line, int close, int n) {
        int i = close + 2;
        for (int f = 1; f < n; f++) {
            i = line.indexOf(' ', i) + 1;
        }
        long v = 0;
        for (; i < line.length() && line.charAt(i) >= '0' && line.charAt(i) <= '9'; i++) {
            v = v * 10 + (line.charAt(i) - '0');
        }
        return v;
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

package io.tetradb.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Linux's per-thread counters of this process, read from {@code /proc/self/task/<tid>/} and
 * {@code /proc/thread-self/}: CPU ticks, minor page faults and the scheduler's times. The JVM's thread bean sees only
 * Java threads; these files list native ones too (RocksDB's flushes and compactions, GC, the JIT compilers), which is
 * why the benchmarks and probes read them. One reader for all of them: empty lists and zero counters where there is
 * no {@code /proc} (macOS), and a thread that ends between the listing and the read is left out.
 */
public final class ProcTasks {
    /** Linux's {@code USER_HZ}: the stat files count CPU time in ticks of 10 ms. */
    public static final long NANOS_PER_TICK = 10_000_000L;
    private static final Path TASKS = Path.of("/proc/self/task");
    private static final Path SELF = Path.of("/proc/thread-self");

    private ProcTasks() {
    }

    /**
     * One thread's line of {@code stat}: its kernel name (the first 15 characters of the Java name; native threads
     * name themselves, e.g. {@code rocksdb:low}), minor page faults, user and system CPU in ticks.
     */
    public record TaskStat(String tid, String name, long minorFaults, long userTicks, long systemTicks) {
        public long cpuTicks() {
            return userTicks + systemTicks;
        }

        public long cpuNanos() {
            return cpuTicks() * NANOS_PER_TICK;
        }
    }

    /** One thread's {@code schedstat}: time on a CPU, time runnable but waiting for one, and its time slices. */
    public record Schedstat(long onCpuNanos, long runQueueNanos, long timeslices) {
        static final Schedstat NONE = new Schedstat(0, 0, 0);
    }

    /** Every thread of this process now. */
    public static List<TaskStat> threads() {
        List<TaskStat> out = new ArrayList<>();
        for (String tid : tids()) {
            TaskStat t = thread(tid);
            if (t != null) {
                out.add(t);
            }
        }
        return out;
    }

    /** The ids of this process's threads now (empty without {@code /proc}). */
    public static List<String> tids() {
        List<String> out = new ArrayList<>();
        if (!Files.isDirectory(TASKS)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(TASKS)) {
            for (Path t : ds) {
                out.add(t.getFileName().toString());
            }
        } catch (IOException e) {
            return out;
        }
        return out;
    }

    /** One thread's stat, or null when it has ended. */
    public static TaskStat thread(String tid) {
        try {
            return parse(tid, Files.readString(TASKS.resolve(tid).resolve("stat")));
        } catch (IOException | RuntimeException gone) {
            return null;
        }
    }

    /** One thread's scheduler times (all zero when it has ended). */
    public static Schedstat schedstat(String tid) {
        return readSchedstat(TASKS.resolve(tid).resolve("schedstat"));
    }

    /** The calling thread's stat (zero counters without {@code /proc}). */
    public static TaskStat currentThread() {
        try {
            return parse("self", Files.readString(SELF.resolve("stat")));
        } catch (IOException | RuntimeException e) {
            return new TaskStat("self", "?", 0, 0, 0);
        }
    }

    /** The calling thread's scheduler times: one small file, cheap enough to read around every batch. */
    public static Schedstat currentThreadSchedstat() {
        return readSchedstat(SELF.resolve("schedstat"));
    }

    /**
     * {@code value} of every thread summed per the group {@code grouping} gives its name, added to {@code into}
     * (whose existing keys fix the order of the groups printed).
     */
    public static Map<String, Long> sumByGroup(Map<String, Long> into, Function<String, String> grouping,
                                               ToLongFunction<TaskStat> value) {
        for (TaskStat t : threads()) {
            into.merge(grouping.apply(t.name()), value.applyAsLong(t), Long::sum);
        }
        return into;
    }

    /**
     * Parses a stat line. The name is in parentheses and may hold spaces and parentheses itself (a thread may name
     * itself anything), so the fields are counted from the last closing parenthesis.
     */
    static TaskStat parse(String tid, String line) {
        int close = line.lastIndexOf(')');
        String name = line.substring(line.indexOf('(') + 1, close);
        return new TaskStat(tid, name, field(line, close, 8), field(line, close, 12), field(line, close, 13));
    }

    /**
     * Field {@code n} of a stat line, 1-based after the name (1 the state, 8 minflt, 12 utime, 13 stime), parsed in
     * place: a snapshot per phase with {@code String.split} over every thread had C2 compile {@code split} inside
     * measured rounds (≈ 100 ms of compiler time in one; the feed benchmark, session 16).
     */
    static long field(String line, int close, int n) {
        int i = close + 2;
        for (int f = 1; f < n; f++) {
            i = line.indexOf(' ', i) + 1;
            if (i == 0) {
                throw new IllegalArgumentException("a stat line with fewer than " + n + " fields: " + line);
            }
        }
        long v = 0;
        for (; i < line.length() && line.charAt(i) >= '0' && line.charAt(i) <= '9'; i++) {
            v = v * 10 + (line.charAt(i) - '0');
        }
        return v;
    }

    private static Schedstat readSchedstat(Path file) {
        try {
            String s = Files.readString(file).trim();
            int a = s.indexOf(' ');
            int b = s.indexOf(' ', a + 1);
            return new Schedstat(Long.parseLong(s, 0, a, 10), Long.parseLong(s, a + 1, b, 10),
                    Long.parseLong(s, b + 1, s.length(), 10));
        } catch (IOException | RuntimeException gone) {
            return Schedstat.NONE;
        }
    }
}

package io.tetradb.bench.graph;

import io.tetradb.bench.BenchData;
import io.tetradb.bench.ProcTasks;
import io.tetradb.core.storage.Durability;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.graph.TetraGraph;
import io.tetradb.graph.load.BulkLoader;
import org.apache.tinkerpop.gremlin.structure.io.gryo.GryoReader;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * For measuring (not a benchmark of record): where a bulk load's CPU goes in the whole process, per element. Loads
 * air-routes into fresh containers of one SYNC store (as the {@code graph} benchmark does), and for each load reads
 * every native thread's CPU time ({@code /proc/self/task/<tid>/schedstat}, polled every 25 ms so threads that end
 * with the load are counted too) grouped by thread name: the caller (Gryo decoding, grouping, the chunk's commit),
 * the loader's writer threads, the fork-join pool (the commit's parallel sorts and SST files), GC, JIT, RocksDB's
 * background threads, the rest; and the GC's collections and pause time. Linux only.
 * <pre>
 * java $OPENS -cp "bench/target/bench-*.jar:bench/target/lib/*" io.tetradb.bench.graph.LoadProfileHarness 5
 * </pre>
 * Session 15: {@code -Dprofile.switch=PROP} alternates the loads of one JVM between a code switch's two sides
 * (new old old new ...) and prints each side's medians; {@code -Dprofile.warm=W} unrecorded loads first; each load
 * also counts the JIT's compilations, compile time and deoptimisations (in-process JFR), and the run ends with the
 * most deoptimised methods; {@code -Dprofile.jfr=FILE} records the loads after the warm-up ones (JFR's "profile").
 * Add {@code -XX:StartFlightRecording=filename=load.jfr,settings=profile} for allocation samples
 * ({@code jfr print --events jdk.ObjectAllocationSample load.jfr}).
 */
public final class LoadProfileHarness {
    private LoadProfileHarness() {
    }

    public static void main(String[] args) throws Exception {
        int loads = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        // session 15: -Dprofile.switch=PROP alternates the loads between PROP=true ("new") and PROP=false ("old")
        // in one JVM (order new old old new, repeated, so a drift of the machine's load falls on both sides alike);
        // -Dprofile.warm=W unrecorded loads first (both sides alike when switched)
        String sw = System.getProperty("profile.switch");
        int warm = Integer.getInteger("profile.warm", 1);
        Path dir = BenchData.fresh("graph-load-profile");
        Map<String, List<Map<String, Double>>> rows = new TreeMap<>();
        JitEvents jit = new JitEvents();
        String jfr = System.getProperty("profile.jfr"); // a JFR file of the recorded loads only (steady state)
        jdk.jfr.Recording recording = null;
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).durability(Durability.SYNC)
                .buildClient()) {
            for (int i = 0; i < warm + loads; i++) {
                String side = sw == null ? "all" : (i % 4 == 0 || i % 4 == 3) ? "new" : "old";
                if (sw != null) {
                    for (String prop : sw.split(",")) { // several switches flip together
                        System.setProperty(prop, Boolean.toString(side.equals("new")));
                    }
                }
                client.coreStore().awaitBackgroundWork(GraphBenchmark.SETTLE_MILLIS);
                if (i == warm && jfr != null) {
                    recording = new jdk.jfr.Recording(jdk.jfr.Configuration.getConfiguration("profile"));
                    recording.start();
                }
                String name = (i < warm ? "w" : "p") + i + (sw == null ? "" : "-" + side);
                Map<String, Double> row = load(client, name, jit);
                if (i >= warm) {
                    rows.computeIfAbsent(side, k -> new ArrayList<>()).add(row);
                }
            }
            // session 23: the feed pruner's passes run after each load, outside its window: their work over the run
            io.tetradb.core.feed.FeedPruner pruner = client.coreStore().changeFeeds().pruner();
            long prunerCpu = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().equals("tetradb-feed-pruner"))
                    .mapToLong(t -> ManagementFactory.getThreadMXBean().getThreadCpuTime(t.getId())).sum();
            System.out.printf(Locale.ROOT, "feed pruner over the run: records read %d, told %d, item reads %d, "
                    + "thread cpu %.0f ms%n", pruner.recordsRead(), pruner.recordsTold(), pruner.itemReads(),
                    prunerCpu / 1e6);
        } finally {
            jit.close();
            if (recording != null) {
                recording.dump(Path.of(jfr));
                recording.close();
            }
        }
        rows.forEach((side, list) -> {
            System.out.println("median over " + list.size() + " loads (" + side + "), µs per element:");
            for (String k : list.get(0).keySet()) {
                List<Double> xs = new ArrayList<>();
                list.forEach(r -> xs.add(r.getOrDefault(k, 0.0)));
                xs.sort(Double::compare);
                System.out.printf(Locale.ROOT, "  %-22s %8.2f   (%s)%n", k, median(xs), xs.stream()
                        .map(x -> String.format(Locale.ROOT, "%.1f", x)).collect(java.util.stream.Collectors.joining(" ")));
            }
        });
        System.out.println("most deoptimised (method, reason: count over the whole run):");
        jit.topDeopts(15).forEach(e -> System.out.println("  " + e.getValue() + "  " + e.getKey()));
    }

    private static double median(List<Double> sorted) {
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /**
     * JIT activity per load from the JVM's own events (session 15): compilations (with their wall time) and
     * deoptimisations, counted through an in-process JFR stream, so a JIT share that does not settle can be tied to
     * the methods that keep being thrown away.
     */
    static final class JitEvents implements AutoCloseable {
        private final jdk.jfr.consumer.RecordingStream stream = new jdk.jfr.consumer.RecordingStream();
        private final java.util.concurrent.atomic.AtomicLong compilations = new java.util.concurrent.atomic.AtomicLong();
        private final java.util.concurrent.atomic.AtomicLong deopts = new java.util.concurrent.atomic.AtomicLong();
        private final Map<String, Long> byMethod = new ConcurrentHashMap<>();

        JitEvents() {
            stream.enable("jdk.Compilation").withThreshold(java.time.Duration.ZERO);
            stream.enable("jdk.Deoptimization").withoutStackTrace();
            stream.onEvent("jdk.Compilation", e -> compilations.incrementAndGet());
            stream.onEvent("jdk.Deoptimization", e -> {
                deopts.incrementAndGet();
                jdk.jfr.consumer.RecordedMethod m = e.getValue("method");
                String where = m == null ? "?" : m.getType().getName() + "." + m.getName();
                byMethod.merge(where + " " + e.getString("reason") + "/" + e.getString("action"), 1L, Long::sum);
            });
            stream.startAsync();
        }

        /** {compilations, deoptimisations} so far (JFR delivers events about once a second: read after a pause). */
        long[] counts() {
            return new long[] {compilations.get(), deopts.get()};
        }

        List<Map.Entry<String, Long>> topDeopts(int n) {
            List<Map.Entry<String, Long>> all = new ArrayList<>(byMethod.entrySet());
            all.sort(Map.Entry.<String, Long>comparingByValue().reversed());
            return all.subList(0, Math.min(n, all.size()));
        }

        @Override
        public void close() {
            stream.close();
        }
    }

    private static Map<String, Double> load(CosmosClient client, String container, JitEvents jit) throws Exception {
        try (TetraGraph graph = GraphBenchmark.openGraph(client, container);
             InputStream in = GraphBenchmark.class.getResourceAsStream(GraphBenchmark.RESOURCE)) {
            Thread.sleep(1_200); // JFR's stream delivers the events before this load's start
            long[] jit0 = jit.counts();
            long compileMs0 = ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
            ThreadCpu threads = new ThreadCpu();
            threads.start();
            long[] gc0 = gc();
            long os0 = OS.getProcessCpuTime();
            long[] io0 = procIo();
            long w0 = System.nanoTime();
            BulkLoader.Loaded loaded = BulkLoader.into(graph).partitionKey(GraphBenchmark::partitionKey)
                    .read(GryoReader.build().create(), in);
            long wall = System.nanoTime() - w0;
            long[] io1 = procIo();
            long os = OS.getProcessCpuTime() - os0;
            Map<String, Long> groups = threads.finish();
            long[] gc1 = gc();
            long compileMs = ManagementFactory.getCompilationMXBean().getTotalCompilationTime() - compileMs0;
            Thread.sleep(1_200); // and this load's own
            long[] jit1 = jit.counts();
            double n = loaded.elements();
            Map<String, Double> row = new LinkedHashMap<>();
            row.put("wall", wall / 1e3 / n);
            row.put("process", groups.values().stream().mapToLong(Long::longValue).sum() / 1e3 / n);
            // the OS's count for the whole process, threads that ended included (the poller's groups can miss a
            // short-lived thread when the machine is loaded); it also counts the poller
            row.put("process-os", os / 1e3 / n);
            groups.forEach((g, ns) -> row.put(g, ns / 1e3 / n));
            row.put("alloc-kb", threads.allocatedBytes() / 1024.0 / n);
            // session 20: what the load wrote to disk (the kernel's count, page cache flushes included) and asked to
            row.put("disk-write-B", (io1[0] - io0[0]) / n);
            row.put("write-calls", (double) (io1[1] - io0[1]));
            row.put("gc-pause", (gc1[1] - gc0[1]) * 1e3 / n);
            row.put("gc-collections", (double) (gc1[0] - gc0[0]));
            row.put("compilations", (double) (jit1[0] - jit0[0]));
            row.put("compile-ms", (double) compileMs);
            row.put("deopts", (double) (jit1[1] - jit0[1]));
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "load %-5s %.0f el/s:", container,
                    n / (wall / 1e9)));
            row.forEach((k, v) -> line.append(String.format(Locale.ROOT, " %s=%.2f", k, v)));
            System.out.println(line);
            return row;
        }
    }

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /** {write_bytes, syscw} of this process so far ({@code /proc/self/io}; {-1, -1} where it cannot be read). */
    private static long[] procIo() {
        long bytes = -1, calls = -1;
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/io"))) {
                if (l.startsWith("write_bytes:")) {
                    bytes = Long.parseLong(l.substring(12).trim());
                } else if (l.startsWith("syscw:")) {
                    calls = Long.parseLong(l.substring(6).trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or not readable: the row shows -1
        }
        return new long[] {bytes, calls};
    }

    /** {collections, pause milliseconds} of every collector so far. */
    private static long[] gc() {
        long count = 0, millis = 0;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += b.getCollectionCount();
            millis += b.getCollectionTime();
        }
        return new long[] {count, millis};
    }

    static String group(String name) {
        if (name.equals("main") || name.equals("java")) { // the main thread keeps the launcher's name
            return "caller";
        }
        if (name.startsWith("tetra-bulk-writ")) {
            return "writers";
        }
        if (name.startsWith("ForkJoinPool")) {
            return "forkjoin";
        }
        if (name.startsWith("GC Thread") || name.startsWith("G1 ") || name.startsWith("VM Thread")) {
            return "gc+vm";
        }
        if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
            return "jit";
        }
        if (name.startsWith("rocksdb")) {
            return "rocksdb";
        }
        return "other";
    }

    /** Every native thread's CPU, polled; each thread's growth since the start (or since it started) kept. */
    static final class ThreadCpu extends Thread {
        private final Map<String, Long> start = new HashMap<>();
        private final Map<String, long[]> last = new ConcurrentHashMap<>(); // tid -> {cpu ns}; name in names
        private final Map<String, String> names = new ConcurrentHashMap<>();
        private volatile boolean running = true;

        ThreadCpu() {
            super("load-profile-poller");
            setDaemon(true);
            poll(true);
        }

        @Override
        public void run() {
            while (running) {
                poll(false);
                try {
                    Thread.sleep(25);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        /** Java thread id -> {allocated bytes at the start (0 for threads started later), last seen}. */
        private final Map<Long, long[]> allocated = new ConcurrentHashMap<>();
        private static final com.sun.management.ThreadMXBean THREADS =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

        /** Bytes the process's Java threads (but this poller) allocated since the start. */
        long allocatedBytes() {
            long sum = 0;
            for (long[] a : allocated.values()) {
                sum += a[1] - a[0];
            }
            return sum;
        }

        private void pollAllocations(boolean initial) {
            long[] ids = THREADS.getAllThreadIds();
            long[] bytes = THREADS.getThreadAllocatedBytes(ids);
            for (int i = 0; i < ids.length; i++) {
                if (bytes[i] < 0 || ids[i] == getId()) {
                    continue;
                }
                long b = bytes[i];
                allocated.computeIfAbsent(ids[i], k -> new long[] {initial ? b : 0, b})[1] = b;
            }
        }

        private void poll(boolean initial) {
            pollAllocations(initial);
            for (String tid : ProcTasks.tids()) {
                ProcTasks.Schedstat sched = ProcTasks.schedstat(tid);
                if (sched.onCpuNanos() == 0) {
                    continue; // the thread ended between the listing and the read
                }
                if (initial) {
                    start.put(tid, sched.onCpuNanos());
                } else {
                    // a thread just started still has the launcher's name ("java") until it names itself: read it
                    // again then, or a new writer thread was counted as the caller (session 13)
                    if ("java".equals(names.computeIfAbsent(tid, ThreadCpu::name))) {
                        names.put(tid, name(tid));
                    }
                    last.computeIfAbsent(tid, k -> new long[1])[0] = sched.onCpuNanos();
                }
            }
        }

        private static String name(String tid) {
            ProcTasks.TaskStat t = ProcTasks.thread(tid);
            return t == null ? "?" : t.name();
        }

        Map<String, Long> finish() throws InterruptedException {
            running = false;
            join();
            poll(false);
            Map<String, Long> groups = new TreeMap<>();
            last.forEach((tid, cpu) -> {
                if (names.getOrDefault(tid, "").equals("load-profile-po")) {
                    return;
                }
                groups.merge(group(names.getOrDefault(tid, "?")), cpu[0] - start.getOrDefault(tid, 0L), Long::sum);
            });
            return groups;
        }
    }
}

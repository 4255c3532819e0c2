package io.tetradb.bench.mongo;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Indexes;
import io.tetradb.bench.ProcTasks;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;
import org.bson.Document;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * What a batch of the benchmark's insert phase costs each side, and what else happened in its window: the mongo
 * benchmark's insert alternation (both servers in this JVM, one {@code insertMany} of 1000 per side in turn), and
 * per batch the side's server thread CPU (the benchmark's figure) and allocation per document, the wall time, the
 * scheduler's run and wait time and time slices of every thread of the process by kind
 * ({@code /proc/self/task/<tid>/schedstat}: the side's server threads, the client, GC, JIT, RocksDB's native threads),
 * the side's threads' minor page faults and system ticks ({@code /proc/self/task/<tid>/stat}), the machine's steal
 * ticks, and the JVM's GC, safepoint, deoptimisation and compilation events in the window (JFR, streamed in process).
 * A canary thread does a fixed piece of arithmetic (≈ 20 µs) and a 200-step walk of a 64 MiB random cycle every
 * millisecond: their CPU time per piece in the window tells whether the machine ran slower then. Then each side's
 * batches are split at twice its cheapest (MODE lines: the means of each mode) and the server threads' top Java
 * frames are counted per mode (PROFILE lines). Session 22 found the dear mode to be first touches of fresh heap pages.
 *
 * <p>{@code java -cp bench.jar:lib/* io.tetradb.bench.mongo.InsertModesProbe [batches per side=40] [warm=4]}
 */
public final class InsertModesProbe {
    private InsertModesProbe() {
    }

    /** One recorded batch of one side. */
    record Batch(String side, int index, Instant start, Instant end, double serverCpuUs, double allocB,
                 Map<String, long[]> sched, long stealTicks) {
    }

    public static void main(String[] args) throws Exception {
        int perSide = args.length > 0 ? Integer.parseInt(args[0]) : 40;
        int warm = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        int n = MongoBenchmark.BATCH;
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        Docs docs = new Docs((perSide + warm) * n);
        Path base = Files.createDirectories(Path.of(System.getProperty("bench.dataDir", "target")));
        Path dir = Files.createTempDirectory(base, "insert-modes");
        ConcurrentLinkedQueue<RecordedEvent> events = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Object[]> samples = new ConcurrentLinkedQueue<>(); // {time, side, top frame}
        Canary canary = new Canary();
        List<Batch> batches = new ArrayList<>();
        try (RecordingStream jfr = new RecordingStream();
             Endpoint tetra = Endpoint.tetra(dir, 1);
             Endpoint peer = Endpoint.peer(1)) {
            jfr.setReuse(false); // the events are kept past their callback
            for (String e : List.of("jdk.GarbageCollection", "jdk.SafepointBegin", "jdk.Deoptimization",
                    "jdk.Compilation", "jdk.GCPhasePause")) {
                jfr.enable(e).withoutThreshold().withoutStackTrace();
                jfr.onEvent(e, events::add);
            }
            jfr.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(5)).withStackTrace();
            jfr.onEvent("jdk.ExecutionSample", e -> {
                String thread = e.getThread("sampledThread").getJavaName();
                if (thread != null && (thread.startsWith("mongo-server") || thread.startsWith("mongo-command"))
                        && e.getStackTrace() != null && !e.getStackTrace().getFrames().isEmpty()) {
                    var top = e.getStackTrace().getFrames().get(0).getMethod();
                    samples.add(new Object[] {e.getStartTime(), thread.startsWith("mongo-server") ? "peer" : "tetra",
                            top.getType().getName().replaceAll(".*\\.", "") + "." + top.getName()});
                }
            });
            jfr.startAsync();
            canary.start();
            List<Endpoint> sides = List.of(tetra, peer);
            List<MongoCollection<Document>> colls = new ArrayList<>();
            for (Endpoint e : sides) {
                MongoCollection<Document> c = e.collection(MongoBenchmark.COLLECTION);
                c.createIndex(Indexes.ascending("owner"));
                colls.add(c);
            }
            for (int b = 0; b < perSide + warm; b++) {
                for (int k = 0; k < 2; k++) {
                    int s = (b + k) % 2;
                    Endpoint e = sides.get(s);
                    List<Document> list = new ArrayList<>(n);
                    for (int i = b * n; i < (b + 1) * n; i++) {
                        list.add(docs.doc(i));
                    }
                    Map<String, long[]> sched0 = Sched.byKind(e.label());
                    long steal0 = Sched.stealTicks();
                    long alloc0 = e.serverAllocatedBytes();
                    Map<String, Long> cpu0 = e.serverCpuNanos();
                    Instant t0 = Instant.now();
                    colls.get(s).insertMany(list);
                    Instant t1 = Instant.now();
                    Map<String, Long> cpu1 = e.serverCpuNanos();
                    long alloc1 = e.serverAllocatedBytes();
                    long steal1 = Sched.stealTicks();
                    Map<String, long[]> sched = Sched.minus(Sched.byKind(e.label()), sched0);
                    long cpu = 0;
                    for (Map.Entry<String, Long> g : cpu1.entrySet()) {
                        cpu += g.getValue() - cpu0.getOrDefault(g.getKey(), 0L);
                    }
                    if (b >= warm) {
                        batches.add(new Batch(e.label(), b, t0, t1, cpu / 1000.0 / n, (alloc1 - alloc0) / (double) n,
                                sched, steal1 - steal0));
                    }
                }
            }
            Thread.sleep(2_500); // the stream delivers its events about once a second
            canary.stop();
        }
        print(batches, new ArrayList<>(events), canary, n);
        profiles(batches, new ArrayList<>(samples));
    }

    /** The command threads' top frames in each side's cheap and dear batches (same cut as the modes). */
    private static void profiles(List<Batch> batches, List<Object[]> samples) {
        for (String side : List.of("tetra", "peer")) {
            List<Batch> own = batches.stream().filter(b -> b.side().equals(side)).toList();
            double cut = 2 * own.stream().mapToDouble(Batch::serverCpuUs).min().orElseThrow();
            for (boolean high : new boolean[] {false, true}) {
                Map<String, Integer> frames = new TreeMap<>();
                int total = 0;
                for (Object[] x : samples) {
                    Instant t = (Instant) x[0];
                    if (!x[1].equals(side)) {
                        continue;
                    }
                    for (Batch b : own) {
                        if ((b.serverCpuUs() > cut) == high && !t.isBefore(b.start()) && t.isBefore(b.end())) {
                            frames.merge((String) x[2], 1, Integer::sum);
                            total++;
                            break;
                        }
                    }
                }
                StringBuilder top = new StringBuilder();
                int all = total;
                frames.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).limit(12).forEach(f ->
                        top.append(String.format(Locale.ROOT, " %s=%.1f%%", f.getKey(), 100.0 * f.getValue() / all)));
                System.out.printf(Locale.ROOT, "PROFILE %s %s: %d samples;%s%n", side, high ? "high" : "low", total,
                        top);
            }
        }
    }

    private static void print(List<Batch> batches, List<RecordedEvent> events, Canary canary, int n) {
        for (Batch b : batches) {
            System.out.println("batch " + b.side() + " " + b.index() + ":" + format(figures(b, events, canary, n)));
        }
        for (String side : List.of("tetra", "peer")) {
            List<Batch> own = batches.stream().filter(b -> b.side().equals(side)).toList();
            double cut = 2 * own.stream().mapToDouble(Batch::serverCpuUs).min().orElseThrow(); // dear: > 2x the cheapest
            for (boolean dear : new boolean[] {false, true}) {
                List<Batch> mode = own.stream().filter(b -> (b.serverCpuUs() > cut) == dear).toList();
                Map<String, Double> mean = new java.util.LinkedHashMap<>();
                for (Batch b : mode) {
                    figures(b, events, canary, n).forEach((k, v) -> mean.merge(k, v / mode.size(), Double::sum));
                }
                System.out.printf(Locale.ROOT, "MODE %s %s (%d batches, cut %.1f us/doc), means:%s%n", side,
                        dear ? "high" : "low", mode.size(), cut, format(mean));
            }
        }
    }

    /**
     * A batch's figures by name: the side's server threads' CPU, run, wait (µs per document), time slices, minor
     * faults and system ticks; wall, allocation, steal, the canaries, the JVM's events; every other kind of thread's
     * run time ({@code run:<kind>}, µs per document).
     */
    private static Map<String, Double> figures(Batch b, List<RecordedEvent> events, Canary canary, int n) {
        Window w = Window.of(b, events, canary);
        long[] srv = b.sched().getOrDefault("server", new long[5]);
        Map<String, Double> f = new java.util.LinkedHashMap<>();
        f.put("cpu", b.serverCpuUs());
        f.put("sched-run", srv[0] / 1000.0 / n);
        f.put("wait", srv[1] / 1000.0 / n);
        f.put("slices", (double) srv[2]);
        f.put("minflt", (double) srv[3]);
        f.put("sys-ticks", (double) srv[4]);
        f.put("wall-ms", Duration.between(b.start(), b.end()).toNanos() / 1e6);
        f.put("alloc-B", b.allocB());
        f.put("steal-ticks", (double) b.stealTicks());
        f.put("canary-ns", w.canaryNs);
        f.put("canary-slow", w.canarySlow);
        f.put("mem-ns", w.memNs);
        f.put("mem-slow", w.memSlow);
        f.put("gcs", (double) w.gcs);
        f.put("gc-pause-ms", w.pauseMs);
        f.put("safepoints", (double) w.safepoints);
        f.put("safepoint-ms", w.safepointMs);
        f.put("deopts", (double) w.deopts);
        f.put("compiles", (double) w.compiles);
        b.sched().forEach((kind, t) -> {
            if (!kind.equals("server")) {
                f.put("run:" + kind, t[0] / 1000.0 / n);
            }
        });
        return f;
    }

    private static String format(Map<String, Double> figures) {
        StringBuilder out = new StringBuilder();
        figures.forEach((k, v) -> out.append(String.format(Locale.ROOT, k.endsWith("-slow") ? " %s=%.2f" : " %s=%.1f",
                k, v)));
        return out.toString();
    }

    /** The JVM's events and the canary's pieces inside one batch's window. */
    private static final class Window {
        int gcs;
        double pauseMs;
        int safepoints;
        double safepointMs;
        int deopts;
        int compiles;
        double canaryNs;
        double canarySlow;
        double memNs;
        double memSlow;

        static Window of(Batch b, List<RecordedEvent> events, Canary canary) {
            Window w = new Window();
            for (RecordedEvent e : events) {
                Instant t = e.getStartTime();
                if (t.isBefore(b.start()) || !t.isBefore(b.end())) {
                    continue;
                }
                switch (e.getEventType().getName()) {
                    case "jdk.GarbageCollection" -> w.gcs++;
                    case "jdk.GCPhasePause" -> w.pauseMs += e.getDuration().toNanos() / 1e6;
                    case "jdk.SafepointBegin" -> {
                        w.safepoints++;
                        w.safepointMs += e.getDuration().toNanos() / 1e6;
                    }
                    case "jdk.Deoptimization" -> w.deopts++;
                    case "jdk.Compilation" -> w.compiles++;
                    default -> {
                    }
                }
            }
            double[] c = canary.in(b.start(), b.end(), 1);
            w.canaryNs = c[0];
            w.canarySlow = c[1];
            double[] m = canary.in(b.start(), b.end(), 2);
            w.memNs = m[0];
            w.memSlow = m[1];
            return w;
        }
    }

    /**
     * A daemon thread doing the same arithmetic every millisecond and keeping each piece's thread CPU time: the machine's
     * speed as this process sees it, at ≈ 2 % of a core.
     */
    private static final class Canary {
        private final ConcurrentLinkedQueue<long[]> pieces = new ConcurrentLinkedQueue<>(); // {epoch µs, cpu ns}
        private volatile boolean running = true;
        private final Thread thread = new Thread(this::loop, "probe-canary");
        static volatile long sink;

        void start() {
            thread.setDaemon(true);
            thread.start();
        }

        void stop() throws InterruptedException {
            running = false;
            thread.join();
        }

        private void loop() {
            java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
            long[] data = new long[4096];
            for (int i = 0; i < data.length; i++) {
                data[i] = i * 0x9E3779B97F4A7C15L;
            }
            int[] chase = chain(1 << 24); // 64 MiB: a walk through it misses every cache
            int at = 0;
            while (running) {
                long c0 = mx.getCurrentThreadCpuTime();
                long h = 0;
                for (int r = 0; r < 4; r++) {
                    for (long d : data) {
                        h = Long.rotateLeft(h ^ d, 7) * 31;
                    }
                }
                sink = h;
                long c1 = mx.getCurrentThreadCpuTime();
                for (int i = 0; i < 200; i++) {
                    at = chase[at];
                }
                sink += at;
                long c2 = mx.getCurrentThreadCpuTime();
                Instant now = Instant.now();
                pieces.add(new long[] {now.getEpochSecond() * 1_000_000 + now.getNano() / 1000, c1 - c0, c2 - c1});
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        /** One random cycle through {@code n} slots: each load depends on the one before. */
        private static int[] chain(int n) {
            int[] order = new int[n];
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            java.util.SplittableRandom r = new java.util.SplittableRandom(1);
            for (int i = n - 1; i > 0; i--) {
                int j = r.nextInt(i + 1);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
            int[] next = new int[n];
            for (int i = 0; i < n; i++) {
                next[order[i]] = order[(i + 1) % n];
            }
            return next;
        }

        /** The pieces' mean CPU time in the window (field 1: arithmetic, 2: memory walk), and the share of them above 1.5x the run's median piece. */
        double[] in(Instant from, Instant to, int field) {
            long a = from.getEpochSecond() * 1_000_000 + from.getNano() / 1000;
            long b = to.getEpochSecond() * 1_000_000 + to.getNano() / 1000;
            long[] all = pieces.stream().mapToLong(p -> p[field]).sorted().toArray();
            long[] in = pieces.stream().filter(p -> p[0] >= a && p[0] < b).mapToLong(p -> p[field]).toArray();
            if (in.length == 0) {
                return new double[] {Double.NaN, Double.NaN};
            }
            double limit = 1.5 * all[all.length / 2];
            return new double[] {java.util.Arrays.stream(in).average().orElseThrow(),
                    java.util.Arrays.stream(in).filter(c -> c > limit).count() / (double) in.length};
        }
    }

    /** The scheduler's view of this process's threads ({@code /proc/self/task}) and the machine's steal time. */
    private static final class Sched {
        /** Run and wait nanoseconds summed per kind of thread, the side's own server threads as "server". */
        static Map<String, long[]> byKind(String side) {
            Map<String, long[]> out = new TreeMap<>();
            for (ProcTasks.TaskStat t : ProcTasks.threads()) {
                ProcTasks.Schedstat sched = ProcTasks.schedstat(t.tid());
                long[] sum = out.computeIfAbsent(kind(side, t.name()), k -> new long[5]);
                sum[0] += sched.onCpuNanos();
                sum[1] += sched.runQueueNanos();
                sum[2] += sched.timeslices();
                sum[3] += t.minorFaults();
                sum[4] += t.systemTicks();
            }
            return out;
        }

        static String kind(String side, String comm) {
            boolean tetraServer = comm.startsWith("mongo-command") || comm.startsWith("mongo-io")
                    || comm.startsWith("tetradb-");
            boolean peerServer = comm.startsWith("mongo-server");
            if (side.equals("tetra") ? tetraServer : peerServer) {
                return "server";
            }
            if (tetraServer || peerServer) {
                return "other-side";
            }
            if (comm.startsWith("GC Thread") || comm.startsWith("G1 ")) {
                return "gc";
            }
            if (comm.startsWith("C1 ") || comm.startsWith("C2 ")) {
                return "jit";
            }
            if (comm.startsWith("rocksdb")) {
                return "rocksdb";
            }
            if (comm.equals("main") || comm.startsWith("cluster-")) {
                return "client";
            }
            return comm.equals("probe-canary") ? "canary" : comm.replaceAll("[-#0-9 ]+$", "");
        }

        static Map<String, long[]> minus(Map<String, long[]> after, Map<String, long[]> before) {
            Map<String, long[]> d = new TreeMap<>();
            after.forEach((k, v) -> {
                long[] b = before.getOrDefault(k, new long[5]);
                d.put(k, new long[] {v[0] - b[0], v[1] - b[1], v[2] - b[2], v[3] - b[3], v[4] - b[4]});
            });
            return d;
        }

        /** The machine's steal ticks so far (the {@code cpu} line of {@code /proc/stat}). */
        static long stealTicks() throws IOException {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            return f.length > 8 ? Long.parseLong(f[8]) : 0;
        }
    }
}

package io.tetradb.bench.core;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.bench.BenchData;
import io.tetradb.bench.ProcTasks;
import io.tetradb.core.storage.Durability;
import io.tetradb.core.storage.RocksEngine;
import io.tetradb.core.storage.Space;
import io.tetradb.document.CosmosBatch;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosDatabase;
import io.tetradb.document.PartitionKey;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.HistogramType;
import org.rocksdb.RocksDB;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A diagnostic, not a benchmark (grow1m, session 30): the core benchmark's {@code batch100-write} load (batches of 100
 * creates of one logical partition, device {@code batch % 10,000}, SYNC, a 300-batch JIT warm-up per side on
 * throwaway stores first) from an empty store to {@code totalK} thousand items in rounds of 10,000, the first
 * unrecorded. {@code core} or {@code raw} runs one side alone in this JVM (RocksDB's background threads are one pool
 * per process, so only then are they charged to one side); {@code both} alternates the two as the benchmark does.
 * Per round and item it prints: the timed calls' wall; the writer's CPU (thread bean), run-queue wait and minor
 * faults; the CPU of the process's other threads by group ({@code rocksdb:*}, GC, JIT, other Java; 10 ms ticks); the
 * CPU other processes took (rounds with much of it are a loaded machine's, not the store's); with
 * {@code -Dtetradb.rocks.statistics=true} RocksDB's counters (stalls, flush and compaction bytes, WAL bytes and syncs,
 * keys read by {@code Get}, block cache, WAL fsync and write-call micros) and every family's L0 files and levels.
 * Then medians and means per range of rounds, and per family the compaction stats, SST bytes and directory bytes.
 * Switches: {@code -Dprobe.pointWritesAt100k=N} (the benchmark's point-write phase: N creates of random partitions at
 * 100k, after which most batches go into partitions holding larger ids and the create check reads),
 * {@code -Dprobe.lowerRocksPriority=true} (RocksDB's pools at lowered CPU priority), {@code -Dprobe.pin=true} (writer
 * and other threads on different CPUs, via taskset), {@code -Dprobe.warmBatches}. Run with
 * {@code java -Dtetradb.rocks.statistics=true -cp ... io.tetradb.bench.core.GrowthSplitProbe core|raw|both
 * [totalK=1000]} (bench/history/core.md, "Why batch100-write falls behind raw as the store grows").
 */
public final class GrowthSplitProbe {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final int BATCH = 100;
    private static final int ROUND_ITEMS = 10_000;
    private static final String[] GROUPS = {"rocksdb", "gc", "jit", "java-other"};
    private static final TickerType[] TICKERS = {TickerType.STALL_MICROS, TickerType.FLUSH_WRITE_BYTES,
        TickerType.COMPACT_WRITE_BYTES, TickerType.COMPACT_READ_BYTES, TickerType.WAL_FILE_BYTES,
        TickerType.BYTES_WRITTEN, TickerType.NUMBER_KEYS_READ, TickerType.BLOCK_CACHE_MISS,
        TickerType.BLOCK_CACHE_HIT, TickerType.BLOOM_FILTER_USEFUL, TickerType.WAL_FILE_SYNCED};
    private static final String[] TICKER_LABELS = {"stall_us", "flush_B", "compact_w_B", "compact_r_B", "wal_B",
        "bytes_written", "keys_read", "bc_miss", "bc_hit", "bloom_useful", "wal_syncs"};

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "core";
        long total = (args.length > 1 ? Long.parseLong(args[1]) : 1000) * 1000;
        Path dir = BenchData.fresh("growth-split-" + mode);
        long writerTid = Long.parseLong(Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString());
        List<Side> sides = new ArrayList<>();
        try {
            if (Boolean.getBoolean("probe.lowerRocksPriority")) {
                // RocksDB's background threads (shared by every database of the process) at nice 19
                org.rocksdb.Env.getDefault().lowerThreadPoolCPUPriority(org.rocksdb.Priority.LOW)
                        .lowerThreadPoolCPUPriority(org.rocksdb.Priority.HIGH);
                System.out.println("# RocksDB's LOW and HIGH thread pools at lowered CPU priority");
            }
            warmUpJit(mode, dir.resolve("warmup"), writerTid);
            if (!mode.equals("raw")) {
                sides.add(Side.core(dir.resolve("core"), Durability.SYNC));
            }
            if (!mode.equals("core")) {
                sides.add(Side.raw(dir.resolve("raw"), sides.isEmpty() ? 1 : sides.get(0).items, Durability.SYNC));
            }
            System.out.println("# mode " + mode + ", " + total + " items, statistics " + (sides.get(0).stats != null)
                    + ", pid " + ProcessHandle.current().pid() + ", load " + loadavg());
            boolean pin = Boolean.getBoolean("probe.pin");
            for (Side side : sides) {
                System.out.println("# " + side.name + ": side round items wall_us writer_cpu_us writer_off_cpu_us "
                        + "rocksdb_us gc_us jit_us java_other_us " + String.join(" ", TICKER_LABELS)
                        + " writer_runq_us outside_us steal_us writer_minflt wal_sync_us db_write_us L0(" + String.join(",", side.familyNames) + ") levels("
                        + String.join(",", side.familyNames) + ")");
            }
            long loaded = 0;
            int round = 0;
            int pointWrites = Integer.getInteger("probe.pointWritesAt100k", 0);
            while (loaded < total) {
                if (loaded == 100_000 && pointWrites > 0) {
                    // as the benchmark's point-write phase at 100k: creates of random partitions, so that most of
                    // the later batches go into partitions that already hold items (their creates then read first)
                    java.util.SplittableRandom random = new java.util.SplittableRandom(100_000 * 31);
                    for (int i = 0; i < pointWrites; i++) {
                        int device = random.nextInt(CoreBenchmark.DEVICES);
                        for (Side side : sides) {
                            side.pointWrite(device, i);
                        }
                    }
                    System.out.println("# " + pointWrites + " point writes of random partitions at 100k");
                }
                for (int k = 0; k < sides.size(); k++) {
                    // alternated as the benchmark does: core first in even rounds
                    Side side = sides.get(round % 2 == 0 ? k : sides.size() - 1 - k);
                    if (pin) {
                        pin(writerTid);
                    }
                    side.round(loaded, writerTid, round > 0); // the first round warms the JIT, unrecorded
                }
                loaded += ROUND_ITEMS;
                round++;
            }
            for (Side side : sides) {
                side.summary("0-200k", 0, 200_000);
                side.summary("0-" + total / 1000 + "k", 0, total);
                side.summary("200k-" + total / 1000 + "k", 200_000, total);
                side.summary((total - 200_000) / 1000 + "k-" + total / 1000 + "k", total - 200_000, total);
            }
            System.out.println("# load at end " + loadavg());
            for (Side side : sides) {
                side.report(dir.resolve(side.name), total);
            }
        } finally {
            for (Side side : sides) {
                side.close();
            }
            BenchData.delete(dir);
        }
    }

    /**
     * As the benchmark does before its load: {@code -Dprobe.warmBatches} (300) batches of each side on throwaway
     * stores without fsync, so the JIT has compiled the batch path before the first measured round.
     */
    private static void warmUpJit(String mode, Path dir, long writerTid) throws Exception {
        int batches = Integer.getInteger("probe.warmBatches", 300);
        if (batches <= 0) {
            return;
        }
        List<Side> warm = new ArrayList<>();
        try {
            if (!mode.equals("raw")) {
                warm.add(Side.core(dir.resolve("core"), Durability.ASYNC));
            }
            if (!mode.equals("core")) {
                warm.add(Side.raw(dir.resolve("raw"), warm.isEmpty() ? 1 : warm.get(0).items, Durability.ASYNC));
            }
            for (int b = 0; b < batches; b++) {
                for (Side side : warm) {
                    side.batch((long) b * BATCH);
                }
            }
        } finally {
            for (Side side : warm) {
                side.close();
            }
            BenchData.delete(dir);
        }
        System.out.println("# JIT warm-up: " + batches + " batches of each side on throwaway stores (ASYNC)");
    }

    /**
     * {@code -Dprobe.pin=true}, a diagnostic: the writer on CPU 0 and every other thread of this process (RocksDB's
     * flushes and compactions, GC, JIT) on CPU 1, so the writer never queues behind them; re-applied each round,
     * since RocksDB starts threads as it needs them.
     */
    private static void pin(long writerTid) throws Exception {
        List<String> command = new ArrayList<>();
        for (String tid : ProcTasks.tids()) {
            String cpu = tid.equals(Long.toString(writerTid)) ? "0" : "1";
            command.clear();
            command.addAll(List.of("taskset", "-p", "-c", cpu, tid));
            new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start().waitFor();
        }
    }

    /** One side: the core through its document API, or raw RocksDB; its database, families and counters. */
    private static final class Side implements AutoCloseable {
        final String name;
        final CosmosClient client;
        final CosmosContainer container;
        final RawRocks raw;
        final Items items;
        final RocksDB db;
        final List<ColumnFamilyHandle> families = new ArrayList<>();
        final List<String> familyNames = new ArrayList<>();
        final Statistics stats;
        final List<double[]> rows = new ArrayList<>();

        private Side(String name, CosmosClient client, CosmosContainer container, RawRocks raw, Items items,
                     RocksDB db, Statistics stats) {
            this.name = name;
            this.client = client;
            this.container = container;
            this.raw = raw;
            this.items = items;
            this.db = db;
            this.stats = stats;
        }

        static Side core(Path dir, Durability durability) throws Exception {
            CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).durability(durability)
                    .buildClient();
            client.createDatabaseIfNotExists("bench");
            CosmosDatabase database = client.getDatabase("bench");
            database.createContainerIfNotExists(CoreBenchmark.itemsContainer());
            var store = client.coreStore();
            RocksEngine engine = (RocksEngine) field(store, "engine");
            Items items = new Items(store.container("bench", "items").definition().collId(), CoreBenchmark.DEVICES);
            Side side = new Side("core", client, database.getContainer("items"), null, items,
                    (RocksDB) field(engine, "db"), engine.statistics());
            @SuppressWarnings("unchecked")
            Map<Space, ColumnFamilyHandle> bySpace = (Map<Space, ColumnFamilyHandle>) field(engine, "families");
            for (Map.Entry<Space, ColumnFamilyHandle> e : bySpace.entrySet()) {
                side.familyNames.add(e.getKey().familyName());
                side.families.add(e.getValue());
            }
            return side;
        }

        static Side raw(Path dir, Object coreItems, Durability durability) throws Exception {
            Files.createDirectories(dir.getParent());
            RawRocks raw = new RawRocks(dir, durability, durability == Durability.SYNC
                    ? CoreBenchmark.BLOCK_CACHE_BYTES : 16L << 20);
            // the core's keys when the core runs beside it (the benchmark's case); their shape alone otherwise
            Items items = coreItems instanceof Items i ? i : new Items(1, CoreBenchmark.DEVICES);
            Side side = new Side("raw", null, null, raw, items, raw.db(), raw.statistics());
            side.families.add((ColumnFamilyHandle) field(raw, "docs"));
            side.familyNames.add("docs");
            return side;
        }

        /** One create (or put) of a new item in partition {@code device}. */
        void pointWrite(int device, long n) throws Exception {
            String id = Items.id("w", n);
            ObjectNode node = items.item(id, device, 1_000_000_000L + n);
            if (raw == null) {
                container.createItem(node);
            } else {
                raw.put(items.key(device, id), items.rawValue(node, n));
            }
        }

        /** Writes the batch of items {@code first} to {@code first + 99}; returns its {wall, writer CPU} in ns. */
        long[] batch(long first) throws Exception {
            boolean core = raw == null;
            long b = first / BATCH;
            int device = (int) (b % CoreBenchmark.DEVICES);
            ObjectNode[] nodes = new ObjectNode[BATCH];
            byte[][] keys = new byte[BATCH][];
            byte[][] values = new byte[BATCH][];
            for (int i = 0; i < BATCH; i++) {
                long n = b * BATCH + i;
                nodes[i] = items.item(Items.id("i", n), device, n);
                if (!core) {
                    keys[i] = items.key(device, nodes[i].get("id").textValue());
                    values[i] = items.rawValue(nodes[i], n + 1);
                }
            }
            long c0 = THREADS.getCurrentThreadCpuTime();
            long w0 = System.nanoTime();
            if (core) {
                CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey(items.deviceId(device)));
                for (ObjectNode node : nodes) {
                    batch.createItemOperation(node);
                }
                if (!container.executeCosmosBatch(batch).isSuccessStatusCode()) {
                    throw new IllegalStateException("core batch " + b + " failed");
                }
            } else {
                raw.write(keys, values);
            }
            return new long[]{System.nanoTime() - w0, THREADS.getCurrentThreadCpuTime() - c0};
        }

        /** Writes items {@code loaded} to {@code loaded + ROUND_ITEMS} in batches of 100 and prints the round. */
        void round(long loaded, long writerTid, boolean record) throws Exception {
            boolean core = raw == null;
            Map<String, Long> g0 = groups(writerTid);
            ProcTasks.Schedstat s0 = ProcTasks.currentThreadSchedstat();
            long[] t0 = tickers(stats);
            long[] m0 = machineBusy();
            long[] h0 = histogramSums(stats);
            long wall = 0;
            long cpu = 0;
            long faults0 = ProcTasks.currentThread().minorFaults();
            for (long b = loaded / BATCH; b < (loaded + ROUND_ITEMS) / BATCH; b++) {
                long[] wallCpu = batch(b * BATCH);
                wall += wallCpu[0];
                cpu += wallCpu[1];
            }
            long faults = ProcTasks.currentThread().minorFaults() - faults0;
            ProcTasks.Schedstat s1 = ProcTasks.currentThreadSchedstat();
            long[] m1 = machineBusy();
            long[] h1 = histogramSums(stats);
            Map<String, Long> g1 = groups(writerTid);
            long[] t1 = tickers(stats);
            double n = ROUND_ITEMS;
            double[] row = new double[14 + TICKERS.length];
            row[0] = loaded + ROUND_ITEMS;
            row[1] = wall / 1e3 / n;
            row[2] = cpu / 1e3 / n;
            row[3] = (wall - cpu) / 1e3 / n;
            for (int i = 0; i < GROUPS.length; i++) {
                row[4 + i] = (g1.getOrDefault(GROUPS[i], 0L) - g0.getOrDefault(GROUPS[i], 0L)) / 1e3 / n;
            }
            for (int i = 0; i < TICKERS.length; i++) {
                row[8 + i] = (t1[i] - t0[i]) / n;
            }
            // the writer's run-queue wait over the whole round (the timed calls are nearly all of it)
            row[8 + TICKERS.length] = (s1.runQueueNanos() - s0.runQueueNanos()) / 1e3 / n;
            // the machine's busy CPU outside this process (other processes, the kernel's own threads), and steal
            row[9 + TICKERS.length] = ((m1[0] - m0[0]) - (m1[1] - m0[1])) * (double) ProcTasks.NANOS_PER_TICK / 1e3 / n;
            row[10 + TICKERS.length] = (m1[2] - m0[2]) * (double) ProcTasks.NANOS_PER_TICK / 1e3 / n;
            row[11 + TICKERS.length] = faults / n; // the writer's minor page faults (first touches of memory)
            // RocksDB's own times: WAL fsyncs (the core's group sync and raw's synced write alike) and write calls
            row[12 + TICKERS.length] = (h1[0] - h0[0]) / n;
            row[13 + TICKERS.length] = (h1[1] - h0[1]) / n;
            StringBuilder l0 = new StringBuilder();
            StringBuilder levels = new StringBuilder();
            for (ColumnFamilyHandle cf : families) {
                l0.append(l0.length() > 0 ? "," : "").append(db.getProperty(cf, "rocksdb.num-files-at-level0"));
                levels.append(levels.length() > 0 ? "," : "").append(nonEmptyLevels(db, cf));
            }
            if (record) {
                rows.add(row);
            }
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%s %d %d", name,
                    (loaded / ROUND_ITEMS) + 1, loaded + ROUND_ITEMS));
            for (int i = 1; i < row.length; i++) {
                line.append(String.format(Locale.ROOT, i < 8 || i >= 8 + TICKERS.length ? " %.3f" : " %.1f", row[i]));
            }
            System.out.println(line + " " + l0 + " " + levels);
        }

        void summary(String label, long from, long to) {
            GrowthSplitProbe.summary(name + " " + label, rows, from, to);
        }

        void report(Path dir, long total) throws Exception {
            for (int i = 0; i < families.size(); i++) {
                System.out.println("# " + name + " sst bytes " + familyNames.get(i) + " "
                        + db.getProperty(families.get(i), "rocksdb.total-sst-files-size"));
            }
            for (int i = 0; i < families.size(); i++) {
                System.out.println("# " + name + " compaction stats of " + familyNames.get(i) + "\n"
                        + db.getProperty(families.get(i), "rocksdb.cfstats-no-file-histogram"));
            }
            if (stats != null) {
                System.out.println("# " + name + " db get " + stats.getHistogramData(HistogramType.DB_GET).getCount()
                        + " multiget " + stats.getHistogramData(HistogramType.DB_MULTIGET).getCount()
                        + " write " + stats.getHistogramData(HistogramType.DB_WRITE).getCount());
            }
            try (var files = Files.walk(dir)) {
                Map<String, Long> bytesByKind = new LinkedHashMap<>();
                files.filter(Files::isRegularFile).forEach(p -> {
                    String file = p.getFileName().toString();
                    String kind = file.endsWith(".sst") ? "sst" : file.endsWith(".log") ? "wal" : "other";
                    bytesByKind.merge(kind, p.toFile().length(), Long::sum);
                });
                System.out.println("# " + name + " directory bytes per item by kind: " + bytesByKind.entrySet()
                        .stream().map(e -> e.getKey() + " "
                                + String.format(Locale.ROOT, "%.1f", e.getValue() / (double) total)).toList());
            }
        }

        @Override
        public void close() {
            if (client != null) {
                client.close();
            }
            if (raw != null) {
                raw.close();
            }
        }
    }

    /** Median per item of each column over the rounds whose end lies in (from, to]; plus their mean for the bytes. */
    private static void summary(String label, List<double[]> rows, long from, long to) {
        List<double[]> in = rows.stream().filter(r -> r[0] > from && r[0] <= to).toList();
        if (in.isEmpty()) {
            return;
        }
        StringBuilder median = new StringBuilder("MEDIAN " + label + " rounds=" + in.size());
        StringBuilder mean = new StringBuilder("MEAN   " + label + " rounds=" + in.size());
        String[] names = ("wall_us writer_cpu_us writer_off_cpu_us rocksdb_us gc_us jit_us java_other_us "
                + String.join(" ", TICKER_LABELS) + " writer_runq_us outside_us steal_us writer_minflt wal_sync_us db_write_us").split(" ");
        for (int c = 1; c < in.get(0).length; c++) {
            final int col = c;
            double[] v = in.stream().mapToDouble(r -> r[col]).sorted().toArray();
            median.append(String.format(Locale.ROOT, " %s=%.2f", names[c - 1], v[v.length / 2]));
            mean.append(String.format(Locale.ROOT, " %s=%.2f", names[c - 1], Arrays.stream(v).average().orElse(0)));
        }
        System.out.println(median);
        System.out.println(mean);
    }

    private static Map<String, Long> groups(long writerTid) {
        String writer = Long.toString(writerTid);
        Map<String, Long> out = new LinkedHashMap<>();
        for (ProcTasks.TaskStat t : ProcTasks.threads()) {
            if (t.tid().equals(writer)) {
                continue; // the writer's CPU comes from its thread bean (ns, not ticks)
            }
            String n = t.name();
            String group = n.startsWith("rocksdb:") ? "rocksdb"
                    : n.startsWith("GC Thread") || n.startsWith("G1 ") || n.startsWith("VM Thread") ? "gc"
                    : n.startsWith("C2 Compiler") || n.startsWith("C1 Compiler") ? "jit" : "java-other";
            out.merge(group, t.cpuNanos(), Long::sum);
        }
        return out;
    }

    /**
     * {machine busy ticks (every CPU: user, nice, system, irq, softirq), this process's ticks, steal ticks}, from
     * {@code /proc/stat} and {@code /proc/self/stat}: what other processes took while a round ran.
     */
    private static long[] machineBusy() {
        try {
            String[] cpu = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long busy = Long.parseLong(cpu[1]) + Long.parseLong(cpu[2]) + Long.parseLong(cpu[3])
                    + Long.parseLong(cpu[6]) + Long.parseLong(cpu[7]);
            String self = Files.readString(Path.of("/proc/self/stat"));
            String[] f = self.substring(self.lastIndexOf(')') + 2).split(" ");
            long mine = Long.parseLong(f[11]) + Long.parseLong(f[12]);
            return new long[]{busy, mine, Long.parseLong(cpu[8])};
        } catch (Exception e) {
            return new long[3];
        }
    }

    /** {WAL fsync micros, write call micros} so far (RocksDB's histograms' sums); zeros without statistics. */
    private static long[] histogramSums(Statistics stats) {
        if (stats == null) {
            return new long[2];
        }
        return new long[]{stats.getHistogramData(HistogramType.WAL_FILE_SYNC_MICROS).getSum(),
            stats.getHistogramData(HistogramType.DB_WRITE).getSum()};
    }

    private static long[] tickers(Statistics stats) {
        long[] out = new long[TICKERS.length];
        if (stats != null) {
            for (int i = 0; i < TICKERS.length; i++) {
                out[i] = stats.getTickerCount(TICKERS[i]);
            }
        }
        return out;
    }

    private static String nonEmptyLevels(RocksDB db, ColumnFamilyHandle cf) throws Exception {
        StringBuilder s = new StringBuilder();
        for (int level = 0; level < 7; level++) {
            String files = db.getProperty(cf, "rocksdb.num-files-at-level" + level);
            s.append(level == 0 ? "" : "/").append(files);
        }
        return s.toString();
    }

    private static String loadavg() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (Exception e) {
            return "?";
        }
    }

    private static Object field(Object owner, String name) throws ReflectiveOperationException {
        var f = owner.getClass().getDeclaredField(name);
        f.setAccessible(true);
        return f.get(owner);
    }
}

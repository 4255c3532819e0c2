package io.tetradb.bench.core;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.bench.BenchData;
import io.tetradb.bench.Benchmark;
import io.tetradb.bench.Report;
import io.tetradb.bench.Samples;
import io.tetradb.core.storage.Durability;
import io.tetradb.document.CosmosBatch;
import io.tetradb.document.CosmosBatchResponse;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.CosmosDatabase;
import io.tetradb.document.CosmosItemResponse;
import io.tetradb.document.PartitionKey;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

/**
 * The core store through its document API against raw RocksDB calls (the storage limit), single thread, SYNC on
 * both sides. The store grows in atomic 100-item batches; point writes and point reads are measured at two sizes.
 * Core and raw rounds alternate, so machine noise hits both; every figure is the median of its rounds.
 *
 * <p>What is timed: core — the API call from its arguments (an {@code ObjectNode}, an id and a partition key) to
 * the response (for reads including {@code getItem()}: since core-read an {@code ObjectNode} whose fields are decoded
 * when first touched; the side {@code core-touchall} visits every value of it as well, so the whole decode is timed);
 * raw — the RocksDB call with ready key and value bytes. Generating the items is not timed on either side.
 */
public final class CoreBenchmark implements Benchmark {
    static final int DEVICES = 10_000;
    static final int BATCH = 100;
    /** The store's own default, so that both sides cache alike. */
    static final long BLOCK_CACHE_BYTES = io.tetradb.core.store.StoreConfig.DEFAULT_BLOCK_CACHE;

    /**
     * The measured container. Indexing is off: raw RocksDB stores the same keys and values and nothing else, so this
     * benchmark measures the store's own overhead; what indexes cost is the query benchmark's
     * {@code RATIO write indexed/none}.
     */
    static CosmosContainerProperties itemsContainer() {
        return new CosmosContainerProperties("items", "/deviceId")
                .setIndexingPolicy(new io.tetradb.document.IndexingPolicy()
                        .setIndexingMode(io.tetradb.document.IndexingMode.NONE).setAutomatic(false)
                        .setIncludedPaths(java.util.List.of()).setExcludedPaths(java.util.List.of()));
    }

    /** Sizes and round counts of one mode. */
    record Config(long[] sizes, int loadRoundItems, int rounds, int writesPerRound, int readsPerRound,
                  int warmWrites, int warmReads, long settleMillis, int warmJitBatches, int warmJitOps) {
    }

    static Config config(boolean quick) {
        return quick
                ? new Config(new long[]{100_000, 200_000}, 10_000, 5, 1_500, 50_000, 1_000, 20_000, 10_000, 300, 20_000)
                : new Config(new long[]{100_000, 1_000_000}, 10_000, 7, 2_000, 100_000, 1_000, 30_000, 60_000, 300, 20_000);
    }

    private enum Side {
        CORE("core"), RAW("raw"), CORE_NOGETITEM("core-nogetitem"), CORE_TOUCHALL("core-touchall");

        final String label;

        Side(String label) {
            this.label = label;
        }
    }

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** CPU time (user + system) of the calling thread. */
    static long cpu() {
        return THREADS.getCurrentThreadCpuTime();
    }

    /** Keeps results alive so that nothing measured can be optimised away. */
    static volatile long sink;

    @Override
    public String name() {
        return "core";
    }

    @Override
    public String description() {
        return "document API vs raw RocksDB (same settings, keys, values, SYNC): batch100-write, point-write, "
                + "point-read, and growth 100k -> 1M items";
    }

    @Override
    public void run(boolean quick, Report out) throws Exception {
        Config c = config(quick);
        BenchData.runInFresh("core", out, dir -> {
            new Run(c, dir, out).run();
            out.progress("bytes per item and per index entry, JSON text vs binary items");
            ItemBytes.measure(out, quick ? 5_000 : 20_000);
        });
    }

    private static final class Run {
        private final Config c;
        private final Path dir;
        private final Report out;
        private final Map<String, Samples> results = new HashMap<>();
        /** The measuring thread's scheduler counters over the timed calls, per op/side/size (the wall split). */
        private final Map<String, ThreadSched> sched = new HashMap<>();
        private final Map<String, Long> schedUnits = new HashMap<>();
        private CosmosContainer container;
        /** The measured container's store, for the cache-warming scan. */
        private io.tetradb.core.store.ContainerStore coreStore;
        private RawRocks raw;
        private Items items;
        private long writeCounter;

        Run(Config c, Path dir, Report out) {
            this.c = c;
            this.dir = dir;
            this.out = out;
        }

        private Samples samples(String op, Side side, long size) {
            return results.computeIfAbsent(op + "/" + side.label + "/" + size, k -> new Samples());
        }

        /** Adds a timed stretch's scheduler counters to the wall split of op/side/size (recorded rounds only). */
        private void schedOf(String op, Side side, long size, ThreadSched delta, long units) {
            String key = op + "/" + side.label + "/" + size;
            sched.merge(key, delta, ThreadSched::plus);
            schedUnits.merge(key, units, Long::sum);
        }

        /**
         * The wall split of the writes (stderr): per unit, time on a CPU, runnable but waiting for one (run queue: a
         * loaded machine), and blocked (fsync, locks); and what the ratio is without the run-queue wait (cpu +
         * blocked per unit, raw over core): the figure a quiet machine's wall ratio tracks.
         */
        private void reportWallSplit(String op, long sizeCore, long sizeRaw, String label) {
            ThreadSched core = sched.get(op + "/" + Side.CORE.label + "/" + sizeCore);
            ThreadSched rawS = sched.get(op + "/" + Side.RAW.label + "/" + sizeRaw);
            if (core == null || rawS == null) {
                return;
            }
            double coreUnits = schedUnits.get(op + "/" + Side.CORE.label + "/" + sizeCore);
            double rawUnits = schedUnits.get(op + "/" + Side.RAW.label + "/" + sizeRaw);
            double coreWall = 1e9 / samples(op, Side.CORE, sizeCore).medianRate();
            double rawWall = 1e9 / samples(op, Side.RAW, sizeRaw).medianRate();
            double coreBusy = (core.onCpuNanos() + core.blockedNanos()) / coreUnits;
            double rawBusy = (rawS.onCpuNanos() + rawS.blockedNanos()) / rawUnits;
            out.progress(String.format(Locale.ROOT, "wall split %s (us per unit, core / raw): on-cpu %.1f / %.1f, "
                            + "kernel share of on-cpu %.2f / %.2f, run-queue %.1f / %.1f, blocked %.1f / %.1f, "
                            + "voluntary switches %.2f / %.2f; median-round wall %.1f / %.1f; "
                            + "core/raw without run-queue wait %.2f", label,
                    core.onCpuNanos() / 1e3 / coreUnits, rawS.onCpuNanos() / 1e3 / rawUnits,
                    core.systemShare(), rawS.systemShare(),
                    core.runQueueNanos() / 1e3 / coreUnits, rawS.runQueueNanos() / 1e3 / rawUnits,
                    core.blockedNanos() / 1e3 / coreUnits, rawS.blockedNanos() / 1e3 / rawUnits,
                    core.voluntary() / coreUnits, rawS.voluntary() / rawUnits, coreWall / 1e3, rawWall / 1e3,
                    rawBusy / coreBusy));
        }

        void run() throws Exception {
            long[] sizes = c.sizes();
            long full = sizes[sizes.length - 1];
            out.note("core: single thread, SYNC (fsync per commit) on both sides; core = document API "
                    + "(CosmosContainer, indexing off), raw = RocksDB with the store's RocksSettings, same keys and ~1 KiB "
                    + "values; "
                    + DEVICES + " deviceIds; store grown to " + Arrays.stream(sizes).mapToObj(Run::k)
                    .collect(Collectors.joining(", ")) + " items; throughput = median of interleaved rounds");
            try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir.resolve("core"))
                    .durability(Durability.SYNC).buildClient();
                 RawRocks rawDb = new RawRocks(dir.resolve("raw"), Durability.SYNC, BLOCK_CACHE_BYTES)) {
                client.createDatabaseIfNotExists("bench");
                CosmosDatabase db = client.getDatabase("bench");
                db.createContainerIfNotExists(itemsContainer());
                container = db.getContainer("items");
                raw = rawDb;
                coreStore = client.coreStore().container("bench", "items");
                items = new Items(coreStore.definition().collId(), DEVICES);
                ObjectNode sample = items.item(Items.id("i", 0), 0, 0);
                out.note("item " + Items.json(sample).length + " B of JSON; raw value "
                        + items.rawValue(sample, 1).length + " B; rounds per side: " + c.rounds()
                        + " x " + c.writesPerRound() + " point writes, " + c.rounds() + " x " + c.readsPerRound()
                        + " point reads at each size (after a warm-up round), batch loads of " + c.loadRoundItems()
                        + " items (the first one a warm-up)");

                warmUpJit();

                long loaded = 0;
                int round = 0;
                for (long size : sizes) {
                    out.progress("loading " + k(loaded) + " -> " + k(size) + " items on each side");
                    while (loaded < size) {
                        int n = (int) Math.min(c.loadRoundItems(), size - loaded);
                        long firstBatch = loaded / BATCH;
                        int batches = n / BATCH;
                        // the first round of each side warms the JIT up and is not recorded
                        boolean record = round > 0;
                        if (round++ % 2 == 0) {
                            loadCore(firstBatch, batches, record);
                            loadRaw(firstBatch, batches, record);
                        } else {
                            loadRaw(firstBatch, batches, record);
                            loadCore(firstBatch, batches, record);
                        }
                        loaded += (long) batches * BATCH;
                    }
                    // let the flushes and compactions the load started finish on both sides, so that sizes are
                    // compared in the same state (core-write: waiting for the raw store's alone left the core's
                    // docs compaction, which starts at its own fourth flush, running in its measured rounds)
                    long waited = raw.awaitQuiet(c.settleMillis());
                    long coreWaited = client.coreStore().awaitBackgroundWork(c.settleMillis());
                    out.progress("measuring point writes and reads at " + k(size) + " items (waited " + waited
                            + " ms for the raw store's background compaction, " + coreWaited + " ms for the core's)");
                    measurePointWrites(size);
                    measurePointReads(size);
                    for (String op : new String[]{"point-write", "point-read"}) {
                        for (Side side : Side.values()) {
                            Samples s = results.get(op + "/" + side.label + "/" + size);
                            if (s != null) {
                                out.bench("core." + op + "." + side.label, size, "ops_per_s", s);
                            }
                        }
                    }
                }
                out.bench("core.batch100-write.core", full, "items_per_s", samples("batch100-write", Side.CORE, 0));
                out.bench("core.batch100-write.raw", full, "items_per_s", samples("batch100-write", Side.RAW, 0));
                for (long size : sizes) {
                    reportWallSplit("point-write", size, size, "point-write@" + k(size));
                }
                reportWallSplit("batch100-write", 0, 0, "batch100-write");
                out.progress("closing (flushing memtables)");
            }

            long small = sizes[0];
            out.ratio("batch100-write core/raw", ratio("batch100-write", Side.CORE, 0, Side.RAW, 0));
            out.ratio("point-write core/raw", ratio("point-write", Side.CORE, full, Side.RAW, full));
            out.ratio("point-read core/raw", ratio("point-read", Side.CORE, full, Side.RAW, full));
            out.ratio("point-write@" + k(small) + " core/raw", ratio("point-write", Side.CORE, small, Side.RAW, small));
            out.ratio("point-read@" + k(small) + " core/raw", ratio("point-read", Side.CORE, small, Side.RAW, small));
            out.ratio("point-read core-touchall/raw", ratio("point-read", Side.CORE_TOUCHALL, full, Side.RAW, full));
            out.ratio("point-read@" + k(small) + " core-touchall/raw",
                    ratio("point-read", Side.CORE_TOUCHALL, small, Side.RAW, small));
            for (String op : new String[]{"point-read", "point-write"}) {
                for (Side side : new Side[]{Side.CORE, Side.RAW}) {
                    out.ratio(op + " " + side.label + "@" + k(full) + "/" + side.label + "@" + k(small),
                            ratio(op, side, full, side, small));
                }
            }
        }

        /**
         * Runs every measured code path (batch, single write, read) for a while on throwaway stores without fsync,
         * so that the first measured size does not pay for JIT compilation that later sizes do not.
         */
        private void warmUpJit() throws Exception {
            out.progress("warming up the JIT on throwaway stores (no fsync)");
            Path warm = dir.resolve("warmup");
            try (CosmosClient client = new CosmosClientBuilder().dataDirectory(warm.resolve("core"))
                    .durability(Durability.ASYNC).buildClient();
                 RawRocks rawWarm = new RawRocks(warm.resolve("raw"), Durability.ASYNC, 16L << 20)) {
                client.createDatabaseIfNotExists("warmup");
                CosmosDatabase db = client.getDatabase("warmup");
                db.createContainerIfNotExists(itemsContainer());
                CosmosContainer measured = container;
                RawRocks measuredRaw = raw;
                container = db.getContainer("items");
                raw = rawWarm;
                try {
                    for (int i = 0; i < c.warmJitBatches(); i++) {
                        loadCore(i, 1, false);
                        loadRaw(i, 1, false);
                    }
                    long size = (long) c.warmJitBatches() * BATCH;
                    long saved = writeCounter;
                    for (int i = 0; i < c.warmJitOps() / 1000; i++) {
                        pointWriteRound(size, 1000, false, true);
                        pointReadRound(size, 4000, -1);
                    }
                    writeCounter = saved;
                } finally {
                    container = measured;
                    raw = measuredRaw;
                }
            } finally {
                BenchData.delete(warm);
            }
        }

        private double ratio(String op, Side a, long sizeA, Side b, long sizeB) {
            return samples(op, a, sizeA).medianRate() / samples(op, b, sizeB).medianRate();
        }

        // ---- loading: atomic batches of 100 items of one logical partition ----------------------------------------

        private ObjectNode[] batchItems(long batch, int device) {
            ObjectNode[] nodes = new ObjectNode[BATCH];
            for (int i = 0; i < BATCH; i++) {
                long n = batch * BATCH + i;
                nodes[i] = items.item(Items.id("i", n), device, n);
            }
            return nodes;
        }

        private void loadCore(long firstBatch, int batches, boolean record) {
            Samples s = record ? samples("batch100-write", Side.CORE, 0) : new Samples();
            long total = 0;
            long cpu = 0;
            for (long b = firstBatch; b < firstBatch + batches; b++) {
                int device = (int) (b % DEVICES);
                ObjectNode[] nodes = batchItems(b, device);
                ThreadSched s0 = record ? ThreadSched.times() : null;
                long c0 = cpu();
                long t0 = System.nanoTime();
                CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey(items.deviceId(device)));
                for (ObjectNode node : nodes) {
                    batch.createItemOperation(node);
                }
                CosmosBatchResponse r = container.executeCosmosBatch(batch);
                long t = System.nanoTime() - t0;
                long dc = cpu() - c0;
                cpu += dc;
                if (record) {
                    schedOf("batch100-write", Side.CORE, 0, ThreadSched.times().minus(s0)
                            .withWall(t).withOnCpu(dc), BATCH);
                }
                if (!r.isSuccessStatusCode()) {
                    throw new IllegalStateException("core batch " + b + " failed: " + r.getStatusCode() + " "
                            + r.getErrorMessage());
                }
                s.latency(t);
                total += t;
            }
            s.round((long) batches * BATCH, total, cpu);
        }

        private void loadRaw(long firstBatch, int batches, boolean record) throws Exception {
            Samples s = record ? samples("batch100-write", Side.RAW, 0) : new Samples();
            long total = 0;
            long cpu = 0;
            byte[][] keys = new byte[BATCH][];
            byte[][] values = new byte[BATCH][];
            for (long b = firstBatch; b < firstBatch + batches; b++) {
                int device = (int) (b % DEVICES);
                ObjectNode[] nodes = batchItems(b, device);
                for (int i = 0; i < BATCH; i++) {
                    keys[i] = items.key(device, nodes[i].get("id").textValue());
                    values[i] = items.rawValue(nodes[i], b * BATCH + i + 1);
                }
                ThreadSched s0 = record ? ThreadSched.times() : null;
                long c0 = cpu();
                long t0 = System.nanoTime();
                raw.write(keys, values);
                long t = System.nanoTime() - t0;
                long dc = cpu() - c0;
                cpu += dc;
                if (record) {
                    schedOf("batch100-write", Side.RAW, 0, ThreadSched.times().minus(s0)
                            .withWall(t).withOnCpu(dc), BATCH);
                }
                s.latency(t);
                total += t;
            }
            s.round((long) batches * BATCH, total, cpu);
        }

        // ---- point writes: one new item per commit ----------------------------------------------------------------

        private void measurePointWrites(long size) throws Exception {
            pointWriteRound(size, c.warmWrites(), false, true);
            for (int r = 0; r < c.rounds(); r++) {
                pointWriteRound(size, c.writesPerRound(), true, r % 2 == 0);
            }
        }

        private void pointWriteRound(long size, int count, boolean record, boolean coreFirst) throws Exception {
            SplittableRandom random = new SplittableRandom(size * 31 + writeCounter);
            ObjectNode[] nodes = new ObjectNode[count];
            byte[][] keys = new byte[count][];
            byte[][] values = new byte[count][];
            for (int i = 0; i < count; i++) {
                int device = random.nextInt(DEVICES);
                long n = ++writeCounter;
                String id = Items.id("w", n);
                nodes[i] = items.item(id, device, 1_000_000_000L + n);
                keys[i] = items.key(device, id);
                values[i] = items.rawValue(nodes[i], n);
            }
            Samples core = record ? samples("point-write", Side.CORE, size) : new Samples();
            Samples rawS = record ? samples("point-write", Side.RAW, size) : new Samples();
            if (coreFirst) {
                writeCore(nodes, core, record ? size : -1);
                writeRaw(keys, values, rawS, record ? size : -1);
            } else {
                writeRaw(keys, values, rawS, record ? size : -1);
                writeCore(nodes, core, record ? size : -1);
            }
        }

        /** {@code size}: where the wall split goes, or -1 (not recorded). */
        private void writeCore(ObjectNode[] nodes, Samples s, long size) {
            ThreadSched s0 = ThreadSched.now();
            long c0 = cpu();
            long total = 0;
            for (ObjectNode node : nodes) {
                long t0 = System.nanoTime();
                CosmosItemResponse<ObjectNode> r = container.createItem(node);
                long t = System.nanoTime() - t0;
                if (r.getStatusCode() != 201) {
                    throw new IllegalStateException("core createItem returned " + r.getStatusCode());
                }
                s.latency(t);
                total += t;
            }
            s.round(nodes.length, total, cpu() - c0);
            if (size >= 0) {
                schedOf("point-write", Side.CORE, size, ThreadSched.now().minus(s0).withWall(total)
                        .withOnCpu(cpu() - c0), nodes.length);
            }
        }

        private void writeRaw(byte[][] keys, byte[][] values, Samples s, long size) throws Exception {
            ThreadSched s0 = ThreadSched.now();
            long c0 = cpu();
            long total = 0;
            for (int i = 0; i < keys.length; i++) {
                long t0 = System.nanoTime();
                raw.put(keys[i], values[i]);
                long t = System.nanoTime() - t0;
                s.latency(t);
                total += t;
            }
            s.round(keys.length, total, cpu() - c0);
            if (size >= 0) {
                schedOf("point-write", Side.RAW, size, ThreadSched.now().minus(s0).withWall(total)
                        .withOnCpu(cpu() - c0), keys.length);
            }
        }

        // ---- point reads of random existing items -----------------------------------------------------------------

        private static final Side[][] READ_ORDERS = {
                {Side.CORE, Side.RAW, Side.CORE_NOGETITEM, Side.CORE_TOUCHALL},
                {Side.RAW, Side.CORE_NOGETITEM, Side.CORE_TOUCHALL, Side.CORE},
                {Side.CORE_NOGETITEM, Side.CORE_TOUCHALL, Side.CORE, Side.RAW},
                {Side.CORE_TOUCHALL, Side.CORE, Side.RAW, Side.CORE_NOGETITEM},
        };

        private void measurePointReads(long size) throws Exception {
            // both block caches warm, so that every round measures the steady state rather than the first misses
            long[] coreItems = {0};
            coreStore.scan(io.tetradb.core.partition.EpkRange.FULL, v -> ++coreItems[0] > 0);
            long rawItems = raw.scanAll();
            out.progress("warmed the caches: core " + coreItems[0] + " items, raw " + rawItems + " items");
            pointReadRound(size, c.warmReads(), -1);
            for (int r = 0; r < c.rounds(); r++) {
                pointReadRound(size, c.readsPerRound(), r);
            }
        }

        private void pointReadRound(long size, int count, int round) throws Exception {
            SplittableRandom random = new SplittableRandom(size * 1_000 + round);
            String[] ids = new String[count];
            String[] devices = new String[count];
            byte[][] keys = new byte[count][];
            for (int i = 0; i < count; i++) {
                long n = random.nextLong(size);
                int device = (int) ((n / BATCH) % DEVICES);
                ids[i] = Items.id("i", n);
                devices[i] = items.deviceId(device);
                keys[i] = items.key(device, ids[i]);
            }
            for (Side side : READ_ORDERS[Math.max(0, round) % READ_ORDERS.length]) {
                Samples s = round >= 0 ? samples("point-read", side, size) : new Samples();
                switch (side) {
                    case CORE -> readCore(ids, devices, s, true, false);
                    case CORE_NOGETITEM -> readCore(ids, devices, s, false, false);
                    case CORE_TOUCHALL -> readCore(ids, devices, s, true, true);
                    case RAW -> readRaw(keys, s);
                }
            }
        }

        /**
         * {@code materialise}: {@code getItem()} is timed (since core-read a tree whose fields are decoded when first
         * touched); {@code touchAll}: every value of it is visited too, inside the timed call (the whole decode).
         */
        private void readCore(String[] ids, String[] devices, Samples s, boolean materialise, boolean touchAll) {
            long c0 = cpu();
            long total = 0;
            long bytes = 0;
            for (int i = 0; i < ids.length; i++) {
                long t0 = System.nanoTime();
                CosmosItemResponse<ObjectNode> r = container.readItem(ids[i], new PartitionKey(devices[i]),
                        ObjectNode.class);
                ObjectNode item = materialise ? r.getItem() : null;
                if (touchAll) {
                    bytes += ReadProbe.visit(item);
                }
                long t = System.nanoTime() - t0;
                if (r.getStatusCode() != 200 || (materialise && item == null)) {
                    throw new IllegalStateException("core read of " + ids[i] + " returned " + r.getStatusCode());
                }
                bytes += materialise ? item.size() : 1;
                s.latency(t);
                total += t;
            }
            sink += bytes;
            s.round(ids.length, total, cpu() - c0);
        }

        private void readRaw(byte[][] keys, Samples s) throws Exception {
            long c0 = cpu();
            long total = 0;
            long bytes = 0;
            for (byte[] key : keys) {
                long t0 = System.nanoTime();
                byte[] v = raw.get(key);
                long t = System.nanoTime() - t0;
                if (v == null) {
                    throw new IllegalStateException("raw read found nothing");
                }
                bytes += v.length;
                s.latency(t);
                total += t;
            }
            sink += bytes;
            s.round(keys.length, total, cpu() - c0);
        }

        static String k(long n) {
            return n > 0 && n % 1000 == 0 ? (n / 1000) + "k" : Long.toString(n);
        }
    }
}

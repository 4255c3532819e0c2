package io.tetradb.bench.core;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.bench.BenchData;
import io.tetradb.core.storage.Durability;
import io.tetradb.core.storage.RocksEngine;
import io.tetradb.core.storage.RocksSettings;
import io.tetradb.core.storage.Space;
import io.tetradb.document.CosmosBatch;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosDatabase;
import io.tetradb.document.PartitionKey;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.HistogramData;
import org.rocksdb.HistogramType;
import org.rocksdb.RocksDB;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A diagnostic, not a benchmark: the core's point write and batch write against raw RocksDB variants, each on its
 * own database with RocksDB statistics on, printing per operation the calling thread's CPU and RocksDB's counters
 * (keys and bytes written, WAL bytes and syncs, reads before the write, stalls). Run with
 * {@code java -Dtetradb.rocks.statistics=true -cp ... io.tetradb.bench.core.WriteProbe [writesPerRound] [rounds]}.
 */
public final class WriteProbe {
    private static final TickerType[] TICKERS = {
            TickerType.NUMBER_KEYS_WRITTEN, TickerType.BYTES_WRITTEN, TickerType.WAL_FILE_BYTES,
            TickerType.WAL_FILE_SYNCED, TickerType.WRITE_WITH_WAL, TickerType.WRITE_DONE_BY_SELF,
            TickerType.NUMBER_KEYS_READ, TickerType.NUMBER_MULTIGET_KEYS_READ, TickerType.MEMTABLE_HIT,
            TickerType.MEMTABLE_MISS, TickerType.BLOCK_CACHE_MISS, TickerType.STALL_MICROS,
            TickerType.FLUSH_WRITE_BYTES, TickerType.COMPACT_WRITE_BYTES, TickerType.COMPACTION_CPU_TOTAL_TIME,
            TickerType.WAL_PRECREATE_HIT, TickerType.WAL_PRECREATE_MISS};
    private static final HistogramType[] HISTOGRAMS = {
            HistogramType.DB_WRITE, HistogramType.WAL_FILE_SYNC_MICROS, HistogramType.DB_GET};

    /** A RocksDB with every column family of the store and its settings: the raw variants. */
    static final class Db implements AutoCloseable {
        final RocksSettings settings;
        final DBOptions dbOptions;
        final List<ColumnFamilyOptions> cfOptions = new ArrayList<>();
        final List<ColumnFamilyHandle> handles = new ArrayList<>();
        final Map<Space, ColumnFamilyHandle> families = new EnumMap<>(Space.class);
        final RocksDB db;
        final WriteOptions synced = RocksSettings.writeOptions(Durability.SYNC);
        final WriteOptions unsynced = RocksSettings.writeOptions(Durability.ASYNC);

        Db(Path dir) throws Exception {
            settings = new RocksSettings(CoreBenchmark.BLOCK_CACHE_BYTES);
            dbOptions = settings.dbOptions();
            List<ColumnFamilyDescriptor> d = new ArrayList<>();
            ColumnFamilyOptions def = settings.defaultColumnFamilyOptions();
            cfOptions.add(def);
            d.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, def));
            for (Space s : Space.values()) {
                ColumnFamilyOptions o = settings.columnFamilyOptions(s);
                cfOptions.add(o);
                d.add(new ColumnFamilyDescriptor(s.familyName().getBytes(StandardCharsets.UTF_8), o));
            }
            db = RocksDB.open(dbOptions, dir.toString(), d, handles);
            for (Space s : Space.values()) {
                families.put(s, handles.get(s.ordinal() + 1));
            }
        }

        @Override
        public void close() {
            handles.forEach(ColumnFamilyHandle::close);
            db.close();
            synced.close();
            unsynced.close();
            dbOptions.close();
            cfOptions.forEach(ColumnFamilyOptions::close);
            settings.close();
        }
    }

    interface Op {
        void run(int i) throws Exception;
    }

    record Variant(String name, Statistics stats, Op op) {
    }

    public static void main(String[] args) throws Exception {
        int perRound = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        boolean batches = args.length > 2 && args[2].equals("batch");
        if (!Boolean.getBoolean("tetradb.rocks.statistics")) {
            throw new IllegalStateException("run with -Dtetradb.rocks.statistics=true");
        }
        Path dir = BenchData.fresh("write-probe");
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir.resolve("core"))
                .durability(Durability.SYNC).buildClient();
             Db raw = new Db(dir.resolve("raw"));
             Db rawFlush = new Db(dir.resolve("raw-flushwal"));
             Db rawKeys = new Db(dir.resolve("raw-3keys"))) {
            client.createDatabaseIfNotExists("bench");
            CosmosDatabase database = client.getDatabase("bench");
            database.createContainerIfNotExists(CoreBenchmark.itemsContainer());
            CosmosContainer container = database.getContainer("items");
            var store = client.coreStore();
            var engineField = store.getClass().getDeclaredField("engine");
            engineField.setAccessible(true);
            RocksEngine engine = (RocksEngine) engineField.get(store);
            Items items = new Items(store.container("bench", "items").definition().collId(), CoreBenchmark.DEVICES);
            int total = perRound * (rounds + 1);
            SplittableRandom random = new SplittableRandom(7);
            int[] devices = new int[total];
            ObjectNode[] nodes = new ObjectNode[total];
            ObjectNode[] otherNodes = new ObjectNode[total]; // a second core variant's items: other ids
            byte[][] keys = new byte[total][];
            byte[][] values = new byte[total][];
            for (int i = 0; i < total; i++) {
                devices[i] = random.nextInt(CoreBenchmark.DEVICES);
                String id = Items.id("w", i);
                nodes[i] = items.item(id, devices[i], i);
                otherNodes[i] = items.item(Items.id("x", i), devices[i], i);
                keys[i] = items.key(devices[i], id);
                values[i] = items.rawValue(nodes[i], i + 1);
            }
            // the core's extra keys as the statistics show them: a feed record (~key 17 B, value ~90 B) and the
            // partition's statistics (~key 40 B, value ~40 B); sizes printed by the core variant's bytes/op
            byte[] feedValue = new byte[Integer.getInteger("probe.feedBytes", 96)];
            byte[] statsValue = new byte[Integer.getInteger("probe.statsBytes", 40)];
            List<Variant> variants = new ArrayList<>();
            if (!batches) {
                variants.add(new Variant("core createItem", engine.statistics(), i -> container.createItem(nodes[i])));
                // the core with RocksEngine's inline sync (a writer alone writes with RocksDB's sync, one call)
                var inlineField = RocksEngine.class.getDeclaredField("syncedWriteOptions");
                inlineField.setAccessible(true);
                Object inlineAsConfigured = inlineField.get(engine);
                WriteOptions inlineOn = RocksSettings.writeOptions(Durability.SYNC);
                variants.add(new Variant("core createItem inlinesync", engine.statistics(), i -> {
                    inlineField.set(engine, inlineOn);
                    try {
                        container.createItem(otherNodes[i]);
                    } finally {
                        inlineField.set(engine, inlineAsConfigured);
                    }
                }));
                variants.add(new Variant("raw synced put", raw.settings.statistics(),
                        i -> raw.db.put(raw.families.get(Space.DOCS), raw.synced, keys[i], values[i])));
                variants.add(new Variant("raw put + flushWal(true)", rawFlush.settings.statistics(), i -> {
                    rawFlush.db.put(rawFlush.families.get(Space.DOCS), rawFlush.unsynced, keys[i], values[i]);
                    rawFlush.db.flushWal(true);
                }));
                variants.add(new Variant("raw synced 3-cf batch", rawKeys.settings.statistics(), i -> {
                    try (WriteBatch b = new WriteBatch()) {
                        b.put(rawKeys.families.get(Space.DOCS), keys[i], values[i]);
                        byte[] fk = ("feed" + i).getBytes(StandardCharsets.UTF_8);
                        b.put(rawKeys.families.get(Space.FEED), fk, feedValue);
                        byte[] sk = new byte[keys[i].length - 9];
                        System.arraycopy(keys[i], 0, sk, 0, sk.length);
                        b.put(rawKeys.families.get(Space.META), sk, statsValue);
                        rawKeys.db.write(rawKeys.synced, b);
                    }
                }));
            } else {
                variants.add(new Variant("core batch100", engine.statistics(), i -> {
                    CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey(items.deviceId(devices[i])));
                    for (int j = 0; j < 100; j++) {
                        ObjectNode n = nodes[(i * 100 + j) % total].deepCopy();
                        n.put("id", "b" + i + "-" + j);
                        n.put("deviceId", items.deviceId(devices[i]));
                        batch.createItemOperation(n);
                    }
                    if (!container.executeCosmosBatch(batch).isSuccessStatusCode()) {
                        throw new IllegalStateException("batch failed");
                    }
                }));
                variants.add(new Variant("raw batch100", raw.settings.statistics(), i -> {
                    try (WriteBatch b = new WriteBatch()) {
                        for (int j = 0; j < 100; j++) {
                            byte[] k = items.key(devices[i], "b" + i + "-" + j);
                            b.put(raw.families.get(Space.DOCS), k, values[(i * 100 + j) % total]);
                        }
                        raw.db.write(raw.synced, b);
                    }
                }));
            }
            // every logical partition exists before measuring, as in the core benchmark (which loads 100k first)
            int preload = Integer.getInteger("probe.preloadPerDevice", 10);
            for (int d = 0; d < CoreBenchmark.DEVICES && preload > 0; d++) {
                CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey(items.deviceId(d)));
                try (WriteBatch rb = new WriteBatch(); WriteBatch fb = new WriteBatch(); WriteBatch kb = new WriteBatch()) {
                    for (int j = 0; j < preload; j++) {
                        String id = Items.id("p", (long) d * preload + j);
                        ObjectNode n = items.item(id, d, (long) d * preload + j);
                        batch.createItemOperation(n);
                        byte[] k = items.key(d, id);
                        byte[] v = items.rawValue(n, j + 1);
                        rb.put(raw.families.get(Space.DOCS), k, v);
                        fb.put(rawFlush.families.get(Space.DOCS), k, v);
                        kb.put(rawKeys.families.get(Space.DOCS), k, v);
                    }
                    if (!container.executeCosmosBatch(batch).isSuccessStatusCode()) {
                        throw new IllegalStateException("preload failed");
                    }
                    raw.db.write(raw.unsynced, rb);
                    rawFlush.db.write(rawFlush.unsynced, fb);
                    rawKeys.db.write(rawKeys.unsynced, kb);
                }
            }
            String only = System.getProperty("probe.only");
            if (only != null) {
                variants.removeIf(v -> !v.name.startsWith(only));
            }
            for (Variant v : variants) { // warm-up round, not counted
                for (int i = 0; i < perRound; i++) {
                    v.op.run(i);
                }
            }
            System.out.println("measure-start pid=" + ProcessHandle.current().pid());
            System.out.flush();
            Thread.sleep(Long.getLong("probe.pauseMillis", 0));
            long[] cpu = new long[variants.size()];
            long[] wall = new long[variants.size()];
            ThreadSched[] sched = new ThreadSched[variants.size()];
            java.util.Arrays.fill(sched, new ThreadSched(0, 0, 0, 0, 0, 0, 0));
            for (Variant v : variants) {
                v.stats.reset();
            }
            for (int r = 0; r < rounds; r++) {
                for (int k = 0; k < variants.size(); k++) {
                    int vi = (k + r) % variants.size();
                    Variant v = variants.get(vi);
                    ThreadSched s0 = ThreadSched.now();
                    long c0 = CoreBenchmark.cpu();
                    long t0 = System.nanoTime();
                    for (int i = 0; i < perRound; i++) {
                        v.op.run(perRound * (r + 1) + i);
                    }
                    wall[vi] += System.nanoTime() - t0;
                    cpu[vi] += CoreBenchmark.cpu() - c0;
                    sched[vi] = sched[vi].plus(ThreadSched.now().minus(s0));
                }
            }
            long ops = (long) perRound * rounds;
            for (int k = 0; k < variants.size(); k++) {
                Variant v = variants.get(k);
                StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                        "PROBE %-28s thread_cpu_us_per_op=%.1f wall_us_per_op=%.1f", v.name,
                        cpu[k] / 1e3 / ops, wall[k] / 1e3 / ops));
                // the wall split: on a CPU, runnable but waiting for one, blocked (fsync, locks, parks)
                ThreadSched ts = sched[k];
                sb.append(String.format(Locale.ROOT, " kernel_share=%.2f runq_us_per_op=%.1f blocked_us_per_op=%.1f vcsw_per_op=%.2f"
                                + " ivcsw_per_op=%.2f", ts.systemShare(), ts.runQueueNanos() / 1e3 / ops,
                        (wall[k] - ts.onCpuNanos() - ts.runQueueNanos()) / 1e3 / ops, (double) ts.voluntary() / ops,
                        (double) ts.involuntary() / ops));
                for (TickerType t : TICKERS) {
                    long n = v.stats.getTickerCount(t);
                    if (n != 0) {
                        sb.append(String.format(Locale.ROOT, " %s=%.2f", t.name().toLowerCase(Locale.ROOT),
                                (double) n / ops));
                    }
                }
                for (HistogramType h : HISTOGRAMS) {
                    HistogramData d = v.stats.getHistogramData(h);
                    if (d.getCount() > 0) {
                        sb.append(String.format(Locale.ROOT, " %s[n/op=%.2f p50=%.1f avg=%.1f]",
                                h.name().toLowerCase(Locale.ROOT), (double) d.getCount() / ops, d.getMedian(),
                                d.getAverage()));
                    }
                }
                System.out.println(sb);
            }
            for (String side : new String[]{"core", "raw"}) {
                try (var files = java.nio.file.Files.list(dir.resolve(side))) {
                    System.out.println("WAL " + side + ": " + files.filter(f -> f.toString().endsWith(".log"))
                            .map(f -> f.getFileName() + "=" + (f.toFile().length() >> 20) + "MiB")
                            .sorted().toList());
                }
            }
        } finally {
            BenchData.delete(dir);
        }
    }
}

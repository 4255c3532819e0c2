package io.tetradb.bench.core;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.bench.BenchData;
import io.tetradb.core.storage.Durability;
import io.tetradb.core.storage.RocksEngine;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosDatabase;
import org.rocksdb.HistogramData;
import org.rocksdb.HistogramType;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A diagnostic, not a benchmark: the core benchmark's point writes at growing sizes, core and raw alternated as
 * the benchmark does, with each write's wall time split by RocksDB's own histograms into the write call (WAL append
 * and memtable inserts), the WAL fsync and the reads before the write; the rest is the core's Java (and, with one
 * writer, no queueing). Also per side: flushes, compaction bytes, stalls during the rounds, and the WAL files left.
 * Run with {@code java -Dtetradb.rocks.statistics=true -cp ... io.tetradb.bench.core.WriteSplitProbe
 * [sizesInK=100,200] [writesPerRound=1500] [rounds=5]}.
 */
public final class WriteSplitProbe {
    public static void main(String[] args) throws Exception {
        String[] sizeArgs = (args.length > 0 ? args[0] : "100,200").split(",");
        int perRound = args.length > 1 ? Integer.parseInt(args[1]) : 1500;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        if (!Boolean.getBoolean("tetradb.rocks.statistics")) {
            throw new IllegalStateException("run with -Dtetradb.rocks.statistics=true");
        }
        Path dir = BenchData.fresh("write-split");
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir.resolve("core"))
                .durability(Durability.SYNC).buildClient();
             RawRocks raw = new RawRocks(dir.resolve("raw"), Durability.SYNC, CoreBenchmark.BLOCK_CACHE_BYTES)) {
            client.createDatabaseIfNotExists("bench");
            CosmosDatabase database = client.getDatabase("bench");
            database.createContainerIfNotExists(CoreBenchmark.itemsContainer());
            CosmosContainer container = database.getContainer("items");
            var store = client.coreStore();
            var engineField = store.getClass().getDeclaredField("engine");
            engineField.setAccessible(true);
            RocksEngine engine = (RocksEngine) engineField.get(store);
            Statistics coreStats = engine.statistics();
            long[] coreSync = timeGroupSyncs(engine);
            Statistics rawStats = raw.statistics();
            Items items = new Items(store.container("bench", "items").definition().collId(), CoreBenchmark.DEVICES);
            long loaded = 0;
            long written = 0;
            for (String sizeArg : sizeArgs) {
                long size = Long.parseLong(sizeArg.trim()) * 1000;
                long t0 = System.nanoTime();
                for (; loaded < size; loaded += 100) {
                    items.loadBatch(container, raw, loaded);
                }
                long waited = raw.awaitQuiet(20_000);
                long coreWaited = Boolean.getBoolean("probe.waitCore") ? store.awaitBackgroundWork(20_000) : -1;
                System.out.printf(Locale.ROOT, "SIZE %dk loaded in %.1f s, raw quiet after %d ms, core after %d ms%n",
                        size / 1000, (System.nanoTime() - t0) / 1e9, waited, coreWaited);
                Split core = new Split("core", coreStats);
                core.externalSync = coreSync;
                Split rawSplit = new Split("raw", rawStats);
                SplittableRandom random = new SplittableRandom(size);
                for (int r = -1; r < rounds; r++) { // round -1: warm-up, not counted
                    int count = r < 0 ? 1000 : perRound;
                    ObjectNode[] nodes = new ObjectNode[count];
                    byte[][] keys = new byte[count][];
                    byte[][] values = new byte[count][];
                    for (int i = 0; i < count; i++) {
                        int device = random.nextInt(CoreBenchmark.DEVICES);
                        String id = Items.id("w", ++written);
                        nodes[i] = items.item(id, device, 1_000_000_000L + written);
                        keys[i] = items.key(device, id);
                        values[i] = items.rawValue(nodes[i], written);
                    }
                    Runnable coreRound = () -> core.round(count, r2 -> container.createItem(nodes[r2]));
                    Runnable rawRound = () -> rawSplit.round(count, r2 -> raw.put(keys[r2], values[r2]));
                    boolean counted = r >= 0;
                    core.counting = counted;
                    rawSplit.counting = counted;
                    if (r % 2 == 0) {
                        coreRound.run();
                        rawRound.run();
                    } else {
                        rawRound.run();
                        coreRound.run();
                    }
                }
                core.print(size);
                rawSplit.print(size);
                System.out.println("WAL core " + walFiles(dir.resolve("core")));
                System.out.println("WAL raw  " + walFiles(dir.resolve("raw")));
                System.out.println("SST core L0 docs/feed/meta files: " + l0(dir.resolve("core")));
            }
        } finally {
            BenchData.delete(dir);
        }
    }

    /**
     * Wraps the engine's group-sync call (RocksDB's {@code flushWal(true)}, which its statistics do not time) with a
     * timer: returns {count, nanos}, reset by each round.
     */
    private static long[] timeGroupSyncs(RocksEngine engine) throws Exception {
        long[] counts = new long[2];
        var groupField = RocksEngine.class.getDeclaredField("groupSync");
        groupField.setAccessible(true);
        Object group = groupField.get(engine);
        var syncerField = group.getClass().getDeclaredField("syncer");
        syncerField.setAccessible(true);
        Object inner = syncerField.get(group);
        Class<?> syncerType = syncerField.getType();
        var sync = syncerType.getDeclaredMethod("sync");
        sync.setAccessible(true);
        Object timed = java.lang.reflect.Proxy.newProxyInstance(syncerType.getClassLoader(), new Class<?>[]{syncerType},
                (proxy, method, methodArgs) -> {
                    if (!method.getName().equals("sync")) {
                        return method.invoke(inner, methodArgs);
                    }
                    long t0 = System.nanoTime();
                    try {
                        return sync.invoke(inner);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    } finally {
                        counts[0]++;
                        counts[1] += System.nanoTime() - t0;
                    }
                });
        syncerField.set(group, timed);
        return counts;
    }

    private static String walFiles(Path d) throws Exception {
        try (var files = Files.list(d)) {
            return files.filter(f -> f.toString().endsWith(".log"))
                    .map(f -> f.getFileName() + "=" + (f.toFile().length() >> 10) + "KiB").sorted().toList().toString();
        }
    }

    private static long l0(Path d) throws Exception {
        try (var files = Files.list(d)) {
            return files.filter(f -> f.toString().endsWith(".sst")).count();
        }
    }

    interface Op {
        void run(int i) throws Exception;
    }

    /** One side's accumulated split. */
    static final class Split {
        final String name;
        final Statistics stats;
        boolean counting;
        long ops;
        long wallNs;
        long cpuNs;
        double writeUs;
        double syncUs;
        double syncs;
        double getUs;
        long stallUs;
        long flushBytes;
        long compactBytes;
        long walBytes;
        /** The core's group fsyncs, counted by {@link #timeGroupSyncs}: {count, nanos}; null for raw. */
        long[] externalSync;

        Split(String name, Statistics stats) {
            this.name = name;
            this.stats = stats;
        }

        void round(int count, Op op) {
            long c0;
            long t0;
            try {
                stats.reset();
                if (externalSync != null) {
                    externalSync[0] = 0;
                    externalSync[1] = 0;
                }
                c0 = CoreBenchmark.cpu();
                t0 = System.nanoTime();
                for (int i = 0; i < count; i++) {
                    op.run(i);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            long wall = System.nanoTime() - t0;
            long cpu = CoreBenchmark.cpu() - c0;
            if (!counting) {
                return;
            }
            ops += count;
            wallNs += wall;
            cpuNs += cpu;
            writeUs += total(HistogramType.DB_WRITE);
            if (externalSync != null) {
                syncUs += externalSync[1] / 1e3;
                syncs += externalSync[0];
            } else {
                HistogramData sync = stats.getHistogramData(HistogramType.WAL_FILE_SYNC_MICROS);
                syncUs += sync.getSum();
                syncs += sync.getCount();
            }
            getUs += total(HistogramType.DB_GET) + total(HistogramType.DB_MULTIGET);
            stallUs += stats.getTickerCount(TickerType.STALL_MICROS);
            flushBytes += stats.getTickerCount(TickerType.FLUSH_WRITE_BYTES);
            compactBytes += stats.getTickerCount(TickerType.COMPACT_WRITE_BYTES);
            walBytes += stats.getTickerCount(TickerType.WAL_FILE_BYTES);
        }

        private double total(HistogramType h) {
            return stats.getHistogramData(h).getSum();
        }

        void print(long size) {
            double wall = wallNs / 1e3 / ops;
            // DB_WRITE includes the WAL sync when the write itself syncs (raw); the core syncs in flushWal
            double write = writeUs / ops;
            double sync = syncUs / ops;
            double writeOnly = name.equals("raw") ? write - sync : write;
            double get = getUs / ops;
            System.out.printf(Locale.ROOT, "SPLIT %-4s %dk wall_us=%.1f cpu_us=%.1f | write(memtable+WAL append)=%.1f"
                            + " fsync=%.1f (syncs/op %.2f, us/sync %.1f) reads=%.1f java+rest=%.1f | stall_us/op=%.2f"
                            + " flush_MiB=%.1f compact_MiB=%.1f wal_B/op=%.0f%n", name, size / 1000, wall,
                    cpuNs / 1e3 / ops, writeOnly, sync, syncs / ops, syncs == 0 ? 0 : syncUs / syncs, get,
                    wall - writeOnly - sync - get, (double) stallUs / ops, flushBytes / 1048576.0,
                    compactBytes / 1048576.0, (double) walBytes / ops);
        }
    }
}

package io.tetradb.bench.core;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.bench.BenchData;
import io.tetradb.core.storage.Durability;
import io.tetradb.document.CosmosBatch;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosDatabase;
import io.tetradb.document.PartitionKey;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A diagnostic, not a benchmark: the calling thread's CPU per point write ({@code createItem} of the core benchmark's
 * item, random partition key) against raw RocksDB's put of the same key and value, core and raw rounds alternated,
 * medians of the rounds. With {@code ASYNC} (the default here) no fsync is in either path, so what is left is the
 * core's own work outside the fsync: its Java, its reads before the write and the write call of its extra keys.
 * Run with {@code java -cp ... io.tetradb.bench.core.PointWriteCpuProbe [itemsK=100] [writesPerRound=5000]
 * [rounds=7] [ASYNC|SYNC]}.
 */
public final class PointWriteCpuProbe {
    public static void main(String[] args) throws Exception {
        long size = (args.length > 0 ? Long.parseLong(args[0]) : 100) * 1000;
        int perRound = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 7;
        Durability durability = Durability.valueOf(args.length > 3 ? args[3] : "ASYNC");
        Path dir = BenchData.fresh("point-write-cpu");
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir.resolve("core"))
                .durability(durability).buildClient();
             RawRocks raw = new RawRocks(dir.resolve("raw"), durability, CoreBenchmark.BLOCK_CACHE_BYTES)) {
            client.createDatabaseIfNotExists("bench");
            CosmosDatabase database = client.getDatabase("bench");
            database.createContainerIfNotExists(CoreBenchmark.itemsContainer());
            CosmosContainer container = database.getContainer("items");
            var store = client.coreStore();
            Items items = new Items(store.container("bench", "items").definition().collId(), CoreBenchmark.DEVICES);
            for (long loaded = 0; loaded < size; loaded += 100) {
                int device = (int) ((loaded / 100) % CoreBenchmark.DEVICES);
                CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey(items.deviceId(device)));
                byte[][] keys = new byte[100][];
                byte[][] values = new byte[100][];
                for (int i = 0; i < 100; i++) {
                    long n = loaded + i;
                    ObjectNode node = items.item(Items.id("i", n), device, n);
                    batch.createItemOperation(node);
                    keys[i] = items.key(device, node.get("id").textValue());
                    values[i] = items.rawValue(node, n + 1);
                }
                if (!container.executeCosmosBatch(batch).isSuccessStatusCode()) {
                    throw new IllegalStateException("load batch failed");
                }
                raw.write(keys, values);
            }
            raw.awaitQuiet(20_000);
            store.awaitBackgroundWork(20_000);
            SplittableRandom random = new SplittableRandom(size);
            double[] coreCpu = new double[rounds];
            double[] rawCpu = new double[rounds];
            double[] coreWall = new double[rounds];
            double[] rawWall = new double[rounds];
            long written = 0;
            for (int r = -2; r < rounds; r++) { // two warm-up rounds
                ObjectNode[] nodes = new ObjectNode[perRound];
                byte[][] keys = new byte[perRound][];
                byte[][] values = new byte[perRound][];
                for (int i = 0; i < perRound; i++) {
                    int device = random.nextInt(CoreBenchmark.DEVICES);
                    String id = Items.id("w", ++written);
                    nodes[i] = items.item(id, device, 1_000_000_000L + written);
                    keys[i] = items.key(device, id);
                    values[i] = items.rawValue(nodes[i], written);
                }
                for (int side = 0; side < 2; side++) {
                    boolean coreSide = (side == 0) == (r % 2 == 0);
                    long c0 = CoreBenchmark.cpu();
                    long t0 = System.nanoTime();
                    for (int i = 0; i < perRound; i++) {
                        if (coreSide) {
                            container.createItem(nodes[i]);
                        } else {
                            raw.put(keys[i], values[i]);
                        }
                    }
                    double wall = (System.nanoTime() - t0) / 1e3 / perRound;
                    double cpu = (CoreBenchmark.cpu() - c0) / 1e3 / perRound;
                    if (r >= 0) {
                        (coreSide ? coreCpu : rawCpu)[r] = cpu;
                        (coreSide ? coreWall : rawWall)[r] = wall;
                    }
                }
            }
            System.out.printf(Locale.ROOT, "POINTCPU %s %dk core cpu_us=%.2f wall_us=%.2f | raw cpu_us=%.2f wall_us=%.2f"
                            + " | core-raw cpu_us=%.2f | rounds core %s raw %s%n", durability, size / 1000,
                    median(coreCpu), median(coreWall), median(rawCpu), median(rawWall),
                    median(coreCpu) - median(rawCpu), fmt(coreCpu), fmt(rawCpu));
        } finally {
            BenchData.delete(dir);
        }
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    private static String fmt(double[] v) {
        StringBuilder sb = new StringBuilder();
        for (double d : v) {
            sb.append(sb.length() == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.1f", d));
        }
        return sb.toString();
    }
}

package io.tetradb.bench.core;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.storage.Durability;
import io.tetradb.document.CosmosContainer;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A diagnostic, not a benchmark: the calling thread's CPU per point write ({@code createItem} of the core benchmark's
 * item, random partition key) against raw RocksDB's put of the same key and value, in rounds rotating three sides —
 * the core, the core with its partition statistics cache off ({@code core-nocache}: each write reads its
 * partition's statistics from RocksDB, as before core-write) and raw — so an A/B of the cache runs in one JVM on
 * one store in the same minutes; medians of the rounds. With {@code SYNC} a fourth side, {@code core-inlinesync}:
 * the core with {@code -Dtetradb.wal.inlineSync=true}'s behaviour (a writer alone writes with RocksDB's own sync). With {@code ASYNC} (the default here) no fsync is in either path, so what is left is the
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
        try (ProbeStores stores = ProbeStores.freshWithRaw("point-write-cpu", durability)) {
            CosmosContainer container = stores.container;
            Items items = stores.items;
            RawRocks raw = stores.raw;
            var store = stores.client.coreStore();
            for (long loaded = 0; loaded < size; loaded += 100) {
                items.loadBatch(container, raw, loaded);
            }
            raw.awaitQuiet(20_000);
            store.awaitBackgroundWork(20_000);
            // core-write: the store's partition statistics cache switched per round (package-private, by reflection)
            var useStatsCache = store.getClass().getDeclaredMethod("useStatsCache", boolean.class);
            useStatsCache.setAccessible(true);
            // SYNC only: a fourth side with the engine's inline sync on (RocksEngine's synced write options, set by
            // reflection for its rounds; -Dtetradb.wal.inlineSync=true sets them for the whole process)
            var engineField = store.getClass().getDeclaredField("engine");
            engineField.setAccessible(true);
            Object engine = engineField.get(store);
            var inlineField = engine.getClass().getDeclaredField("syncedWriteOptions");
            inlineField.setAccessible(true);
            Object inlineAsConfigured = inlineField.get(engine);
            Object inlineOn = io.tetradb.core.storage.RocksSettings.writeOptions(Durability.SYNC);
            boolean sync = durability == Durability.SYNC;
            String[] sides = sync ? new String[]{"core", "core-nocache", "raw", "core-inlinesync"}
                    : new String[]{"core", "core-nocache", "raw"};
            SplittableRandom random = new SplittableRandom(size);
            double[][] cpu = new double[sides.length][rounds];
            double[][] wallUs = new double[sides.length][rounds];
            long written = 0;
            for (int r = -2; r < rounds; r++) { // two warm-up rounds
                for (int k = 0; k < sides.length; k++) {
                    int side = Math.floorMod(k + r, sides.length); // the order rotates each round
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
                    if (side != 2) {
                        useStatsCache.invoke(store, side != 1);
                    }
                    if (sync) {
                        inlineField.set(engine, side == 3 ? inlineOn : inlineAsConfigured);
                    }
                    long c0 = CoreBenchmark.cpu();
                    long t0 = System.nanoTime();
                    for (int i = 0; i < perRound; i++) {
                        if (side != 2) {
                            container.createItem(nodes[i]);
                        } else {
                            raw.put(keys[i], values[i]);
                        }
                    }
                    double wall = (System.nanoTime() - t0) / 1e3 / perRound;
                    double c = (CoreBenchmark.cpu() - c0) / 1e3 / perRound;
                    if (r >= 0) {
                        cpu[side][r] = c;
                        wallUs[side][r] = wall;
                    }
                }
            }
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "POINTCPU %s %dk", durability,
                    size / 1000));
            for (int k = 0; k < sides.length; k++) {
                line.append(String.format(Locale.ROOT, " | %s cpu_us=%.2f wall_us=%.2f (cpu rounds %s)", sides[k],
                        median(cpu[k]), median(wallUs[k]), fmt(cpu[k])));
            }
            double[] paired = new double[rounds]; // per round, so a load that moves between rounds cancels
            for (int r = 0; r < rounds; r++) {
                paired[r] = cpu[1][r] - cpu[0][r];
            }
            if (sync) {
                double[] inline = new double[rounds];
                double[] inlineWall = new double[rounds];
                for (int r = 0; r < rounds; r++) {
                    inline[r] = cpu[0][r] - cpu[3][r];
                    inlineWall[r] = wallUs[0][r] - wallUs[3][r];
                }
                line.append(String.format(Locale.ROOT, " | per-round core-inlinesync cpu_us median=%.2f wall_us "
                        + "median=%.2f", median(inline), median(inlineWall)));
            }
            line.append(String.format(Locale.ROOT, " | core-raw cpu_us=%.2f nocache-raw cpu_us=%.2f"
                            + " | per-round nocache-core cpu_us median=%.2f (%s)", median(cpu[0]) - median(cpu[2]),
                    median(cpu[1]) - median(cpu[2]), median(paired), fmt(paired)));
            System.out.println(line);
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

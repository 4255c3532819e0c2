package io.tetradb.bench.core;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.storage.Durability;
import io.tetradb.document.CosmosBatch;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.PartitionKey;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A diagnostic, not a benchmark: the core benchmark's {@code batch100-write} (100 creates of one new logical
 * partition per {@code executeCosmosBatch}, the items built before the timer) against raw RocksDB's 100-put
 * {@code WriteBatch}, rounds of both sides alternated in one JVM, printing per side the calling thread's CPU and wall
 * per item (median of the rounds) and the per-round paired CPU difference, so a load that moves between rounds
 * cancels. {@code ASYNC} leaves the fsync out (the Java path's cost alone). Run with
 * {@code java -cp ... io.tetradb.bench.core.BatchCpuProbe [batchesPerRound] [rounds] [SYNC|ASYNC]};
 * {@code -Dprobe.only=core} measures the core alone (for a profiler).
 */
public final class BatchCpuProbe {
    private static final int BATCH = 100;
    /** batch-path: the writer thread's allocated bytes (HotSpot's counter), load-insensitive unlike its CPU. */
    private static final com.sun.management.ThreadMXBean ALLOC =
            (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();

    public static void main(String[] args) throws Exception {
        int perRound = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 11;
        Durability durability = args.length > 2 ? Durability.valueOf(args[2]) : Durability.ASYNC;
        String only = System.getProperty("probe.only", "");
        try (ProbeStores stores = ProbeStores.freshWithRaw("batch-cpu-probe", durability)) {
            CosmosContainer container = stores.container;
            Items items = stores.items;
            RawRocks raw = stores.raw;
            long[] next = {0};
            int warm = Integer.getInteger("probe.warmBatches", 3000);
            for (int b = 0; b < warm; b++) { // JIT warm-up, as the benchmark's throwaway rounds
                long n = next[0]++;
                if (!only.equals("raw")) {
                    core(container, items, n);
                }
                if (!only.equals("core")) {
                    raw(raw, items, n);
                }
            }
            List<double[]> coreRounds = new ArrayList<>();
            List<double[]> rawRounds = new ArrayList<>();
            System.out.println("measure-start pid=" + ProcessHandle.current().pid());
            System.out.flush();
            for (int r = 0; r < rounds; r++) {
                long first = next[0];
                next[0] += perRound;
                boolean coreFirst = r % 2 == 0;
                for (int side = 0; side < 2; side++) {
                    boolean isCore = (side == 0) == coreFirst;
                    if (isCore && only.equals("raw") || !isCore && only.equals("core")) {
                        continue;
                    }
                    long c0 = CoreBenchmark.cpu();
                    long a0 = ALLOC.getCurrentThreadAllocatedBytes();
                    long t0 = System.nanoTime();
                    long outside = 0; // building the items is timed on neither side
                    long outsideAlloc = 0;
                    for (long b = first; b < first + perRound; b++) {
                        long o0 = System.nanoTime();
                        long oc0 = CoreBenchmark.cpu();
                        long oa0 = ALLOC.getCurrentThreadAllocatedBytes();
                        Object prepared = isCore ? coreItems(items, b) : rawItems(items, b);
                        outsideAlloc += ALLOC.getCurrentThreadAllocatedBytes() - oa0;
                        outside += CoreBenchmark.cpu() - oc0;
                        t0 += System.nanoTime() - o0;
                        if (isCore) {
                            coreWrite(container, items, b, (ObjectNode[]) prepared);
                        } else {
                            rawWrite(raw, (byte[][][]) prepared);
                        }
                    }
                    double[] perItem = {(CoreBenchmark.cpu() - c0 - outside) / 1e3 / perRound / BATCH,
                            (System.nanoTime() - t0) / 1e3 / perRound / BATCH,
                            (double) (ALLOC.getCurrentThreadAllocatedBytes() - a0 - outsideAlloc) / perRound / BATCH};
                    (isCore ? coreRounds : rawRounds).add(perItem);
                }
            }
            print("core", coreRounds);
            print("raw", rawRounds);
            if (!coreRounds.isEmpty() && !rawRounds.isEmpty()) {
                double[] diff = new double[rounds];
                double[] ratio = new double[rounds];
                for (int r = 0; r < rounds; r++) {
                    diff[r] = coreRounds.get(r)[0] - rawRounds.get(r)[0];
                    ratio[r] = rawRounds.get(r)[1] / coreRounds.get(r)[1];
                }
                System.out.printf(Locale.ROOT, "PROBE paired core-raw cpu_us_per_item median=%.2f "
                        + "wall raw/core median=%.3f%n", median(diff), median(ratio));
            }
        }
    }

    private static void print(String side, List<double[]> rounds) {
        if (rounds.isEmpty()) {
            return;
        }
        double[] cpu = rounds.stream().mapToDouble(a -> a[0]).toArray();
        double[] wall = rounds.stream().mapToDouble(a -> a[1]).toArray();
        double[] alloc = rounds.stream().mapToDouble(a -> a[2]).toArray();
        System.out.printf(Locale.ROOT, "PROBE %-4s cpu_us_per_item median=%.2f min=%.2f wall_us_per_item median=%.2f"
                + " alloc_bytes_per_item median=%.0f rounds=%s%n", side, median(cpu), Arrays.stream(cpu).min().orElse(0),
                median(wall), median(alloc),
                Arrays.toString(Arrays.stream(cpu).map(v -> Math.round(v * 100) / 100.0).toArray()));
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length == 0 ? 0 : s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static int device(long b) {
        return (int) (b % CoreBenchmark.DEVICES);
    }

    private static ObjectNode[] coreItems(Items items, long b) {
        ObjectNode[] nodes = new ObjectNode[BATCH];
        for (int i = 0; i < BATCH; i++) {
            long n = b * BATCH + i;
            nodes[i] = items.item(Items.id("i", n), device(b), n);
        }
        return nodes;
    }

    private static byte[][][] rawItems(Items items, long b) {
        ObjectNode[] nodes = coreItems(items, b);
        byte[][] keys = new byte[BATCH][];
        byte[][] values = new byte[BATCH][];
        for (int i = 0; i < BATCH; i++) {
            keys[i] = items.key(device(b), nodes[i].get("id").textValue());
            values[i] = items.rawValue(nodes[i], b * BATCH + i + 1);
        }
        return new byte[][][]{keys, values};
    }

    private static void core(CosmosContainer container, Items items, long b) {
        coreWrite(container, items, b, coreItems(items, b));
    }

    private static void raw(RawRocks raw, Items items, long b) throws Exception {
        rawWrite(raw, rawItems(items, b));
    }

    private static void coreWrite(CosmosContainer container, Items items, long b, ObjectNode[] nodes) {
        CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey(items.deviceId(device(b))));
        for (ObjectNode node : nodes) {
            batch.createItemOperation(node);
        }
        if (!container.executeCosmosBatch(batch).isSuccessStatusCode()) {
            throw new IllegalStateException("core batch " + b + " failed");
        }
    }

    private static void rawWrite(RawRocks raw, byte[][][] kv) throws Exception {
        raw.write(kv[0], kv[1]);
    }
}

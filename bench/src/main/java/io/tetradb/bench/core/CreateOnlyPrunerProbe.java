package io.tetradb.bench.core;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.bench.ProbeArgs;
import io.tetradb.core.feed.FeedPruner;
import io.tetradb.core.storage.Durability;
import io.tetradb.document.CosmosBatch;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.PartitionKey;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A diagnostic, not a benchmark (notes-ab, session 14): what a create-only workload costs the writer and the core's
 * background threads, by thread CPU, which a loaded machine disturbs much less than throughput. The core benchmark's
 * shapes — 100-item batches of creates and point creates of 1 KiB items over 10,000 device ids, indexing off, SYNC —
 * in rounds; after each round the CPU per item of the writing thread, of every {@code tetradb-*} thread and of the
 * feed pruner alone, the process's CPU and GC time, and the pruner's counters (records told by the commit path, read
 * from the store). Run one JVM per side (old and new jar, or a switch), alternated:
 * {@code java -cp "bench/target/bench-<v>.jar:bench/target/lib/*" io.tetradb.bench.core.CreateOnlyPrunerProbe DIR
 * [rounds] [batchItemsPerRound] [pointCreatesPerRound]}.
 */
public final class CreateOnlyPrunerProbe {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final ObjectMapper M = new ObjectMapper();
    private static final int DEVICES = 10_000;

    private CreateOnlyPrunerProbe() {
    }

    public static void main(String[] args) throws Exception {
        ProbeArgs a = new ProbeArgs(args, "CreateOnlyPrunerProbe DIR [rounds] [batchItemsPerRound] [pointCreatesPerRound]");
        Path dir = a.dir();
        int rounds = a.intAt(1, "rounds", 4);
        int batchItems = a.intAt(2, "batchItemsPerRound", 40_000);
        int points = a.intAt(3, "pointCreatesPerRound", 3_000);
        Files.createDirectories(dir);
        String filler = "x".repeat(900);
        long id = 0;
        try (ProbeStores stores = ProbeStores.coreAt(dir, Durability.SYNC)) {
            CosmosContainer c = stores.container;
            FeedPruner pruner = stores.client.coreStore().changeFeeds().pruner();
            java.util.Random random = new java.util.Random(14);
            for (int round = 0; round < rounds; round++) {
                Map<String, Long> bg0 = background();
                long gc0 = gcMillis();
                long proc0 = processCpu();
                long told0 = pruner.recordsTold();
                long read0 = pruner.recordsRead();
                long t0 = System.nanoTime();
                long cpu0 = THREADS.getCurrentThreadCpuTime();
                for (int b = 0; b < batchItems / 100; b++) {
                    String device = "device-" + random.nextInt(DEVICES);
                    CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey(device));
                    for (int i = 0; i < 100; i++) {
                        batch.createItemOperation(item(id++, device, filler));
                    }
                    if (!c.executeCosmosBatch(batch).isSuccessStatusCode()) {
                        throw new IllegalStateException("batch failed");
                    }
                }
                long batchCpu = THREADS.getCurrentThreadCpuTime() - cpu0;
                long cpu1 = THREADS.getCurrentThreadCpuTime();
                for (int i = 0; i < points; i++) {
                    String device = "device-" + random.nextInt(DEVICES);
                    c.createItem(item(id++, device, filler));
                }
                long pointCpu = THREADS.getCurrentThreadCpuTime() - cpu1;
                long wall = System.nanoTime() - t0;
                Map<String, Long> bg = background();
                long bgAll = 0;
                for (Map.Entry<String, Long> e : bg.entrySet()) {
                    bgAll += e.getValue() - bg0.getOrDefault(e.getKey(), 0L);
                }
                long prunerCpu = bg.getOrDefault("tetradb-feed-pruner", 0L) - bg0.getOrDefault("tetradb-feed-pruner", 0L);
                long items = batchItems + points;
                System.out.printf("PROBE round=%d items=%d batch_writer_us_per_item=%.2f point_writer_us_per_create=%.1f"
                                + " background_us_per_item=%.2f pruner_us_per_item=%.3f process_cpu_us_per_item=%.2f"
                                + " gc_ms=%d wall_s=%.1f told=%d read=%d load=%s%n",
                        round, items, batchCpu / 1e3 / batchItems, pointCpu / 1e3 / Math.max(1, points),
                        bgAll / 1e3 / items, prunerCpu / 1e3 / items, (processCpu() - proc0) / 1e3 / items,
                        gcMillis() - gc0, wall / 1e9, pruner.recordsTold() - told0, pruner.recordsRead() - read0,
                        Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
            }
        }
    }

    private static ObjectNode item(long id, String device, String filler) {
        return M.createObjectNode().put("id", "item-" + id).put("deviceId", device).put("v", id).put("filler", filler);
    }

    /** CPU nanoseconds of the live {@code tetradb-*} threads, summed by name. */
    private static Map<String, Long> background() {
        Map<String, Long> out = new HashMap<>();
        for (ThreadInfo t : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (t != null && t.getThreadName().startsWith("tetradb-")) {
                long cpu = THREADS.getThreadCpuTime(t.getThreadId());
                if (cpu > 0) {
                    out.merge(t.getThreadName(), cpu, Long::sum);
                }
            }
        }
        return out;
    }

    private static long gcMillis() {
        long ms = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            ms += Math.max(0, gc.getCollectionTime());
        }
        return ms;
    }

    private static long processCpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }
}

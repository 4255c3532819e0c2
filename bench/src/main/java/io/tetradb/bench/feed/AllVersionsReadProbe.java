package io.tetradb.bench.feed;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.bench.ProbeArgs;
import io.tetradb.core.feed.ChangeFeed;
import io.tetradb.core.feed.ChangeFeedMode;
import io.tetradb.core.feed.ChangeFeedPage;
import io.tetradb.core.feed.ChangeFeedRequest;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.storage.Durability;
import io.tetradb.document.ChangeFeedPolicy;
import io.tetradb.document.CosmosBatch;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.PartitionKey;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * A diagnostic, not a benchmark (feed-tests, session 17; docs/feed-images.md §10.3): what reading an all-versions
 * change feed costs a reader — the path a Mongo change stream and a Cosmos all-versions reader take — after
 * {@code inserts} creates and {@code updates} replaces of 1 KiB items (indexing off) in {@value #KEYS} partition keys.
 * Each round reads the whole feed from the beginning in pages of {@code pageSize}, once for the container and once for
 * one partition key, on one thread, and prints events/s and that thread's CPU per event (each event's images touched
 * through {@code Change.size()}, the page's RU charge, as every reader does). Run one JVM per side of one build,
 * alternated: version images (the default) against images inline in the records
 * ({@code -Dtetradb.feed.versionImages=false}, the layout before):
 * {@code java -cp "bench/target/bench-<v>.jar:bench/target/lib/*" [-Dtetradb.feed.versionImages=false]
 * io.tetradb.bench.feed.AllVersionsReadProbe DIR [inserts] [updates] [rounds] [pageSize]} (DIR must not exist).
 */
public final class AllVersionsReadProbe {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final ObjectMapper M = new ObjectMapper();
    static final int KEYS = 20;

    private AllVersionsReadProbe() {
    }

    public static void main(String[] args) throws Exception {
        ProbeArgs a = new ProbeArgs(args, "AllVersionsReadProbe DIR [inserts] [updates] [rounds] [pageSize]");
        Path dir = a.dir();
        int inserts = a.intAt(1, "inserts", 20_000);
        int updates = a.intAt(2, "updates", 20_000);
        int rounds = a.intAt(3, "rounds", 7);
        int pageSize = a.intAt(4, "pageSize", 100);
        if (Files.exists(dir)) {
            throw new IllegalArgumentException(dir + " exists: the probe writes a fresh store");
        }
        String side = "false".equals(System.getProperty("tetradb.feed.versionImages")) ? "inline" : "images";
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).durability(Durability.ASYNC)
                .buildClient()) {
            client.createDatabaseIfNotExists("bench");
            CosmosContainerProperties p = new CosmosContainerProperties("feed", "/pk")
                    .setIndexingPolicy(new io.tetradb.document.IndexingPolicy()
                            .setIndexingMode(io.tetradb.document.IndexingMode.NONE).setAutomatic(false)
                            .setIncludedPaths(List.of()).setExcludedPaths(List.of()));
            p.setChangeFeedPolicy(ChangeFeedPolicy.createAllVersionsAndDeletesPolicy(Duration.ofHours(1)));
            client.getDatabase("bench").createContainer(p);
            CosmosContainer c = client.getDatabase("bench").getContainer("feed");
            write(c, inserts, updates);
            ChangeFeed feed = client.coreStore().container("bench", "feed").changeFeed();
            PartitionKeyValue key = PartitionKeyValue.of(List.of(PartitionKeyValue.component("pk-0")));
            List<double[]> container = new ArrayList<>();
            List<double[]> partition = new ArrayList<>();
            for (int round = -1; round < rounds; round++) { // round -1 warms the JIT, not counted
                double[] all = read(feed, null, pageSize);
                double[] one = read(feed, key, pageSize);
                String load = Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
                System.out.printf("PROBE side=%s round=%d container_events=%.0f container_events_per_s=%.0f"
                                + " container_cpu_us_per_event=%.3f key_events=%.0f key_events_per_s=%.0f"
                                + " key_cpu_us_per_event=%.3f load=%s%n", side, round, all[0], all[1], all[2], one[0],
                        one[1], one[2], load);
                if (round >= 0) {
                    container.add(all);
                    partition.add(one);
                }
            }
            System.out.printf("PROBE-MEDIAN side=%s inserts=%d updates=%d page=%d rounds=%d"
                            + " container_events_per_s=%.0f container_cpu_us_per_event=%.3f"
                            + " key_events_per_s=%.0f key_cpu_us_per_event=%.3f%n", side, inserts, updates, pageSize,
                    rounds, median(container, 1), median(container, 2), median(partition, 1), median(partition, 2));
        }
    }

    /** {@code inserts} creates in 100-item batches per key, then {@code updates} point replaces of random items. */
    private static void write(CosmosContainer c, int inserts, int updates) {
        String filler = "x".repeat(900);
        for (int done = 0, batchNo = 0; done < inserts; batchNo++) {
            String pk = "pk-" + batchNo % KEYS;
            CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey(pk));
            for (int i = 0; i < 100 && done < inserts; i++, done++) {
                batch.createItemOperation(item(done, pk, 0, filler));
            }
            if (!c.executeCosmosBatch(batch).isSuccessStatusCode()) {
                throw new IllegalStateException("batch failed");
            }
        }
        Random random = new Random(17);
        for (int u = 0; u < updates; u++) {
            int n = random.nextInt(inserts);
            int batchNo = n / 100;
            c.upsertItem(item(n, "pk-" + batchNo % KEYS, u + 1, filler));
        }
    }

    private static ObjectNode item(int n, String pk, int version, String filler) {
        return M.createObjectNode().put("id", "item-" + n).put("pk", pk).put("version", version).put("filler", filler);
    }

    /** One read of the whole feed of a scope from the beginning: {events, events/s, thread CPU µs per event}. */
    private static double[] read(ChangeFeed feed, PartitionKeyValue key, int pageSize) {
        long events = 0;
        long bytes = 0;
        long position = 0;
        long cpu0 = THREADS.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        while (true) {
            ChangeFeedPage page = feed.read(new ChangeFeedRequest(ChangeFeedMode.ALL_VERSIONS_AND_DELETES, null, key,
                    position, 0, pageSize));
            for (ChangeFeedPage.Change ch : page.changes()) {
                bytes += ch.size(); // the page's RU charge: every image's bytes
                events++;
            }
            position = page.continuation();
            if (page.caughtUp()) {
                break;
            }
        }
        long wall = System.nanoTime() - t0;
        long cpu = THREADS.getCurrentThreadCpuTime() - cpu0;
        if (bytes <= events * 900L) {
            throw new IllegalStateException("images missing: " + bytes + " bytes for " + events + " events");
        }
        return new double[]{events, events / (wall / 1e9), cpu / 1e3 / Math.max(1, events)};
    }

    private static double median(List<double[]> rounds, int field) {
        double[] v = rounds.stream().mapToDouble(r -> r[field]).toArray();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}

package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.partition.EpkRange;
import io.tetradb.core.partition.PartitionMap;
import io.tetradb.core.partition.PhysicalPartition;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.FeedRange;
import io.tetradb.document.PartitionKey;
import io.tetradb.testing.TestTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Writers and readers run while partitions split; afterwards every item is there exactly once. */
class SplitTest {
    static final ObjectMapper M = new ObjectMapper();
    static final long THRESHOLD = 64 * 1024;
    static final int WRITERS = 2;
    static final int ITEMS_PER_WRITER = 1500;

    @Test
    void splitsUnderLoadLoseNothingAndDuplicateNothing(@TempDir Path dir) throws Exception {
        List<String> ids = new ArrayList<>();
        List<String> rangesBefore;
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).splitThresholdBytes(THRESHOLD).buildClient()) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer("c", "/pk");
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            ContainerStore store = client.coreStore().container("db", "c");
            ConcurrentLinkedQueue<String[]> acknowledged = new ConcurrentLinkedQueue<>();
            AtomicBoolean writing = new AtomicBoolean(true);
            ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 2);
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                writers.add(pool.submit(() -> {
                    for (int i = 0; i < ITEMS_PER_WRITER; i++) {
                        String pk = "p" + ThreadLocalRandom.current().nextInt(400);
                        String id = "w" + writer + "-" + i;
                        c.createItem(M.createObjectNode().put("id", id).put("pk", pk).put("fill", "x".repeat(900)));
                        acknowledged.add(new String[]{pk, id});
                    }
                    return null;
                }));
            }
            // point reader: every acknowledged item is readable at every moment
            Future<Integer> pointReader = pool.submit(() -> {
                int reads = 0;
                while (writing.get()) {
                    for (String[] a : acknowledged) {
                        c.readItem(a[1], new PartitionKey(a[0]), ObjectNode.class);
                        reads++;
                        if (!writing.get()) {
                            break;
                        }
                    }
                }
                return reads;
            });
            // range reader: a pass over the current physical partitions sees every item acknowledged before it
            // started, and none twice
            Future<Integer> rangeReader = pool.submit(() -> {
                int passes = 0;
                while (writing.get()) {
                    int before = acknowledged.size();
                    Set<String> seen = new HashSet<>();
                    PartitionMap map = store.partitionMap();
                    for (PhysicalPartition p : map.partitions()) {
                        store.scan(p.range(), stored -> {
                            String id = store.codec().parse(stored).get("id").asText();
                            assertTrue(seen.add(id), "seen twice: " + id);
                            return true;
                        });
                    }
                    assertTrue(seen.size() >= before, seen.size() + " < " + before);
                    passes++;
                }
                return passes;
            });
            for (Future<?> f : writers) {
                f.get(TestTime.patience(Duration.ofSeconds(120)).toSeconds(), TimeUnit.SECONDS);
            }
            writing.set(false);
            assertTrue(pointReader.get(TestTime.patience(Duration.ofSeconds(60)).toSeconds(), TimeUnit.SECONDS) > 0);
            assertTrue(rangeReader.get(TestTime.patience(Duration.ofSeconds(60)).toSeconds(), TimeUnit.SECONDS) > 0);
            pool.shutdown();
            client.coreStore().awaitSplits();

            List<FeedRange> ranges = c.getFeedRanges();
            assertTrue(ranges.size() >= 16, "expected many splits, got " + ranges.size());
            checkTiling(ranges);
            for (String[] a : acknowledged) {
                ids.add(a[1]);
                assertEquals(a[1], c.readItem(a[1], new PartitionKey(a[0]), ObjectNode.class).getItem().get("id").asText());
            }
            assertEquals(WRITERS * ITEMS_PER_WRITER, ids.size());
            assertEachOnce(store, ids);
            long counted = c.readPartitionStatistics().physicalPartitions().stream().mapToLong(p -> p.itemCount()).sum();
            assertEquals(ids.size(), counted);
            for (var p : c.readPartitionStatistics().physicalPartitions()) {
                assertTrue(p.bytes() <= THRESHOLD || p.logicalPartitionCount() == 1,
                        "partition " + p.id() + " holds " + p.bytes() + " bytes in " + p.logicalPartitionCount() + " logical partitions");
            }
            rangesBefore = ranges.stream().map(FeedRange::toString).toList();
        }
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).splitThresholdBytes(THRESHOLD).buildClient()) {
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            assertEquals(rangesBefore, c.getFeedRanges().stream().map(FeedRange::toString).toList(),
                    "the partition map persists");
            assertEachOnce(client.coreStore().container("db", "c"), ids);
            assertEquals(ids.size(), c.readPartitionStatistics().physicalPartitions().stream()
                    .mapToLong(p -> p.itemCount()).sum());
        }
    }

    static void checkTiling(List<FeedRange> ranges) {
        String expected = "";
        for (FeedRange r : ranges) {
            assertEquals(expected, r.getMinInclusive());
            assertTrue(r.getMinInclusive().compareTo(r.getMaxExclusive()) < 0 || r.getMinInclusive().isEmpty());
            expected = r.getMaxExclusive();
        }
        assertEquals("FF", expected);
    }

    static void assertEachOnce(ContainerStore store, List<String> ids) {
        List<String> seen = new ArrayList<>();
        for (PhysicalPartition p : store.partitionMap().partitions()) {
            store.scan(p.range(), stored -> seen.add(store.codec().parse(stored).get("id").asText()));
        }
        assertEquals(ids.size(), seen.size(), "items seen over all partitions");
        assertEquals(new HashSet<>(ids), new HashSet<>(seen));
        List<String> full = new ArrayList<>();
        store.scan(EpkRange.FULL, stored -> full.add(store.codec().parse(stored).get("id").asText()));
        assertEquals(ids.size(), full.size());
    }
}

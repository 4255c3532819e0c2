package io.tetradb.core.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.FeedRange;
import io.tetradb.testing.KilledChild;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A child JVM writes transactional batches and prints each acknowledged one; the test SIGKILLs it at a random moment,
 * reopens the store, and checks that every acknowledged batch is whole and no other batch is half there. Splits run
 * during the writes (tiny threshold), so some kills land around a split. Every other batch is a stored procedure
 * making the same writes, so kills also land inside stored procedures.
 */
class CrashTest {
    static final int ROUNDS = 6;

    @Test
    void killedWriterLosesNothingAcknowledgedAndLeavesNoHalfBatch(@TempDir Path dir) throws Exception {
        long seed = KilledChild.seed(); // -Dtetradb.crash.seed=N replays a failed run's kill points
        Random random = new Random(seed);
        Set<String> acknowledged = new HashSet<>();
        FeedState feed = new FeedState();
        int killedAfterAcks = 0;
        for (int round = 0; round < ROUNDS; round++) {
            int killAfter = 5 + random.nextInt(150);
            // the writer stores items in this JVM's item format (-Dtetradb.itemFormat=binary runs it on the binary one)
            KilledChild child = KilledChild.start(CrashWriter.class,
                    List.of("-Dtetradb.itemFormat=" + System.getProperty("tetradb.itemFormat", "binary")),
                    dir.toString(), Integer.toString(round));
            int[] acks = {0};
            child.readUntilKilled(Duration.ofSeconds(120), KilledChild.FAILED, "seed " + seed, line -> {
                if (!line.startsWith("ACK ")) {
                    return false;
                }
                String[] parts = line.split(" ");
                acknowledged.add(parts[1] + "-" + parts[2]);
                return ++acks[0] >= killAfter; // then SIGKILL, while the child is in the middle of later batches
            });
            assertEquals(killAfter, acks[0], "the writer stopped early (seed " + seed + ")");
            killedAfterAcks += acks[0];
            verify(dir, acknowledged, seed, feed);
        }
        assertTrue(killedAfterAcks >= ROUNDS * 5);
    }

    /** The change feed position and the item ids seen at the previous verification. */
    static final class FeedState {
        String token;
        Set<String> ids = new HashSet<>();
    }

    private static void verify(Path dir, Set<String> acknowledged, long seed, FeedState feed) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir)
                .splitThresholdBytes(CrashWriter.SPLIT_THRESHOLD).buildClient()) {
            ContainerStore store = client.coreStore().container("crash", "c");
            Map<String, Integer> perBatch = new HashMap<>();
            Map<String, Integer> batchesPerPartition = new HashMap<>();
            Map<String, Integer> counters = new HashMap<>();
            store.scan(io.tetradb.core.partition.EpkRange.FULL, stored -> {
                ObjectNode item = store.codec().parse(stored);
                if (item.get("id").asText().equals("counter")) {
                    counters.put(item.get("pk").asText(), item.get("v").asInt());
                } else if (perBatch.merge(item.get("batch").asText(), 1, Integer::sum) == 1) {
                    batchesPerPartition.merge(item.get("pk").asText(), 1, Integer::sum);
                }
                return true;
            });
            for (String batch : acknowledged) {
                assertEquals(CrashWriter.ITEMS, perBatch.getOrDefault(batch, 0),
                        "acknowledged batch " + batch + " (seed " + seed + ")");
            }
            perBatch.forEach((batch, n) -> assertEquals(CrashWriter.ITEMS, n, "batch " + batch + " is torn (seed " + seed + ")"));
            counters.forEach((pk, v) -> assertEquals(batchesPerPartition.getOrDefault(pk, 0), v,
                    "counter of " + pk + " disagrees with its batches (seed " + seed + ")"));
            // every item's index entries are there, and no others
            ContainerStore.IndexCheck indexes = store.checkIndexes();
            assertTrue(indexes.consistent(), indexes + " (seed " + seed + ")");
            // the partition map still tiles the EPK space (PartitionMap checks it on load) and counts every item
            List<FeedRange> ranges = client.getDatabase("crash").getContainer("c").getFeedRanges();
            SplitTest.checkTiling(new ArrayList<>(ranges));
            long items = client.getDatabase("crash").getContainer("c").readPartitionStatistics().physicalPartitions()
                    .stream().mapToLong(p -> p.itemCount()).sum();
            assertEquals(perBatch.size() * CrashWriter.ITEMS + counters.size(), items);
            verifyChangeFeed(client, store, acknowledged, seed, feed);
        }
    }

    /**
     * The change feed from the beginning holds exactly the stored items, each once, at its stored version (so every
     * acknowledged write, nothing torn); and read from the previous round's continuation it holds exactly the items
     * that appeared since, plus the counters that changed.
     */
    private static void verifyChangeFeed(CosmosClient client, ContainerStore store, Set<String> acknowledged,
                                         long seed, FeedState feed) {
        io.tetradb.document.CosmosContainer c = client.getDatabase("crash").getContainer("c");
        Map<String, Long> stored = new HashMap<>();
        store.scan(io.tetradb.core.partition.EpkRange.FULL, bytes -> {
            ObjectNode item = store.codec().parse(bytes);
            stored.put(item.get("pk").asText() + "/" + item.get("id").asText(), ItemCodec.lsn(bytes));
            return true;
        });
        Map<String, Long> inFeed = new HashMap<>();
        String token = null;
        for (io.tetradb.document.FeedResponse<ObjectNode> page : c.queryChangeFeed(io.tetradb.document
                .CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(FeedRange.forFullRange())
                .setMaxItemCount(500), ObjectNode.class).iterableByPage()) {
            for (ObjectNode n : page.getResults()) {
                assertEquals(null, inFeed.put(n.get("pk").asText() + "/" + n.get("id").asText(),
                        n.get("_lsn").asLong()), "an item twice in the feed (seed " + seed + ")");
            }
            token = page.getContinuationToken();
        }
        assertEquals(stored, inFeed, "the feed holds exactly the stored items at their versions (seed " + seed + ")");
        for (String batch : acknowledged) {
            assertTrue(inFeed.keySet().stream().anyMatch(k -> k.endsWith("/" + batch + "-0")),
                    "acknowledged batch " + batch + " in the feed (seed " + seed + ")");
        }
        if (feed.token != null) {
            Set<String> since = new HashSet<>();
            for (ObjectNode n : c.queryChangeFeed(io.tetradb.document.CosmosChangeFeedRequestOptions
                    .createForProcessingFromContinuation(feed.token), ObjectNode.class)) {
                if (!n.get("id").asText().equals("counter")) {
                    since.add(n.get("pk").asText() + "/" + n.get("id").asText());
                }
            }
            Set<String> expected = new HashSet<>(stored.keySet());
            expected.removeAll(feed.ids);
            expected.removeIf(k -> k.endsWith("/counter"));
            assertEquals(expected, since, "the continuation of the previous round sees exactly what came after it "
                    + "(seed " + seed + ")");
        }
        feed.token = token;
        feed.ids = new HashSet<>(stored.keySet());
    }
}

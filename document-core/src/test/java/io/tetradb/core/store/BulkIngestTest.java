package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.bulk.BulkLoad;
import io.tetradb.core.feed.ChangeFeedMode;
import io.tetradb.core.feed.ChangeFeedPage;
import io.tetradb.core.feed.ChangeFeedRequest;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.storage.RocksEngine;
import io.tetradb.core.StoreException;
import io.tetradb.core.storage.Space;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The core's bulk mode (io.tetradb.core.bulk): the keys it ingests are the keys the normal write path writes (items,
 * index entries, adjacency entries, change-feed keys, partition statistics), the change feed shows every item once
 * in lsn order per partition, an existing id is refused as a create is, other writers wait for the load, and the
 * containers it cannot serve are refused.
 */
class BulkIngestTest {
    static final ObjectMapper M = new ObjectMapper();
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-26T12:00:00Z"), ZoneOffset.UTC);
    static final List<String> PARTITIONS = List.of("p0", "p1", "p2", "p3", "p4");

    @TempDir
    Path batchDir;
    @TempDir
    Path bulkDir;

    /** A partition's items: vertices and edge-shaped items (to this and the next partition). */
    static List<ObjectNode> items(String pk, int n) {
        List<ObjectNode> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (i % 3 == 2) {
                String to = PARTITIONS.get((PARTITIONS.indexOf(pk) + 1) % PARTITIONS.size());
                out.add(M.createObjectNode().put("id", pk + "-e" + i).put("pk", pk).put("label", "route")
                        .put("_isEdge", true).put("_vertexId", pk + "-v0").put("_vertexLabel", "airport")
                        .put("_sink", to + "-v" + (i % 5)).put("_sinkLabel", "airport").put("_sinkPartition", to)
                        .put("dist", i * 10));
            } else {
                ObjectNode v = M.createObjectNode().put("id", pk + "-v" + i).put("pk", pk).put("label", "airport");
                v.putArray("code").addObject().put("id", "c" + i).put("_value", "X" + i);
                v.put("elev", i * 1.5).put("big", 1L << 40).putArray("tags").add("a").add(i);
                out.add(v);
            }
        }
        return out;
    }

    static List<ItemOperation> creates(List<ObjectNode> items) {
        List<ItemOperation> ops = new ArrayList<>();
        for (ObjectNode item : items) {
            ops.add(ItemOperation.create(item.deepCopy()));
        }
        return ops;
    }

    static PartitionKeyValue key(String pk) {
        return PartitionKeyValue.of(PartitionKeyValue.component(pk));
    }

    static ContainerStore graphContainer(CoreStore s) {
        s.createDatabase("db", null);
        ContainerStore c = s.createContainer("db", "g", PartitionKeyDefinition.of("/pk"), null, null, null, null);
        assertNotNull(c.enableGraphAdjacency());
        return c;
    }

    /** Every key and value of the container in {@code space} (FEED: keys only, a record holds its commit time). */
    static Map<String, String> space(CoreStore s, ContainerStore c, Space space) {
        Map<String, String> out = new TreeMap<>();
        byte[] from = Keys.collId(c.definition().collId());
        byte[] to = Keys.collId(c.definition().collId() + 1);
        if (space == Space.META) { // the logical partitions' statistics
            from = Keys.withByte(Keys.LOGICAL_PARTITION_STATS, from);
            to = Keys.withByte(Keys.LOGICAL_PARTITION_STATS, to);
        }
        java.util.function.Predicate<io.tetradb.core.storage.KeyValue> put = kv -> {
            out.put(java.util.HexFormat.of().formatHex(kv.key()),
                    space == Space.FEED ? "" : java.util.HexFormat.of().formatHex(kv.value()));
            return true;
        };
        if (space == Space.META) { // core-stats: a partition's statistics are its record's or its newest index key's
            io.tetradb.core.feed.StoredPartitionStats.scan(s.engine(), from, to, put);
        } else {
            s.engine().scan(space, from, to, put);
        }
        return out;
    }

    static boolean exists(ContainerStore c, PartitionKeyValue pk, String id) {
        try {
            return c.read(pk, id, null).stored() != null;
        } catch (io.tetradb.core.StoreException e) {
            assertEquals(404, e.status());
            return false;
        }
    }

    /** Items of the container by its physical partitions' sizes (what splits decide on). */
    static long items(ContainerStore c) {
        return c.statistics().physicalPartitions().stream().mapToLong(PartitionStatistics.Physical::itemCount).sum();
    }

    @Test
    void bulkWritesTheKeysOfTheNormalPath() {
        keysOfTheNormalPath();
    }

    private void keysOfTheNormalPath() {
        try (CoreStore a = CoreStore.open(StoreConfig.defaults(batchDir).withClock(CLOCK));
             CoreStore b = CoreStore.open(StoreConfig.defaults(bulkDir).withClock(CLOCK))) {
            ContainerStore batched = graphContainer(a);
            ContainerStore bulked = graphContainer(b);
            for (String pk : PARTITIONS) { // one 90-item transaction per partition, both ways, in the same order
                List<ItemResult> r = batched.executeBatch(key(pk), creates(items(pk, 90)));
                assertTrue(r.stream().allMatch(ItemResult::isSuccess));
            }
            try (BulkLoad bulk = bulked.beginBulkLoad()) {
                assertNotNull(bulk);
                for (String pk : PARTITIONS.subList(0, 3)) {
                    assertTrue(bulk.write(key(pk), creates(items(pk, 90))).stream().allMatch(ItemResult::isSuccess));
                }
                assertFalse(exists(bulked, key("p0"), "p0-v0"), "not visible before its chunk commits");
                bulk.commit();
                for (String pk : PARTITIONS.subList(3, 5)) { // a second chunk
                    assertTrue(bulk.write(key(pk), creates(items(pk, 90))).stream().allMatch(ItemResult::isSuccess));
                }
                bulk.commit();
                assertEquals(2, bulk.committedChunks());
                assertEquals(450, bulk.committedItems());
            }
            for (Space space : Space.values()) {
                Map<String, String> expected = space(a, batched, space);
                assertFalse(expected.isEmpty(), space.toString());
                assertEquals(expected, space(b, bulked, space), "the same " + space + " keys");
            }
            assertEquals(0, ((RocksEngine) b.engine()).pendingIngests());
            ContainerStore.IndexCheck check = bulked.checkIndexes();
            assertTrue(check.consistent(), check.toString());
            GraphAdjacency.Check adjacency = bulked.graphAdjacency().check();
            assertTrue(adjacency.consistent(), adjacency.toString());
            assertEquals(2 * 150, adjacency.stored());
            assertEquals(450, items(bulked));
        }
    }

    /**
     * graph-load6: a new graph container leaves no range tombstone over its empty adjacency range (enabling adjacency
     * used to put one in the memtable), so its first chunk's adjacency file is ingested below L0 without forcing a
     * flush of every family; the entries are the same.
     */
    @Test
    void aNewGraphContainersAdjacencyFileGoesBelowLevel0() {
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(bulkDir))) {
            ContainerStore c = graphContainer(s);
            try (BulkLoad bulk = c.beginBulkLoad()) {
                for (String pk : PARTITIONS) {
                    assertTrue(bulk.write(key(pk), creates(items(pk, 90))).stream().allMatch(ItemResult::isSuccess));
                }
                bulk.commit();
            }
            RocksEngine engine = (RocksEngine) s.engine();
            assertEquals(0, engine.filesAtLevel(Space.ADJACENCY, 0), "the adjacency file went to L0 (a flush was forced)");
            assertEquals(1, engine.filesAtLevel(Space.ADJACENCY, 6), "the chunk's adjacency file at the bottom");
            GraphAdjacency.Check adjacency = c.graphAdjacency().check();
            assertTrue(adjacency.consistent(), adjacency.toString());
            assertEquals(2 * 150, adjacency.stored()); // 150 edges, two entries each
        }
    }

    /** The whole change feed from the beginning: how often each id came, and each partition's last lsn. */
    record FeedRead(Map<String, Integer> seen, Map<String, Long> lastLsn) {
    }

    /** Reads the feed in pages of {@code pageSize}, asserting lsn order within each partition. */
    static FeedRead readFeed(ContainerStore c, int pageSize) {
        Map<String, Long> lastLsn = new HashMap<>();
        Map<String, Integer> seen = new HashMap<>();
        long position = 0;
        while (true) {
            ChangeFeedPage page = c.changeFeed().read(new ChangeFeedRequest(ChangeFeedMode.LATEST_VERSION, null,
                    null, position, 0, pageSize));
            for (ChangeFeedPage.Change ch : page.changes()) {
                ObjectNode item = ch.tree(M);
                String pk = item.get("pk").asText();
                long lsn = item.get("_lsn").asLong();
                assertTrue(lsn > lastLsn.getOrDefault(pk, 0L), "lsn order within " + pk);
                lastLsn.put(pk, lsn);
                seen.merge(item.get("id").asText(), 1, Integer::sum);
            }
            position = page.continuation();
            if (page.caughtUp()) {
                return new FeedRead(seen, lastLsn);
            }
        }
    }

    /**
     * graph-load7: the feed's chunk goes in as one file per key kind (partition index 'P', records 'S'), so neither
     * file spans the container's 'Q' key left in the memtable at its creation: no flush is forced (a flush would
     * leave an L0 feed file) and both files go to the bottom; a reopened store's feed reads every change in order.
     */
    @Test
    void aNewContainersFeedFilesGoBelowLevel0AndReadInOrderAfterReopen() {
        int perPartition = 40;
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(bulkDir))) {
            ContainerStore c = graphContainer(s);
            try (BulkLoad bulk = c.beginBulkLoad()) {
                for (String pk : PARTITIONS) {
                    assertTrue(bulk.write(key(pk), creates(items(pk, perPartition))).stream()
                            .allMatch(ItemResult::isSuccess));
                }
                bulk.commit();
            }
            RocksEngine engine = (RocksEngine) s.engine();
            assertEquals(0, engine.filesAtLevel(Space.FEED, 0), "a feed file in L0 (a flush was forced)");
            assertEquals(2, engine.filesAtLevel(Space.FEED, 6), "the chunk's two feed files at the bottom");
        }
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(bulkDir))) {
            ContainerStore c = s.container("db", "g");
            FeedRead feed = readFeed(c, 7);
            assertEquals(PARTITIONS.size() * perPartition, feed.seen().size());
            assertTrue(feed.seen().values().stream().allMatch(n -> n == 1), "each item once");
            for (String pk : PARTITIONS) { // the partition index ('P' file): one partition's changes alone
                ChangeFeedPage page = c.changeFeed().read(new ChangeFeedRequest(ChangeFeedMode.LATEST_VERSION,
                        null, key(pk), 0, 0, 1000));
                assertEquals(perPartition, page.changes().size(), pk);
                for (ChangeFeedPage.Change ch : page.changes()) {
                    assertEquals(pk, ch.tree(M).get("pk").asText());
                }
            }
        }
    }

    @Test
    void theChangeFeedShowsEveryLoadedItemOnceInLsnOrderPerPartition() {
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(bulkDir))) {
            ContainerStore c = graphContainer(s);
            try (BulkLoad bulk = c.beginBulkLoad()) {
                for (int round = 0; round < 3; round++) { // three chunks, each partition in each
                    for (String pk : PARTITIONS) {
                        List<ObjectNode> items = items(pk, 30);
                        for (ObjectNode i : items) {
                            i.put("id", i.get("id").asText() + "-r" + round);
                        }
                        bulk.write(key(pk), creates(items));
                    }
                    bulk.commit();
                }
            }
            FeedRead feed = readFeed(c, 100);
            Map<String, Long> lastLsn = feed.lastLsn();
            Map<String, Integer> seen = feed.seen();
            assertEquals(3 * 5 * 30, seen.size());
            assertTrue(seen.values().stream().allMatch(n -> n == 1), "each item once");
            for (String pk : PARTITIONS) {
                assertEquals(90L, lastLsn.get(pk), "the partition's lsn counts its 90 creates");
            }
        }
    }

    /**
     * graph-load: a transaction written into the chunk keeps none of its items until the chunk commits (before, the
     * chunk's completion held the whole transaction: its operations, item bodies, index entries and write set, so
     * a bulk load's young collections copied everything written so far). Fails on the old code: the operation stays
     * reachable through the chunk.
     */
    @Test
    void aTransactionInTheChunkHoldsNoneOfItsItemsUntilTheCommit() throws InterruptedException {
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(bulkDir))) {
            ContainerStore c = graphContainer(s);
            try (BulkLoad bulk = c.beginBulkLoad()) {
                java.lang.ref.ReferenceQueue<ItemOperation> gone = new java.lang.ref.ReferenceQueue<>();
                java.lang.ref.WeakReference<ItemOperation> op = writeHoldingOnlyAWeakReference(bulk, gone);
                boolean collected = false;
                for (int i = 0; i < 20 && !collected; i++) {
                    System.gc();
                    collected = gone.remove(100) != null;
                }
                assertTrue(collected, "the chunk still holds the transaction's operation (and so its item)");
                assertNull(op.get());
                bulk.commit();
            }
            assertEquals(40, items(c));
            assertTrue(c.checkIndexes().consistent());
        }
    }

    private static java.lang.ref.WeakReference<ItemOperation> writeHoldingOnlyAWeakReference(
            BulkLoad bulk, java.lang.ref.ReferenceQueue<ItemOperation> gone) {
        List<ItemOperation> ops = creates(items("p0", 40));
        java.lang.ref.WeakReference<ItemOperation> op = new java.lang.ref.WeakReference<>(ops.get(0), gone);
        assertTrue(bulk.write(key("p0"), ops).stream().allMatch(ItemResult::isSuccess));
        return op;
    }

    @Test
    void anExistingIdIsAConflictAndNothingOfItsPartitionIsWritten() {
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(bulkDir))) {
            ContainerStore c = graphContainer(s);
            c.execute(key("p0"), ItemOperation.create(M.createObjectNode().put("id", "p0-v4").put("pk", "p0")));
            try (BulkLoad bulk = c.beginBulkLoad()) {
                List<ItemResult> r = bulk.write(key("p0"), creates(items("p0", 10)));
                assertEquals(409, r.get(4).status(), "Cosmos DB's create: the id exists");
                assertEquals(424, r.get(0).status());
                assertTrue(bulk.write(key("p1"), creates(items("p1", 10))).stream().allMatch(ItemResult::isSuccess));
                assertTrue(bulk.write(key("p0"), creates(items("p0", 3))).stream().allMatch(ItemResult::isSuccess),
                        "the failed transaction left its partition free in the chunk");
                assertThrows(IllegalStateException.class, () -> bulk.write(key("p1"), creates(items("p1", 1))),
                        "a partition once per chunk");
                bulk.commit();
            }
            assertEquals(1 + 10 + 3, items(c));
            assertTrue(c.checkIndexes().consistent());
        }
    }

    @Test
    void otherWritersWaitForTheLoadAndAnUncommittedChunkIsDropped() throws Exception {
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(bulkDir))) {
            ContainerStore c = graphContainer(s);
            BulkLoad bulk = c.beginBulkLoad();
            bulk.write(key("p0"), creates(items("p0", 5)));
            bulk.commit();
            bulk.write(key("p1"), creates(items("p1", 5))); // never committed
            Thread writer = new Thread(() -> c.execute(key("p2"),
                    ItemOperation.create(M.createObjectNode().put("id", "other").put("pk", "p2"))));
            writer.start();
            while (writer.getState() != Thread.State.WAITING) { // parked on the bulk load's end
                assertTrue(writer.isAlive(), "the other writer must wait, not fail or go on");
                Thread.onSpinWait();
            }
            assertFalse(exists(c, key("p2"), "other"));
            bulk.close();
            writer.join();
            assertTrue(exists(c, key("p2"), "other"));
            assertFalse(exists(c, key("p1"), "p1-v0"), "the uncommitted chunk was dropped");
            assertEquals(5 + 1, items(c));
            assertTrue(c.checkIndexes().consistent());
            // feed numbers of the dropped chunk were given back: the feed reads on past them
            ChangeFeedPage page = c.changeFeed().read(new ChangeFeedRequest(ChangeFeedMode.LATEST_VERSION, null, null,
                    0, 0, 100));
            assertEquals(6, page.changes().size());
        }
    }

    @Test
    void aPolicyReplaceDuringTheLoadRefusesTheChunkItsKeysNoLongerFollow() throws Exception {
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(bulkDir))) {
            ContainerStore c = graphContainer(s);
            try (BulkLoad bulk = c.beginBulkLoad()) {
                bulk.write(key("p0"), creates(items("p0", 5)));
                bulk.commit();
                bulk.write(key("p1"), creates(items("p1", 5))); // index entries of the old policy
                s.replaceContainer("db", "g", PartitionKeyDefinition.of("/pk"),
                        M.readTree("{\"includedPaths\":[{\"path\":\"/label/?\"}],\"excludedPaths\":[{\"path\":\"/*\"}]}"),
                        null);
                StoreException e = assertThrows(StoreException.class, bulk::commit);
                assertEquals(409, e.status());
            }
            c.awaitIndexRebuild();
            assertFalse(exists(c, key("p1"), "p1-v0"), "nothing of the refused chunk");
            assertTrue(exists(c, key("p0"), "p0-v0"));
            assertEquals(5, items(c));
            assertTrue(c.checkIndexes().consistent());
        }
    }

    @Test
    void containersItCannotServeAreRefused() {
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(bulkDir))) {
            s.createDatabase("db", null);
            ContainerStore ttl = s.createContainer("db", "ttl", PartitionKeyDefinition.of("/pk"), null, 60, null, null);
            assertNull(ttl.beginBulkLoad(), "expiring items: the purger writes partitions on its own");
        }
    }
}

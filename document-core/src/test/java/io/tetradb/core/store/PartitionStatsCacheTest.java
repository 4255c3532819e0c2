package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.bulk.BulkLoad;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.storage.Space;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The in-memory partition statistics ({@link PartitionStatsCache}, core-write): a write starts from the statistics
 * the partition's last transaction wrote, so every other writer of a statistics record must leave the cache exact.
 * After each writer outside the transactions (an index rebuild chunk, a bulk load) the next ordinary write must
 * still write the statistics a recount of the stored items gives, with an lsn above every item's.
 */
class PartitionStatsCacheTest {
    static final ObjectMapper M = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void theTableGivesBackOnlyThePartitionsOwnLatestStatistics() {
        PartitionStatsCache cache = new PartitionStatsCache();
        Random random = new Random(17);
        Map<ByteBuffer, LogicalPartitionStats> latest = new HashMap<>();
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < 3 * PartitionStatsCache.SLOTS; i++) { // far more partitions than slots: collisions
            byte[] lp = new byte[4 + 16 + 1 + random.nextInt(12)];
            random.nextBytes(lp);
            keys.add(lp);
        }
        for (int round = 0; round < 4; round++) {
            for (byte[] lp : keys) {
                if (random.nextInt(4) == 0) {
                    continue;
                }
                LogicalPartitionStats s = new LogicalPartitionStats(random.nextInt(1 << 20), random.nextInt(100),
                        round * 10L + random.nextInt(10));
                byte[] copy = lp.clone(); // callers pass fresh arrays: equal bytes, not the same array
                cache.put(copy, s);
                latest.put(ByteBuffer.wrap(copy), s);
                assertEquals(s, cache.get(lp.clone()), "just put");
            }
        }
        int hits = 0;
        for (byte[] lp : keys) {
            LogicalPartitionStats found = cache.get(lp);
            if (found != null) {
                hits++;
                assertEquals(latest.get(ByteBuffer.wrap(lp)), found, "never an older or another partition's entry");
            }
        }
        assertTrue(hits > PartitionStatsCache.SLOTS / 2, "hits " + hits);
        for (byte[] lp : keys) {
            cache.forget(lp);
            assertNull(cache.get(lp));
        }
    }

    @Test
    void anIndexRebuildsSizesReachTheNextWrite() throws Exception {
        try (CoreStore store = CoreStore.open(StoreConfig.defaults(dir))) {
            store.rebuildChunkItems = 7;
            store.createDatabase("db", null);
            ContainerStore c = store.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, null,
                    null);
            for (int i = 0; i < 60; i++) { // every partition's statistics cached by its last write
                c.execute(key("p" + (i % 4)), ItemOperation.create(item("p" + (i % 4), "a" + i)));
            }
            assertCachedEqualsStored(store, c);
            // the rebuild rewrites every partition's size in its own writes: fewer entries per item
            store.replaceContainer("db", "c", null, M.readTree("{\"indexingMode\":\"consistent\","
                    + "\"includedPaths\":[{\"path\":\"/n/?\"}],\"excludedPaths\":[{\"path\":\"/*\"}]}"), null);
            c.awaitIndexRebuild();
            for (int i = 0; i < 8; i++) {
                c.execute(key("p" + (i % 4)), ItemOperation.create(item("p" + (i % 4), "b" + i)));
            }
            assertRecounted(store, c, 68);
            assertCachedEqualsStored(store, c);
        }
        try (CoreStore store = CoreStore.open(StoreConfig.defaults(dir))) {
            ContainerStore c = store.container("db", "c");
            assertRecounted(store, c, 68);
        }
    }

    @Test
    void aBulkLoadsStatisticsReachTheNextWrite() throws Exception {
        try (CoreStore store = CoreStore.open(StoreConfig.defaults(dir))) {
            store.createDatabase("db", null);
            ContainerStore c = store.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, null,
                    null);
            for (int i = 0; i < 12; i++) {
                c.execute(key("p" + (i % 3)), ItemOperation.create(item("p" + (i % 3), "a" + i)));
            }
            try (BulkLoad bulk = c.beginBulkLoad()) {
                assertNotNull(bulk);
                for (int chunk = 0; chunk < 2; chunk++) {
                    for (int p = 0; p < 3; p++) {
                        List<ItemOperation> ops = new ArrayList<>();
                        for (int i = 0; i < 5; i++) {
                            ops.add(ItemOperation.create(item("p" + p, "bulk" + chunk + "-" + i)));
                        }
                        assertTrue(bulk.write(key("p" + p), ops).stream().allMatch(ItemResult::isSuccess));
                    }
                    bulk.commit();
                }
            }
            for (int i = 0; i < 6; i++) { // after the load: lsns go on from the chunks' own
                c.execute(key("p" + (i % 3)), ItemOperation.create(item("p" + (i % 3), "c" + i)));
            }
            c.execute(key("p0"), ItemOperation.delete("a0", null));
            assertRecounted(store, c, 12 + 30 + 6 - 1);
            assertCachedEqualsStored(store, c);
        }
    }

    @Test
    void everyWritePathLeavesTheStatisticsARecountGives() throws Exception {
        Random random = new Random(5);
        try (CoreStore store = CoreStore.open(StoreConfig.defaults(dir))) {
            store.createDatabase("db", null);
            ContainerStore c = store.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, null,
                    null);
            for (int i = 0; i < 600; i++) {
                String pk = "p" + random.nextInt(5);
                String id = "i" + random.nextInt(40);
                try {
                    switch (random.nextInt(5)) {
                        case 0 -> c.execute(key(pk), ItemOperation.create(item(pk, id)));
                        case 1 -> c.execute(key(pk), ItemOperation.upsert(item(pk, id), null));
                        case 2 -> c.execute(key(pk), ItemOperation.delete(id, null));
                        case 3 -> c.executeBatch(key(pk), List.of(ItemOperation.upsert(item(pk, id), null),
                                ItemOperation.create(item(pk, id + "x" + i))));
                        default -> {
                            try (OpenTransaction tx = c.begin(key(pk))) { // a script's transaction
                                tx.apply(ItemOperation.upsert(item(pk, id), null));
                                if (random.nextBoolean()) {
                                    tx.commit();
                                }
                            }
                        }
                    }
                } catch (io.tetradb.core.StoreException e) {
                    assertTrue(e.status() == 404 || e.status() == 409, e.getMessage());
                }
            }
            assertRecounted(store, c, -1);
            assertCachedEqualsStored(store, c);
        }
    }

    @Test
    void concurrentWritersOfOnePartitionKeepEtagsAndStatisticsExact() throws Exception {
        try (CoreStore store = CoreStore.open(StoreConfig.defaults(dir))) {
            store.createDatabase("db", null);
            ContainerStore c = store.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, null,
                    null);
            int threads = 6;
            java.util.concurrent.atomic.AtomicInteger created = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.atomic.AtomicInteger conditional = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.ConcurrentHashMap<String, Boolean> etags = new java.util.concurrent.ConcurrentHashMap<>();
            List<Thread> all = new ArrayList<>();
            List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int t = 0; t < threads; t++) {
                int seed = t;
                Thread th = new Thread(() -> {
                    Random random = new Random(seed);
                    try {
                        for (int i = 0; i < 150; i++) {
                            String pk = "p" + random.nextInt(2);
                            String id = "i" + random.nextInt(20);
                            try {
                                if (random.nextBoolean()) {
                                    ItemResult r = c.execute(key(pk), ItemOperation.create(item(pk, id)));
                                    created.incrementAndGet();
                                    assertNull(etags.put(pk + "/" + r.etag(), true), "an etag handed out twice");
                                } else {
                                    String etag = c.read(key(pk), id, null).etag(); // replace at the etag read
                                    ItemResult r = c.execute(key(pk), ItemOperation.upsert(item(pk, id), etag));
                                    conditional.incrementAndGet();
                                    assertNull(etags.put(pk + "/" + r.etag(), true), "an etag handed out twice");
                                }
                            } catch (io.tetradb.core.StoreException e) {
                                assertTrue(e.status() == 404 || e.status() == 409 || e.status() == 412,
                                        e.status() + " " + e.getMessage());
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                });
                all.add(th);
                th.start();
            }
            for (Thread th : all) {
                th.join();
            }
            assertTrue(failures.isEmpty(), failures.toString());
            assertTrue(created.get() > 0 && conditional.get() > 0, created + " " + conditional);
            assertRecounted(store, c, -1);
            assertCachedEqualsStored(store, c);
            for (String pk : List.of("p0", "p1")) { // every write took the next lsn: the partition's count of writes
                LogicalPartitionStats s = stored(store, Keys.concat(c.collIdBytes(), key(pk).epk(),
                        key(pk).encoded()));
                assertEquals(etags.keySet().stream().filter(k -> k.startsWith(pk + "/")).count(), s.lsn(), pk);
            }
        }
    }

    static ObjectNode item(String pk, String id) {
        return M.createObjectNode().put("id", id).put("pk", pk).put("n", id.length()).put("s", "v-" + id);
    }

    static PartitionKeyValue key(String pk) {
        return PartitionKeyValue.of(PartitionKeyValue.component(pk));
    }

    /**
     * Every partition's stored statistics equal a recount: items, bytes (items' keys and values plus their index
     * entries under the current policy), and an lsn at or above every stored item's, which are all distinct.
     */
    static void assertRecounted(CoreStore store, ContainerStore c, int expectedItems) {
        Map<ByteBuffer, long[]> counted = recount(store, c);
        long total = 0;
        for (Map.Entry<ByteBuffer, long[]> e : counted.entrySet()) {
            LogicalPartitionStats s = stored(store, e.getKey().array());
            assertEquals(e.getValue()[0], s.items(), "items of " + Arrays.toString(e.getKey().array()));
            assertEquals(e.getValue()[1], s.bytes(), "bytes of " + Arrays.toString(e.getKey().array()));
            assertTrue(s.lsn() >= e.getValue()[2], "lsn " + s.lsn() + " below an item's " + e.getValue()[2]);
            total += s.items();
        }
        if (expectedItems >= 0) {
            assertEquals(expectedItems, total);
        }
        assertDistinctLsnsPerPartition(store, c);
    }

    /**
     * The stored items of {@code c} counted per logical partition ({@code collId · EPK · pk}): items, bytes (keys and
     * values plus their index entries under the current policy), the highest lsn.
     */
    static Map<ByteBuffer, long[]> recount(CoreStore store, ContainerStore c) {
        Map<ByteBuffer, long[]> counted = new HashMap<>();
        store.engine().scan(Space.DOCS, Keys.collId(c.collId()), Keys.collId(c.collId() + 1), kv -> {
            ObjectNode item = store.codec().parse(kv.value());
            long[] n = counted.computeIfAbsent(ByteBuffer.wrap(c.logicalPartitionOf(kv.key())), k -> new long[3]);
            n[0]++;
            n[1] += kv.key().length + kv.value().length + ContainerStore.bytes(c.indexEntries(kv.key(), item,
                    item.path("_ts").asLong(), c.indexingState().current()));
            long lsn = ItemCodec.lsn(kv.value());
            n[2] = Math.max(n[2], lsn);
            return true;
        });
        return counted;
    }

    /**
     * A partition's statistics as stored ({@code lp}: {@code collId · EPK · pk}): its record or its newest feed
     * partition index key, whichever is newer (core-stats).
     */
    static LogicalPartitionStats stored(CoreStore store, byte[] lp) {
        return LogicalPartitionStats.decode(io.tetradb.core.feed.StoredPartitionStats.read(store.engine(),
                Keys.withByte(Keys.LOGICAL_PARTITION_STATS, lp)));
    }

    /** A partition's statistics record alone (what a reader that ignored the feed's index keys would see). */
    static LogicalPartitionStats recordOnly(CoreStore store, byte[] lp) {
        return LogicalPartitionStats.decode(store.engine().get(Space.META,
                Keys.withByte(Keys.LOGICAL_PARTITION_STATS, lp)));
    }

    /** Two items of one partition never share an lsn (their etags would be equal). */
    static void assertDistinctLsnsPerPartition(CoreStore store, ContainerStore c) {
        Map<ByteBuffer, Set<Long>> seen = new HashMap<>();
        store.engine().scan(Space.DOCS, Keys.collId(c.collId()), Keys.collId(c.collId() + 1), kv -> {
            long lsn = ItemCodec.lsn(kv.value());
            assertTrue(seen.computeIfAbsent(ByteBuffer.wrap(c.logicalPartitionOf(kv.key())), k -> new HashSet<>())
                    .add(lsn), "lsn " + lsn + " twice in one partition");
            return true;
        });
    }

    /** What the cache holds for a partition is what the store holds. */
    static void assertCachedEqualsStored(CoreStore store, ContainerStore c) {
        PartitionStatsCache cache = store.statsCache();
        assertNotNull(cache);
        int[] cached = {0};
        io.tetradb.core.feed.StoredPartitionStats.scan(store.engine(), Keys.statsPrefix(c.collId()),
                Keys.statsPrefix(c.collId() + 1), kv -> {
                    byte[] lp = Arrays.copyOfRange(kv.key(), 1, kv.key().length);
                    LogicalPartitionStats known = cache.get(lp);
                    if (known != null) {
                        cached[0]++;
                        assertEquals(LogicalPartitionStats.decode(kv.value()), known, "cached statistics");
                    }
                    return true;
                });
        assertTrue(cached[0] > 0, "some partitions cached");
    }
}

package io.tetradb.core.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.StoreException;
import io.tetradb.core.bulk.BulkLoad;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.storage.Space;
import io.tetradb.core.ttl.ManualClock;
import io.tetradb.testing.TestTime;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * batch-stats: {@link StatsRecordFilter} says "no statistics record" only for partitions that have none, so a
 * transaction of a partition never written may skip the record's get. Random creates, upserts, deletes (down to a
 * partition's last item), batches, bulk loads, TTL expiry and reopens, with the statistics cache on and off: after
 * every step each partition that has a record in the store is one the filter may hold, every create of a stored id
 * is 409 and every other answer is the model's, and the statistics equal a recount.
 */
class StatsRecordFilterTest extends PartitionStatsFixture {
    private static final int PARTITIONS = 24;
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T00:00:00Z"));

    @Test
    void theFilterIsAbsentOnlyForWhatWasNeverAddedAndMayHoldEverythingUntilComplete() {
        Random random = new Random(3);
        StatsRecordFilter filter = new StatsRecordFilter();
        List<byte[]> added = new ArrayList<>();
        for (int i = 0; i < 200_000; i++) {
            byte[] lp = new byte[4 + 16 + 1 + random.nextInt(40)];
            random.nextBytes(lp);
            added.add(lp);
            if (random.nextBoolean()) {
                filter.add(lp.clone());
            } else {
                byte[] recordKey = new byte[lp.length + 1]; // 04 · collId · EPK · pk, as the open's recount sees it
                recordKey[0] = Keys.LOGICAL_PARTITION_STATS;
                System.arraycopy(lp, 0, recordKey, 1, lp.length);
                filter.addRecordKey(recordKey);
            }
        }
        byte[] other = new byte[30];
        random.nextBytes(other);
        assertTrue(filter.mayHold(other), "not complete yet: every partition may hold a record");
        filter.complete();
        for (byte[] lp : added) {
            assertTrue(filter.mayHold(lp.clone()), "an added partition is never absent");
        }
        int falsePresent = 0;
        for (int i = 0; i < 200_000; i++) {
            byte[] lp = new byte[4 + 16 + 1 + random.nextInt(40)];
            random.nextBytes(lp);
            falsePresent += filter.mayHold(lp) ? 1 : 0;
        }
        assertTrue(falsePresent < 100, "fingerprints of partitions never added: " + falsePresent + " of 200,000 read");
    }

    @Test
    void randomWritesBulkLoadsExpiryAndReopensKeepTheFilterExact() throws Exception {
        run(11, true);
    }

    @Test
    void withoutTheStatisticsCacheTheFilterAloneDecidesAndStaysExact() throws Exception {
        run(12, false); // every transaction of a partition not in the filter then reads nothing at all
    }

    /** Per container ("c": no TTL, bulk loads; "t": TTL on), partition → id → expiry second (MAX: none). */
    private final Map<String, Map<String, Map<String, Long>>> model = new TreeMap<>();
    private long purgedExpected;

    private void run(long seed, boolean statsCache) throws Exception {
        Random random = new Random(seed);
        model.put("c", new TreeMap<>());
        model.put("t", new TreeMap<>());
        int fresh = 0;
        for (int round = 0; round < 4; round++) {
            try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir).withClock(clock))) {
                s.useStatsCache(statsCache);
                purgedExpected = 0;
                Map<String, ContainerStore> cs = new LinkedHashMap<>();
                if (round == 0) {
                    s.createDatabase("db", null);
                    cs.put("c", s.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, null, null));
                    cs.put("t", s.createContainer("db", "t", PartitionKeyDefinition.of("/pk"), null, -1, null, null));
                } else {
                    cs.put("c", s.container("db", "c"));
                    cs.put("t", s.container("db", "t"));
                }
                assertAgrees(s, cs, "open of round " + round);
                for (int step = 0; step < 150; step++) {
                    String cName = random.nextBoolean() ? "c" : "t";
                    ContainerStore c = cs.get(cName);
                    Map<String, Map<String, Long>> parts = model.get(cName);
                    String p = "p" + random.nextInt(PARTITIONS);
                    Map<String, Long> items = parts.computeIfAbsent(p, k -> new TreeMap<>());
                    String id = "i" + random.nextInt(6);
                    String what;
                    switch (random.nextInt(9)) {
                        case 0, 1 -> {
                            what = "create " + p + "/" + id;
                            long ttl = cName.equals("t") && random.nextBoolean() ? (random.nextBoolean() ? 1 : 5) : 0;
                            int status = status(() -> c.execute(pk(p), ItemOperation.create(item(p, id, ttl))));
                            assertEquals(items.containsKey(id) ? 409 : 201, status, what);
                            if (status == 201) {
                                items.put(id, expiry(ttl));
                            }
                        }
                        case 2 -> {
                            what = "upsert " + p + "/" + id;
                            int status = status(() -> c.execute(pk(p), ItemOperation.upsert(item(p, id, 0), null)));
                            assertEquals(items.containsKey(id) ? 200 : 201, status, what);
                            items.put(id, Long.MAX_VALUE);
                        }
                        case 3 -> {
                            what = "delete " + p + "/" + id;
                            int status = status(() -> c.execute(pk(p), ItemOperation.delete(id, null)));
                            assertEquals(items.containsKey(id) ? 204 : 404, status, what);
                            items.remove(id);
                        }
                        case 4 -> {
                            what = "empty " + p; // deletes down to the partition's last item
                            for (String each : new ArrayList<>(items.keySet())) {
                                assertEquals(204, status(() -> c.execute(pk(p), ItemOperation.delete(each, null))));
                            }
                            items.clear();
                        }
                        case 5, 6 -> {
                            what = "batch " + p;
                            Set<String> ids = new HashSet<>();
                            for (int n = 1 + random.nextInt(4); ids.size() < n; ) {
                                ids.add(random.nextInt(3) == 0 ? "i" + random.nextInt(6) : "b" + fresh++);
                            }
                            List<ItemOperation> ops = new ArrayList<>();
                            List<String> order = new ArrayList<>(ids);
                            for (String each : order) {
                                ops.add(ItemOperation.create(item(p, each, 0)));
                            }
                            List<ItemResult> results = c.executeBatch(pk(p), ops);
                            int clashAt = -1;
                            for (int k = order.size() - 1; k >= 0; k--) {
                                clashAt = items.containsKey(order.get(k)) ? k : clashAt;
                            }
                            boolean clash = clashAt >= 0;
                            for (int k = 0; k < order.size(); k++) { // the first failing operation keeps its status
                                int expected = !clash ? 201 : k == clashAt ? 409 : 424;
                                assertEquals(expected, results.get(k).status(), what + " " + order + " at " + k);
                            }
                            if (!clash) {
                                order.forEach(each -> items.put(each, Long.MAX_VALUE));
                            }
                        }
                        case 7 -> {
                            what = "bulk";
                            ContainerStore bc = cs.get("c");
                            try (BulkLoad bulk = bc.beginBulkLoad()) {
                                assertNotNull(bulk);
                                for (int chunk = 0; chunk < 1 + random.nextInt(2); chunk++) {
                                    Set<String> ps = new HashSet<>();
                                    for (int n = 1 + random.nextInt(3); ps.size() < n; ) {
                                        ps.add("p" + random.nextInt(PARTITIONS));
                                    }
                                    for (String bp : ps) {
                                        List<ItemOperation> ops = new ArrayList<>();
                                        List<String> ids = new ArrayList<>();
                                        for (int n = 1 + random.nextInt(3); n > 0; n--) {
                                            ids.add("k" + fresh++);
                                            ops.add(ItemOperation.create(item(bp, ids.get(ids.size() - 1), 0)));
                                        }
                                        assertTrue(bulk.write(pk(bp), ops).stream().allMatch(ItemResult::isSuccess));
                                        Map<String, Long> bItems = model.get("c")
                                                .computeIfAbsent(bp, k -> new TreeMap<>());
                                        ids.forEach(each -> bItems.put(each, Long.MAX_VALUE));
                                    }
                                    bulk.commit();
                                }
                            }
                        }
                        default -> {
                            what = "expiry";
                            clock.advance(Duration.ofSeconds(3));
                            long now = clock.millis() / 1000;
                            for (Map<String, Long> each : model.get("t").values()) {
                                int before = each.size();
                                each.values().removeIf(expiry -> expiry < now);
                                purgedExpected += before - each.size();
                            }
                            s.ttlPurger().purgeNow();
                            assertEquals(purgedExpected, s.ttlPurger().awaitPurgedTotal(purgedExpected,
                                    TestTime.patience(Duration.ofSeconds(30))), what);
                        }
                    }
                    assertAgrees(s, cs, "round " + round + " step " + step + " " + what);
                }
                for (Map.Entry<String, ContainerStore> e : cs.entrySet()) {
                    PartitionStatsCacheTest.assertRecounted(s, e.getValue(), (int) model.get(e.getKey()).values()
                            .stream().mapToLong(Map::size).sum());
                }
            }
        }
    }

    /**
     * Every partition holding a statistics record in the store is one the container's filter may hold (never a wrong
     * "absent"), and partitions never written are absent from it unless a fingerprint collides.
     */
    private void assertAgrees(CoreStore s, Map<String, ContainerStore> cs, String when) {
        for (Map.Entry<String, ContainerStore> e : cs.entrySet()) {
            ContainerStore c = e.getValue();
            int absent = 0;
            for (int i = 0; i < PARTITIONS; i++) {
                String p = "p" + i;
                boolean recorded = s.engine().get(Space.META, statsKey(c, p)) != null;
                boolean mayHold = c.statsRecords().mayHold(lp(c, p));
                assertTrue(!recorded || mayHold, when + ": " + e.getKey() + "/" + p + " has a record the filter lacks");
                absent += mayHold ? 0 : 1;
            }
            assertFalse(c.statsRecords().mayHold(lp(c, "never-written")), when);
            long neverTouched = PARTITIONS - model.get(e.getKey()).size();
            assertTrue(absent >= neverTouched, when + ": " + absent + " absent, " + neverTouched + " never touched");
        }
    }

    private long expiry(long ttl) {
        return ttl == 0 ? Long.MAX_VALUE : clock.millis() / 1000 + ttl;
    }

    private static ObjectNode item(String p, String id, long ttl) {
        ObjectNode n = M.createObjectNode().put("id", id).put("pk", p).put("f", "x" + id);
        if (ttl > 0) {
            n.put("ttl", ttl);
        }
        return n;
    }

    private static int status(java.util.function.Supplier<ItemResult> op) {
        try {
            return op.get().status();
        } catch (StoreException e) {
            return e.status();
        }
    }
}

package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.bulk.BulkLoad;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static io.tetradb.core.store.CreateCheckTest.create;
import static io.tetradb.core.store.CreateCheckTest.pk;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * pw-java (issue 17): a create whose id is above its partition's id bound ({@link PartitionStatsCache}: no stored id
 * exceeds it) reads nothing. The bound is raised by every id a transaction writes, empty when a transaction leaves the
 * partition without items, unknown after a reopen, and gone when a writer outside the transactions (a bulk load)
 * writes the partition — so a create of a stored id is 409 whatever the bound was.
 */
class CreateIdBoundTest {
    static final ObjectMapper M = new ObjectMapper();
    @TempDir
    Path dir;

    private static int status(ContainerStore c, String p, ItemOperation op) {
        try {
            return c.execute(pk(p), op).status();
        } catch (StoreException e) {
            return e.status();
        }
    }

    /** The partition's cached id bound as a string ("" empty), or null when unknown or not cached. */
    private static String bound(CoreStore s, ContainerStore c, String p) {
        PartitionKeyValue v = pk(p);
        byte[] lp = Keys.concat(Keys.collId(c.definition().collId()), v.epk(), v.encoded());
        PartitionStatsCache.Entry e = s.statsCache().entry(lp);
        return e == null || e.idBound() == null ? null : new String(e.idBound(), StandardCharsets.UTF_8);
    }

    private static ContainerStore container(CoreStore s) {
        s.createDatabase("db", null);
        return s.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, null, null);
    }

    @Test
    void everyWrittenIdRaisesTheBoundAndAStoredIdIsStill409() {
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) {
            ContainerStore c = container(s);
            assertEquals(Status.CREATED, status(c, "P", create("m", "P"))); // an empty partition: nothing read
            assertEquals("m", bound(s, c, "P"));
            assertEquals(Status.CREATED, status(c, "P", create("n", "P")));
            assertEquals("n", bound(s, c, "P"));
            assertEquals(Status.CONFLICT, status(c, "P", create("n", "P")), "the bound itself is stored");
            assertEquals(Status.CONFLICT, status(c, "P", create("m", "P")), "below the bound: read");
            assertEquals(Status.CREATED, status(c, "P", create("l", "P")));
            assertEquals("n", bound(s, c, "P"), "a smaller id leaves the bound");
            // an upsert of a new id raises it as a create does
            assertEquals(Status.CREATED, status(c, "P", ItemOperation.upsert(
                    M.createObjectNode().put("id", "t").put("pk", "P"), null)));
            assertEquals("t", bound(s, c, "P"));
            assertEquals(Status.CONFLICT, status(c, "P", create("t", "P")));
            // a delete keeps the bound (it need not be tight); the id is free again
            assertEquals(Status.NO_CONTENT, status(c, "P", ItemOperation.delete("t", null)));
            assertEquals("t", bound(s, c, "P"));
            assertEquals(Status.CREATED, status(c, "P", create("t", "P")));
            // a batch: ids above the bound go unread, a stored one among them still fails the batch
            List<ItemOperation> ops = List.of(create("u", "P"), create("v", "P"), create("t", "P"));
            List<ItemResult> r = c.executeBatch(pk("P"), ops);
            assertEquals(Status.CONFLICT, r.get(2).status());
            assertEquals("t", bound(s, c, "P"), "a failed batch leaves the bound");
            assertTrue(c.executeBatch(pk("P"), List.of(create("u", "P"), create("w", "P"), create("v", "P")))
                    .stream().allMatch(ItemResult::isSuccess));
            assertEquals("w", bound(s, c, "P"));
            assertEquals(Status.CONFLICT, status(c, "P", create("w", "P")));
            // the partition emptied: the bound is empty again, every id is above it
            for (String id : List.of("l", "m", "n", "t", "u", "v", "w")) {
                assertEquals(Status.NO_CONTENT, status(c, "P", ItemOperation.delete(id, null)));
            }
            assertEquals("", bound(s, c, "P"));
            assertEquals(Status.CREATED, status(c, "P", create("a", "P")));
            assertEquals(Status.CONFLICT, status(c, "P", create("a", "P")));
            // ids longer than the kept bound: unknown, and still checked
            String longId = "z".repeat(PartitionStatsCache.MAX_BOUND_BYTES + 1);
            assertEquals(Status.CREATED, status(c, "P", create(longId, "P")));
            assertNull(bound(s, c, "P"));
            assertEquals(Status.CONFLICT, status(c, "P", create(longId, "P")));
            assertEquals(Status.CONFLICT, status(c, "P", create("a", "P")));
        }
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) { // a reopen: unknown until emptied
            ContainerStore c = s.container("db", "c");
            assertEquals(Status.CONFLICT, status(c, "P", create("a", "P")));
            assertNull(bound(s, c, "P"));
            assertEquals(Status.CREATED, status(c, "P", create("zz", "P")));
            assertNull(bound(s, c, "P"), "unknown stays unknown: stored ids above it are not known");
            assertEquals(Status.CONFLICT, status(c, "P", create("zz", "P")));
        }
    }

    /**
     * mongo-frames: decimal ids handed out in increasing order ({@code ~n9, ~n10}, the Mongo face's Int32 {@code _id}s)
     * rise in the bound's order (length, then bytes), so batches above it read nothing; a smaller, equal or shorter id
     * is still checked.
     */
    @Test
    void decimalIdsInIncreasingOrderRaiseTheBoundAndEarlierOnesAreStill409() {
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) {
            ContainerStore c = container(s);
            for (int from = 0; from < 1200; from += 100) { // batches of 100 rising ids across 9 → 10, 99 → 100, 999 → 1000
                List<ItemOperation> ops = new ArrayList<>();
                for (int i = from; i < from + 100; i++) {
                    ops.add(create("~n" + i, "N"));
                }
                PartitionKeyValue v = pk("N");
                byte[] lp = Keys.concat(Keys.collId(c.definition().collId()), v.epk(), v.encoded());
                if (from > 0) { // the skip's own condition: every id of the next batch is above the bound
                    List<byte[]> keys = new ArrayList<>();
                    for (int i = from; i < from + 100; i++) {
                        keys.add(Keys.concat(lp, ("~n" + i).getBytes(StandardCharsets.UTF_8)));
                    }
                    assertTrue(CreateCheck.allAbove(keys, lp.length, s.statsCache().entry(lp).idBound()), "from " + from);
                }
                assertTrue(c.executeBatch(pk("N"), ops).stream().allMatch(ItemResult::isSuccess), "batch " + from);
                assertEquals("~n" + (from + 99), bound(s, c, "N"));
            }
            for (String stored : List.of("~n1199", "~n1000", "~n999", "~n100", "~n10", "~n9", "~n0")) {
                assertEquals(Status.CONFLICT, status(c, "N", create(stored, "N")), stored);
            }
            // a batch of new ids above the bound with one stored id among them fails whole
            List<ItemResult> r = c.executeBatch(pk("N"), List.of(create("~n1200", "N"), create("~n1199", "N")));
            assertEquals(Status.CONFLICT, r.get(1).status());
            assertEquals("~n1199", bound(s, c, "N"), "a failed batch leaves the bound");
            // shorter ids are below the bound whatever their bytes: read, stored ones refused, new ones created
            assertEquals(Status.CONFLICT, status(c, "N", create("~n99", "N")));
            assertEquals(Status.CREATED, status(c, "N", create("~o", "N")));
            assertEquals("~n1199", bound(s, c, "N"));
            assertEquals(Status.CONFLICT, status(c, "N", create("~o", "N")));
            // a longer id is above it even when its bytes are lower; the bound follows it
            assertEquals(Status.CREATED, status(c, "N", create("~n10000", "N")));
            assertEquals("~n10000", bound(s, c, "N"));
            assertEquals(Status.CREATED, status(c, "N", create("~n9999", "N")));
            assertEquals("~n10000", bound(s, c, "N"), "a shorter id leaves the bound");
            assertEquals(Status.CONFLICT, status(c, "N", create("~n9999", "N")));
            assertEquals(Status.CONFLICT, status(c, "N", create("~n10000", "N")));
        }
    }

    @Test
    void theIdOrderIsLengthThenBytes() {
        byte[] a = "~n999".getBytes(StandardCharsets.UTF_8);
        byte[] b = "~n1000".getBytes(StandardCharsets.UTF_8);
        assertTrue(CreateCheck.compareIds(a, 0, a.length, b, 0, b.length) < 0);
        assertTrue(CreateCheck.compareIds(b, 0, b.length, a, 0, a.length) > 0);
        assertEquals(0, CreateCheck.compareIds(b, 0, b.length, b.clone(), 0, b.length));
        byte[] high = {(byte) 0xC3, (byte) 0xA9}; // unsigned: é's bytes above ASCII of the same length
        byte[] low = "zz".getBytes(StandardCharsets.UTF_8);
        assertTrue(CreateCheck.compareIds(high, 0, 2, low, 0, 2) > 0);
        Random random = new Random(19);
        for (int i = 0; i < 10_000; i++) { // a total order agreeing with the numbers on decimal counters
            long x = random.nextInt(1 << random.nextInt(31));
            long y = random.nextInt(1 << random.nextInt(31));
            byte[] bx = ("~n" + x).getBytes(StandardCharsets.UTF_8);
            byte[] by = ("~n" + y).getBytes(StandardCharsets.UTF_8);
            assertEquals(Long.signum(Long.compare(x, y)), Integer.signum(CreateCheck.compareIds(bx, 0, bx.length, by,
                    0, by.length)), x + " vs " + y);
        }
    }

    @Test
    void aBulkLoadDropsTheBound() {
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) {
            ContainerStore c = container(s);
            assertEquals(Status.CREATED, status(c, "B", create("a1", "B")));
            assertEquals("a1", bound(s, c, "B"));
            try (BulkLoad bulk = c.beginBulkLoad()) {
                assertNotNull(bulk);
                assertTrue(bulk.write(pk("B"), List.of(create("z1", "B"), create("z2", "B"))).stream()
                        .allMatch(ItemResult::isSuccess));
                bulk.commit();
            }
            assertNull(bound(s, c, "B"));
            assertEquals(Status.CONFLICT, status(c, "B", create("z1", "B")), "above the old bound, stored by the load");
            assertEquals(Status.CONFLICT, status(c, "B", create("z2", "B")));
            assertEquals(Status.CREATED, status(c, "B", create("z3", "B")));
        }
    }

    /** Random creates, upserts, deletes and batches over ids mostly handed out in order: 201/409/204/404 as a map says. */
    @Test
    void randomWritesAnswerAsAModel() {
        int[] next = new int[3];
        writeAsModel(new Random(1717), 6, 9, new ModelIds() {
            @Override
            public String single(Random random, int part) { // a new id in order mostly, else an earlier one
                return random.nextInt(3) > 0 || next[part] == 0 ? String.format("id%05d", next[part]++)
                        : String.format("id%05d", random.nextInt(next[part]));
            }

            @Override
            public String fresh(Random random, int part) {
                return String.format("id%05d", next[part]++);
            }
        });
    }

    /** The ids {@link #writeAsModel} writes in partition {@code p<part>}. */
    private interface ModelIds {
        /** The id of the next single write: a new one, or one handed out before (stored or deleted). */
        String single(Random random, int part);

        /** A new id, for a batch. */
        String fresh(Random random, int part);
    }

    /**
     * 1,500 random writes per round over three partitions and three reopens (bounds unknown again after each), each
     * answering as a map says: a create ({@code creates} in 10), an upsert (1 in 10), a delete (2 in 10), else a batch
     * of one single id and {@code batchMore} fresh ones, shuffled; then every id reads as the map says.
     */
    private void writeAsModel(Random random, int creates, int batchMore, ModelIds ids) {
        Map<String, Map<String, Boolean>> model = new HashMap<>();
        for (int round = 0; round < 3; round++) {
            try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) {
                ContainerStore c = round == 0 ? container(s) : s.container("db", "c");
                for (int i = 0; i < 1500; i++) {
                    int part = random.nextInt(3);
                    String p = "p" + part;
                    Map<String, Boolean> stored = model.computeIfAbsent(p, k -> new HashMap<>());
                    String id = ids.single(random, part);
                    int kind = random.nextInt(10);
                    if (kind < creates) {
                        int expected = stored.getOrDefault(id, false) ? Status.CONFLICT : Status.CREATED;
                        assertEquals(expected, status(c, p, create(id, p)), "create " + p + "/" + id);
                        stored.put(id, true);
                    } else if (kind < creates + 1) {
                        int expected = stored.getOrDefault(id, false) ? Status.OK : Status.CREATED;
                        assertEquals(expected, status(c, p, ItemOperation.upsert(
                                M.createObjectNode().put("id", id).put("pk", p), null)), "upsert " + p + "/" + id);
                        stored.put(id, true);
                    } else if (kind < creates + 3) {
                        int expected = stored.getOrDefault(id, false) ? Status.NO_CONTENT : Status.NOT_FOUND;
                        assertEquals(expected, status(c, p, ItemOperation.delete(id, null)), "delete " + p + "/" + id);
                        stored.put(id, false);
                    } else {
                        List<ItemOperation> ops = new ArrayList<>();
                        List<String> batch = new ArrayList<>(List.of(id));
                        ops.add(create(id, p));
                        for (int k = 0; k < batchMore; k++) {
                            String more = ids.fresh(random, part);
                            batch.add(more);
                            ops.add(create(more, p));
                        }
                        java.util.Collections.shuffle(ops, random);
                        boolean conflict = stored.getOrDefault(id, false);
                        List<ItemResult> r = c.executeBatch(pk(p), ops);
                        assertEquals(!conflict, r.stream().allMatch(ItemResult::isSuccess), "batch " + p + "/" + batch);
                        if (!conflict) {
                            batch.forEach(x -> stored.put(x, true));
                        }
                    }
                }
                for (Map.Entry<String, Map<String, Boolean>> e : model.entrySet()) { // the items are as the model
                    for (Map.Entry<String, Boolean> item : e.getValue().entrySet()) {
                        boolean there;
                        try {
                            there = c.read(pk(e.getKey()), item.getKey(), null).isSuccess();
                        } catch (StoreException x) {
                            assertEquals(Status.NOT_FOUND, x.status());
                            there = false;
                        }
                        assertEquals(item.getValue(), there, e.getKey() + "/" + item.getKey());
                    }
                }
            }
        }
    }

    /** The partition's cached class bounds as strings, or null when unknown or not cached. */
    private static List<String> classes(CoreStore s, ContainerStore c, String p) {
        PartitionStatsCache.Entry e = s.statsCache().entry(lp(c, p));
        if (e == null || e.classBounds() == null) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (byte[] b : e.classBounds()) {
            out.add(new String(b, StandardCharsets.UTF_8));
        }
        java.util.Collections.sort(out);
        return out;
    }

    private static byte[] lp(ContainerStore c, String p) {
        PartitionKeyValue v = pk(p);
        return Keys.concat(Keys.collId(c.definition().collId()), v.epk(), v.encoded());
    }

    private static List<ItemOperation> creates(String format, int from, int to, String p) {
        List<ItemOperation> ops = new ArrayList<>();
        for (int i = from; i < to; i++) {
            ops.add(create(String.format(format, i), p));
        }
        return ops;
    }

    /**
     * id-classes: a batch of {@code i…} ids below a {@code w…} id of the same length (the id bound's maximum, as the
     * core benchmark's point writes leave its partitions) is above its own class's bound, so it reads nothing; stored ids of either
     * class are still 409, and more than four classes make the class bounds unknown until the partition empties.
     */
    @Test
    void anIdAboveItsClassIsUnreadWhileAnotherClassIsAboveIt() {
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) {
            ContainerStore c = container(s);
            assertTrue(c.executeBatch(pk("P"), creates("i%010d", 0, 100, "P")).stream().allMatch(ItemResult::isSuccess));
            assertEquals(Status.CREATED, status(c, "P", create("w0000007777", "P")));
            assertEquals("w0000007777", bound(s, c, "P"));
            assertEquals(List.of("i0000000099", "w0000007777"), classes(s, c, "P"));
            List<byte[]> next = new ArrayList<>();
            byte[] lp = lp(c, "P");
            for (int i = 100; i < 200; i++) {
                next.add(Keys.concat(lp, String.format("i%010d", i).getBytes(StandardCharsets.UTF_8)));
            }
            PartitionStatsCache.Entry e = s.statsCache().entry(lp);
            assertTrue(!CreateCheck.allAbove(next, lp.length, e.idBound()), "the id bound alone would read");
            assertTrue(CreateCheck.noneStored(next, lp.length, e.idBound(), e.classBounds()), "the skip's condition");
            assertTrue(c.executeBatch(pk("P"), creates("i%010d", 100, 200, "P")).stream().allMatch(ItemResult::isSuccess));
            assertEquals(List.of("i0000000199", "w0000007777"), classes(s, c, "P"));
            for (String stored : List.of("i0000000000", "i0000000150", "i0000000199", "w0000007777")) {
                assertEquals(Status.CONFLICT, status(c, "P", create(stored, "P")), stored);
            }
            // a batch above its class's bound with one stored id among them fails whole and leaves the bounds
            List<ItemResult> r = c.executeBatch(pk("P"), List.of(create("i0000000200", "P"), create("i0000000010", "P")));
            assertEquals(Status.CONFLICT, r.get(1).status());
            assertEquals(List.of("i0000000199", "w0000007777"), classes(s, c, "P"));
            assertEquals(Status.CREATED, status(c, "P", create("w0000001111", "P")), "below its class's bound: read");
            assertEquals(List.of("i0000000199", "w0000007777"), classes(s, c, "P"));
            // classes three and four, then a fifth: unknown, and every id still checked
            assertEquals(Status.CREATED, status(c, "P", create("x", "P")));
            assertEquals(Status.CREATED, status(c, "P", create("yy", "P")));
            assertEquals(List.of("i0000000199", "w0000007777", "x", "yy"), classes(s, c, "P"));
            assertEquals(Status.CREATED, status(c, "P", create("zzz", "P")));
            assertNull(classes(s, c, "P"));
            for (String stored : List.of("i0000000000", "i0000000199", "w0000001111", "x", "yy", "zzz")) {
                assertEquals(Status.CONFLICT, status(c, "P", create(stored, "P")), stored);
            }
            assertEquals(Status.CREATED, status(c, "P", create("i0000000200", "P")));
        }
    }

    /**
     * Random creates, upserts, deletes and batches over ids of several classes, each mostly handed out in order
     * (short and long, lower and higher first bytes), sometimes an earlier one: 201/409/204/404 as a map says.
     */
    @Test
    void randomWritesOfSeveralIdClassesAnswerAsAModel() {
        String[] formats = {"a%04d", "w%07d", "~n%d", "b%d", "k%02d", "Z%05d"};
        int[][] next = new int[3][formats.length];
        writeAsModel(new Random(3030), 5, 11, new ModelIds() {
            @Override
            public String single(Random random, int part) { // two or three classes mostly; now and then another
                int f = random.nextInt(10) < 8 ? random.nextInt(2 + part % 2) : random.nextInt(formats.length);
                int[] seq = next[part];
                return random.nextInt(4) > 0 || seq[f] == 0 ? String.format(formats[f], seq[f]++)
                        : String.format(formats[f], random.nextInt(seq[f]));
            }

            @Override
            public String fresh(Random random, int part) {
                int g = random.nextInt(2 + part % 2);
                return String.format(formats[g], next[part][g]++);
            }
        });
    }

    @Test
    void theCacheKeepsShortBoundsOnly() {
        PartitionStatsCache cache = new PartitionStatsCache();
        byte[] lp = {0, 0, 0, 1, 7};
        LogicalPartitionStats stats = new LogicalPartitionStats(10, 1, 1);
        cache.put(lp, stats, "abc".getBytes(StandardCharsets.UTF_8), null);
        assertArrayEquals("abc".getBytes(StandardCharsets.UTF_8), cache.entry(lp).idBound());
        cache.put(lp, stats);
        assertNull(cache.entry(lp).idBound(), "a put without a bound: unknown");
        cache.put(lp, stats, new byte[PartitionStatsCache.MAX_BOUND_BYTES + 1], null);
        assertNull(cache.entry(lp).idBound());
        cache.put(lp, stats, PartitionStatsCache.EMPTY_BOUND, null);
        assertEquals(0, cache.entry(lp).idBound().length);
        cache.forget(lp);
        assertNull(cache.entry(lp));
    }
}

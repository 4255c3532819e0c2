package io.tetradb.core.storage.partition;

import io.tetradb.core.feed.ChangeRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The logical-partition storage contract ({@link PartitionStore}), one suite for every engine: the embedded one in
 * document-core's build, Cassandra in cassandra-engine's {@code cluster} profile. A subclass gives the store; each test
 * uses a container id of its own, so a subclass may share one store (one keyspace) between tests.
 */
public abstract class PartitionStoreContract {
    private static final AtomicInteger CONTAINERS = new AtomicInteger(ThreadLocalRandom.current().nextInt(1 << 20, 1 << 28));
    private static final AtomicLong SEQ = new AtomicLong(1);

    protected PartitionStore store;
    protected int container;

    /** The store under test (fresh or shared). */
    protected abstract PartitionStore openStore() throws Exception;

    /** Called after each test with the store {@link #openStore()} gave. */
    protected void closeStore(PartitionStore store) throws Exception {
        store.close();
    }

    @BeforeEach
    void open() throws Exception {
        store = openStore();
        container = CONTAINERS.incrementAndGet();
    }

    @AfterEach
    void close() throws Exception {
        closeStore(store);
    }

    // ---- helpers: partitions, terms and records as the core shapes them ----

    protected LogicalPartition partition(String name) {
        byte[] epk = new byte[16]; // the hash's place, then the key's bytes, as the core's EPK · pk
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < epk.length; i++) {
            epk[i] = i < n.length ? n[i] : 0;
        }
        return new LogicalPartition(container, PartitionLayout.concat(epk, new byte[]{0x02}, n, new byte[]{0}));
    }

    private static byte[] term(int path, String value) {
        byte[] v = value.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[4 + v.length + 1];
        PartitionLayout.putInt(out, 0, path);
        System.arraycopy(v, 0, out, 4, v.length);
        return out; // a terminating 00 after the value, as the core's string encoding ends
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static ChangeRecord record(LogicalPartition p, String id, long lsn, long previousLsn, byte[] current) {
        ChangeRecord.OperationType type = current == null ? ChangeRecord.OperationType.DELETE
                : previousLsn == 0 ? ChangeRecord.OperationType.CREATE : ChangeRecord.OperationType.REPLACE;
        return new ChangeRecord(SEQ.getAndIncrement(), type, lsn, previousLsn, 1_700_000_000_000L, false, p.key(), id,
                current, null);
    }

    // ---- the contract ----

    @Test
    void aNewPartitionIsAtVersionZeroAndAnApplyAtZeroCreatesIt() {
        LogicalPartition p = partition("alpha");
        assertEquals(0, store.version(p));
        assertEquals(PartitionStats.EMPTY, store.stats(p));
        ApplyResult r = store.apply(PartitionWrite.builder(p, 0, 1).put("a", bytes("A1")).addTerm("a", term(7, "x"))
                .change(record(p, "a", 1, 0, bytes("A1"))).stats(new PartitionStats(10, 1, 1)).build());
        assertTrue(r.applied());
        assertEquals(1, r.version());
        store.awaitDurable(r.durableTicket());
        assertEquals(1, store.version(p));
        assertEquals(new PartitionStats(10, 1, 1), store.stats(p));
        assertArrayEquals(bytes("A1"), store.read(p, "a"));
        assertNull(store.read(p, "b"));
    }

    @Test
    void aStaleExpectedVersionIsRefusedAndWritesNothing() {
        LogicalPartition p = partition("beta");
        assertTrue(store.apply(PartitionWrite.builder(p, 0, 2).put("a", bytes("A1")).addTerm("a", term(1, "old"))
                .change(record(p, "a", 2, 0, bytes("A1"))).stats(new PartitionStats(5, 1, 2)).build()).applied());
        // a writer that read version 0 (or 1) lost the race: nothing of its write may appear
        for (long stale : new long[]{0, 1, 3}) {
            ApplyResult r = store.apply(PartitionWrite.builder(p, stale, stale + 5).put("a", bytes("LOST"))
                    .put("b", bytes("LOST")).removeTerm("a", term(1, "old")).addTerm("b", term(1, "lost"))
                    .change(record(p, "b", stale + 5, 0, bytes("LOST"))).stats(new PartitionStats(99, 2, stale + 5))
                    .build());
            assertFalse(r.applied(), "expected " + stale);
            assertEquals(2, r.version());
        }
        assertEquals(2, store.version(p));
        assertEquals(new PartitionStats(5, 1, 2), store.stats(p));
        assertArrayEquals(bytes("A1"), store.read(p, "a"));
        assertNull(store.read(p, "b"));
        assertEquals(List.of(entry(term(1, "old"), p, "a")), hex(store.seek(container, term(1, ""), null, 100)));
        assertEquals(List.of(2L), lsns(store.changes(p, 0, 100)));
    }

    @Test
    void aReplaceADeleteAndAPutApplyTogether() {
        LogicalPartition p = partition("gamma");
        store.apply(PartitionWrite.builder(p, 0, 2).put("a", bytes("A1")).put("b", bytes("B1"))
                .addTerm("a", term(1, "a1")).addTerm("b", term(1, "b1")).stats(new PartitionStats(4, 2, 2)).build());
        ApplyResult r = store.apply(PartitionWrite.builder(p, 2, 5).put("a", bytes("A2")).delete("b").put("c", bytes("C1"))
                .removeTerm("a", term(1, "a1")).addTerm("a", term(1, "a2")).removeTerm("b", term(1, "b1"))
                .addTerm("c", term(1, "c1")).change(record(p, "a", 3, 1, bytes("A2")))
                .change(record(p, "b", 4, 2, null)).change(record(p, "c", 5, 0, bytes("C1")))
                .stats(new PartitionStats(4, 2, 5)).build());
        assertTrue(r.applied());
        assertArrayEquals(bytes("A2"), store.read(p, "a"));
        assertNull(store.read(p, "b"));
        assertArrayEquals(bytes("C1"), store.read(p, "c"));
        assertEquals(List.of(entry(term(1, "a2"), p, "a"), entry(term(1, "c1"), p, "c")),
                hex(store.seek(container, term(1, ""), term(2, ""), 100)));
        List<ChangeRecord> changes = store.changes(p, 2, 100);
        assertEquals(List.of(3L, 4L, 5L), lsns(changes));
        assertEquals(ChangeRecord.OperationType.DELETE, changes.get(1).operationType());
        assertEquals("b", changes.get(1).id());
        assertArrayEquals(bytes("C1"), changes.get(2).current());
        assertEquals(List.of(4L, 5L), lsns(store.changes(p, 3, 100)));
        assertEquals(List.of(3L), lsns(store.changes(p, 2, 1)));
        assertEquals(5, store.version(p));
    }

    @Test
    void deleteChangesRemovesThoseRecordsOnlyAndDropContainerEveryPartition() {
        LogicalPartition p = partition("prune");
        LogicalPartition q = partition("pruneq");
        store.apply(PartitionWrite.builder(p, 0, 1).put("a", bytes("A1")).change(record(p, "a", 1, 0, bytes("A1")))
                .stats(new PartitionStats(2, 1, 1)).build());
        store.apply(PartitionWrite.builder(p, 1, 3).put("a", bytes("A2")).put("b", bytes("B1"))
                .change(record(p, "a", 2, 1, bytes("A2"))).change(record(p, "b", 3, 0, bytes("B1")))
                .stats(new PartitionStats(4, 2, 3)).build());
        store.apply(PartitionWrite.builder(q, 0, 1).put("a", bytes("QA")).change(record(q, "a", 1, 0, bytes("QA")))
                .stats(new PartitionStats(2, 1, 1)).build());
        store.deleteChanges(p, List.of(1L, 7L)); // 7: absent, no error
        assertEquals(List.of(2L, 3L), lsns(store.changes(p, 0, 10)));
        assertEquals(List.of(1L), lsns(store.changes(q, 0, 10)), "another partition's lsn 1 stays");
        store.dropContainer(p.container());
        assertEquals(List.of(), store.partitions(p.container(), null, null));
        assertNull(store.read(p, "a"));
        assertEquals(List.of(), store.changes(q, 0, 10));
        assertEquals(0, store.version(q));
    }

    @Test
    void scansReadOnePartitionsItemsInIdOrderWithinBounds() {
        LogicalPartition p = partition("delta");
        LogicalPartition other = partition("deltb");
        List<String> ids = List.of("b", "a", "ab", "z", "é", "\uD83D\uDE00", "A", "b0");
        PartitionWrite.Builder w = PartitionWrite.builder(p, 0, 1);
        for (String id : ids) {
            w.put(id, bytes("v" + id));
        }
        store.apply(w.stats(new PartitionStats(1, ids.size(), 1)).build());
        store.apply(PartitionWrite.builder(other, 0, 1).put("aa", bytes("other")).stats(new PartitionStats(1, 1, 1)).build());
        List<String> sorted = new ArrayList<>(ids);
        sorted.sort((x, y) -> Arrays.compareUnsigned(bytes(x), bytes(y))); // UTF-8 byte order
        assertEquals(sorted, ids(store.scan(p, null, null, 100)));
        assertEquals(List.of("a", "ab", "b"), ids(store.scan(p, "a", "b0", 100)));
        assertEquals(List.of("b", "b0", "z"), ids(store.scan(p, "b", "é", 100)));
        assertEquals(List.of("A", "a"), ids(store.scan(p, null, null, 2)));
        assertEquals(List.of("é", "\uD83D\uDE00"), ids(store.scan(p, "é", null, 100)));
        assertArrayEquals(bytes("vab"), store.scan(p, "ab", "ab0", 1).get(0).value());
    }

    @Test
    void indexSeeksCrossPartitionsInTermOrder() {
        LogicalPartition p1 = partition("p1");
        LogicalPartition p2 = partition("p2");
        store.apply(PartitionWrite.builder(p1, 0, 1).put("x", bytes("1")).addTerm("x", term(3, "m"))
                .addTerm("x", term(4, "q")).stats(new PartitionStats(1, 1, 1)).build());
        store.apply(PartitionWrite.builder(p2, 0, 2).put("y", bytes("2")).put("x", bytes("3"))
                .addTerm("y", term(3, "c")).addTerm("x", term(3, "m")).addTerm("y", term(3, "t"))
                .stats(new PartitionStats(2, 2, 2)).build());
        assertEquals(List.of(entry(term(3, "c"), p2, "y"), entry(term(3, "m"), p1, "x"), entry(term(3, "m"), p2, "x"),
                entry(term(3, "t"), p2, "y")), hex(store.seek(container, term(3, ""), term(4, ""), 100)));
        assertEquals(List.of(entry(term(3, "m"), p1, "x"), entry(term(3, "m"), p2, "x")),
                hex(store.seek(container, term(3, "m"), term(3, "n"), 100)));
        assertEquals(List.of(entry(term(3, "c"), p2, "y")), hex(store.seek(container, term(3, ""), term(4, ""), 1)));
        assertEquals(List.of(entry(term(4, "q"), p1, "x")), hex(store.seek(container, term(4, ""), null, 100)));
        // a term removed with its item is no longer found
        store.apply(PartitionWrite.builder(p2, 2, 3).delete("x").removeTerm("x", term(3, "m"))
                .stats(new PartitionStats(1, 1, 3)).build());
        assertEquals(List.of(entry(term(3, "m"), p1, "x")), hex(store.seek(container, term(3, "m"), term(3, "n"), 100)));
    }

    @Test
    void partitionsOfAKeyRangeComeWithTheirVersions() {
        List<LogicalPartition> ps = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            LogicalPartition p = partition("lp" + i);
            ps.add(p);
            store.apply(PartitionWrite.builder(p, 0, i + 1).put("id", bytes("v")).stats(new PartitionStats(1, 1, i + 1))
                    .build());
        }
        List<PartitionVersion> all = store.partitions(container, null, null);
        assertEquals(ps, all.stream().map(PartitionVersion::partition).toList());
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), all.stream().map(PartitionVersion::version).toList());
        List<PartitionVersion> some = store.partitions(container, ps.get(2).key(), ps.get(4).key());
        assertEquals(List.of(ps.get(2), ps.get(3)), some.stream().map(PartitionVersion::partition).toList());
        assertEquals(new PartitionStats(1, 1, 3), some.get(0).stats());
    }

    @Test
    protected void racingWritersWinEachVersionExactlyOnce() throws Exception {
        LogicalPartition p = partition("race");
        int writers = 4;
        int versions = 24;
        List<Long> won = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < writers; t++) {
            String me = "w" + t;
            Thread th = new Thread(() -> {
                try {
                    start.await();
                    while (true) {
                        long v = store.version(p);
                        if (v >= versions) {
                            return;
                        }
                        byte[] counter = store.read(p, "counter");
                        long n = counter == null ? 0 : Long.parseLong(new String(counter, StandardCharsets.UTF_8));
                        ApplyResult r = store.apply(PartitionWrite.builder(p, v, v + 1)
                                .put("counter", bytes(Long.toString(n + 1))).put("by-" + (v + 1), bytes(me))
                                .change(record(p, "counter", v + 1, v, bytes(Long.toString(n + 1))))
                                .stats(new PartitionStats(0, 1, v + 1)).build());
                        if (r.applied()) {
                            won.add(v + 1);
                        } else { // as a client told to retry: writers that retry at once collide again
                            Thread.sleep(ThreadLocalRandom.current().nextInt(1, 10));
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            threads.add(th);
            th.start();
        }
        start.countDown();
        for (Thread th : threads) {
            th.join();
        }
        assertEquals(List.of(), failures);
        assertEquals(versions, won.size());
        assertEquals(versions, new HashSet<>(won).size());
        assertEquals(versions, store.version(p));
        assertEquals(Long.toString(versions), new String(store.read(p, "counter"), StandardCharsets.UTF_8));
        List<Long> lsns = lsns(store.changes(p, 0, 1000));
        assertEquals(versions, lsns.size());
        Set<Long> expected = new HashSet<>();
        for (long v = 1; v <= versions; v++) {
            expected.add(v);
            assertTrue(store.read(p, "by-" + v) != null, "version " + v + " has its winner's mark");
        }
        assertEquals(expected, new HashSet<>(lsns));
    }

    @Test
    void derivedKeysReadBackAsTheLastApplyLeftThem() {
        LogicalPartition p = partition("side");
        byte[] unique = PartitionLayout.concat(new byte[]{0x22}, p.prefix(), bytes("k1"));
        byte[] other = PartitionLayout.concat(new byte[]{0x22}, p.prefix(), bytes("k2"));
        assertTrue(store.apply(PartitionWrite.builder(p, 0, 1).put("a", bytes("A"))
                .side(io.tetradb.core.storage.Space.META, unique, bytes("a")).stats(new PartitionStats(1, 1, 1))
                .build()).applied());
        assertArrayEquals(bytes("a"), store.readDerived(p, io.tetradb.core.storage.Space.META, unique));
        assertNull(store.readDerived(p, io.tetradb.core.storage.Space.META, other));
        // a refused write leaves no derived key; an applied one moves them
        assertFalse(store.apply(PartitionWrite.builder(p, 0, 2).side(io.tetradb.core.storage.Space.META, other,
                bytes("lost")).build()).applied());
        assertNull(store.readDerived(p, io.tetradb.core.storage.Space.META, other));
        assertTrue(store.apply(PartitionWrite.builder(p, 1, 2).put("a", bytes("A2"))
                .side(io.tetradb.core.storage.Space.META, unique, null)
                .side(io.tetradb.core.storage.Space.META, other, bytes("a")).stats(new PartitionStats(1, 1, 2))
                .build()).applied());
        assertNull(store.readDerived(p, io.tetradb.core.storage.Space.META, unique));
        assertArrayEquals(bytes("a"), store.readDerived(p, io.tetradb.core.storage.Space.META, other));
    }

    @Test
    void readAllReadsItemsOfSeveralPartitionsInOrder() {
        LogicalPartition p1 = partition("many1");
        LogicalPartition p2 = partition("many2");
        store.apply(PartitionWrite.builder(p1, 0, 1).put("a", bytes("1a")).put("b", bytes("1b")).build());
        store.apply(PartitionWrite.builder(p2, 0, 1).put("a", bytes("2a")).build());
        List<byte[]> got = store.readAll(List.of(p2, p1, p1, p2, p1), List.of("a", "b", "zz", "b", "a"));
        assertEquals(5, got.size());
        assertArrayEquals(bytes("2a"), got.get(0));
        assertArrayEquals(bytes("1b"), got.get(1));
        assertNull(got.get(2));
        assertNull(got.get(3));
        assertArrayEquals(bytes("1a"), got.get(4));
        assertEquals(List.of(), store.readAll(List.of(), List.of()));
    }

    /**
     * What a query's pages ask of a seek: value ranges whose values share long prefixes (an engine indexing a
     * value's first bytes must still keep the range exact), a resume just after an entry (inside another
     * partition's key), ranges across index paths, and chunks that end exactly at the limit.
     */
    @Test
    void seeksAreExactForSharedPrefixesResumesAndRangesAcrossPaths() {
        List<String> expected = new ArrayList<>();
        String[] values = {"common-prefix-a", "common-prefix-b", "common-prefix-b", "common-prefix", "common-prefiy",
                "c", "", "commo"};
        List<LogicalPartition> ps = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            LogicalPartition p = partition("sp" + i);
            ps.add(p);
            store.apply(PartitionWrite.builder(p, 0, 1).put("id" + i, bytes("v")).addTerm("id" + i, term(9, values[i]))
                    .addTerm("id" + i, term(8, "other")).addTerm("id" + i, term(10, values[i]))
                    .stats(new PartitionStats(1, 1, 1)).build());
        }
        for (int i = 0; i < values.length; i++) {
            expected.add(entry(term(9, values[i]), ps.get(i), "id" + i));
        }
        expected.sort(String::compareTo); // hex order is byte order
        assertEquals(expected, hex(store.seek(container, term(9, ""), term(10, ""), 100)));
        // exactly one value among values sharing its first 13 bytes with others
        byte[] b = term(9, "common-prefix-b");
        assertEquals(List.of(entry(b, ps.get(1), "id1"), entry(b, ps.get(2), "id2")),
                hex(store.seek(container, b, PartitionLayout.prefixEnd(b), 100)));
        // page by page, each resuming just after the last entry of the previous page
        List<String> paged = new ArrayList<>();
        byte[] from = term(9, "");
        while (true) {
            List<byte[]> page = store.seek(container, from, term(10, ""), 3);
            paged.addAll(hex(page));
            if (page.size() < 3) {
                break;
            }
            from = Arrays.copyOf(page.get(page.size() - 1), page.get(page.size() - 1).length + 1);
        }
        assertEquals(expected, paged);
        // across paths 8..10, from inside path 8's entries to path 10's first value
        List<byte[]> across = store.seek(container, term(8, "other"), term(10, "c"), 100);
        assertEquals(values.length * 2 + 1, across.size()); // path 8's, path 9's and path 10's ""
        for (int i = 1; i < across.size(); i++) {
            assertTrue(Arrays.compareUnsigned(across.get(i - 1), across.get(i)) < 0, "in byte order");
        }
        assertEquals(List.of(), store.seek(container, term(11, ""), null, 100));
    }

    /**
     * Derived keys by range (graph adjacency): a partition's own keys of a range, and a container's keys of a range
     * whichever partition wrote them, exact for keys sharing their first 12 bytes (an engine indexing a key's first
     * bytes must still cut to the range), resumed just after a key, gone with their delete and untouched by a
     * refused apply.
     */
    @Test
    void derivedKeysScanWithinAPartitionAndSeekAcrossPartitions() {
        io.tetradb.core.storage.Space adj = io.tetradb.core.storage.Space.ADJACENCY;
        LogicalPartition p1 = partition("src1");
        LogicalPartition p2 = partition("src2");
        // keys under p1's "vertex" a (its out-entries: keys starting with p1's prefix), and under b and bb, whose
        // first 12 bytes are equal (in-entries written by both partitions)
        byte[] a1 = derivedKey(p1.prefix(), "vertex-a", 1, "x");
        byte[] a2 = derivedKey(p1.prefix(), "vertex-a", 1, "y");
        byte[] bIn1 = derivedKey("vertex-b", 2, "from-1");
        byte[] bIn2 = derivedKey("vertex-b", 2, "from-2");
        byte[] bbIn = derivedKey("vertex-bb", 2, "from-1");
        assertTrue(store.apply(PartitionWrite.builder(p1, 0, 1).put("e1", bytes("E1"))
                .side(adj, a1, bytes("v-a1")).side(adj, a2, bytes("v-a2")).side(adj, bIn1, bytes("v-b1"))
                .side(adj, bbIn, bytes("v-bb")).stats(new PartitionStats(2, 1, 1)).build()).applied());
        assertTrue(store.apply(PartitionWrite.builder(p2, 0, 1).put("e2", bytes("E2"))
                .side(adj, bIn2, bytes("v-b2")).stats(new PartitionStats(2, 1, 1)).build()).applied());
        byte[] aPrefix = derivedKey(p1.prefix(), "vertex-a", 1, null);
        assertEquals(List.of(hexOf(a1), hexOf(a2)), keys(store.scanDerived(p1, adj, aPrefix,
                PartitionLayout.prefixEnd(aPrefix), 100)));
        assertEquals(List.of(), keys(store.scanDerived(p2, adj, p2.prefix(), PartitionLayout.prefixEnd(p2.prefix()),
                100)));
        assertEquals(List.of(hexOf(a1)), keys(store.scanDerived(p1, adj, aPrefix, null, 1)));
        byte[] bPrefix = derivedKey("vertex-b", 2, null);
        List<io.tetradb.core.storage.KeyValue> in = store.seekDerived(container, adj, bPrefix,
                PartitionLayout.prefixEnd(bPrefix), 100);
        assertEquals(List.of(hexOf(bIn1), hexOf(bIn2)), keys(in));
        assertArrayEquals(bytes("v-b1"), in.get(0).value());
        assertArrayEquals(bytes("v-b2"), in.get(1).value());
        // resumed just after a key, and the whole container in key order
        assertEquals(List.of(hexOf(bIn2)), keys(store.seekDerived(container, adj,
                PartitionLayout.concat(bIn1, new byte[]{0}), PartitionLayout.prefixEnd(bPrefix), 100)));
        assertEquals(List.of(hexOf(a1), hexOf(a2), hexOf(bIn1), hexOf(bIn2), hexOf(bbIn)),
                keys(store.seekDerived(container, adj, PartitionLayout.container(container), null, 100)));
        // a refused apply adds nothing; an applied delete removes the key from both reads
        assertFalse(store.apply(PartitionWrite.builder(p2, 0, 2).side(adj, derivedKey("vertex-b", 2, "lost"),
                bytes("lost")).build()).applied());
        assertTrue(store.apply(PartitionWrite.builder(p1, 1, 2).delete("e1").side(adj, bIn1, null)
                .side(adj, a1, null).stats(new PartitionStats(0, 0, 2)).build()).applied());
        assertEquals(List.of(hexOf(bIn2)), keys(store.seekDerived(container, adj, bPrefix,
                PartitionLayout.prefixEnd(bPrefix), 100)));
        assertEquals(List.of(hexOf(a2)), keys(store.scanDerived(p1, adj, aPrefix, PartitionLayout.prefixEnd(aPrefix),
                100)));
    }

    /** {@code container · vertex · dir · tail} (tail null: the vertex and direction's prefix). */
    private byte[] derivedKey(String vertex, int dir, String tail) {
        return derivedKey(PartitionLayout.container(container), vertex, dir, tail);
    }

    /** {@code base · vertex · dir · tail}, base starting with the container id. */
    private static byte[] derivedKey(byte[] base, String vertex, int dir, String tail) {
        return PartitionLayout.concat(base, bytes(vertex), new byte[]{0, 1, (byte) dir},
                tail == null ? new byte[0] : bytes(tail));
    }

    private static String hexOf(byte[] key) {
        return java.util.HexFormat.of().formatHex(key);
    }

    private static List<String> keys(List<io.tetradb.core.storage.KeyValue> kvs) {
        return kvs.stream().map(kv -> hexOf(kv.key())).toList();
    }

    // ---- assertions' shapes ----

    private static String entry(byte[] term, LogicalPartition p, String id) {
        return java.util.HexFormat.of().formatHex(PartitionLayout.concat(term, p.key(), bytes(id)));
    }

    private static List<String> hex(List<byte[]> entries) {
        return entries.stream().map(e -> java.util.HexFormat.of().formatHex(e)).toList();
    }

    private static List<Long> lsns(List<ChangeRecord> records) {
        return records.stream().map(ChangeRecord::lsn).toList();
    }

    private static List<String> ids(List<StoredItem> items) {
        return items.stream().map(StoredItem::id).toList();
    }
}

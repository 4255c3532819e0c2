package io.tetradb.core.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.storage.meta.MetadataStore;
import io.tetradb.core.storage.partition.LogicalPartition;
import io.tetradb.core.storage.partition.PartitionStore;
import io.tetradb.core.unique.UniqueIndexViolation;
import io.tetradb.testing.TestTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

import static io.tetradb.core.unique.TagsUniqueIndex.TAGS;
import static io.tetradb.core.unique.TagsUniqueIndex.item;
import static io.tetradb.core.unique.TagsUniqueIndex.pk;
import static io.tetradb.core.unique.TagsUniqueIndex.tags;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Face-defined (Mongo) unique indexes on shared stores (issue 20, {@link SharedUniqueOwners}): two core stores (two
 * servers) on one shared metadata store and one shared partition store. A container-wide index built over stored
 * items refuses duplicates and leaves nothing; built, it is followed by the other server, whose writers in other
 * logical partitions are refused a held key and may take a freed one; writers racing on one value through both
 * servers in different partitions have exactly one winner each round; a claim whose writer never applied (a crash)
 * is taken over after the wait, its partition fenced. A subclass gives the stores: embedded ones presented as shared
 * here ({@code SharedUniqueIndexEmbeddedTest}), Cassandra in cassandra-engine's cluster profile.
 */
public abstract class SharedUniqueIndexContract {
    @TempDir
    Path dirs;
    protected CoreStore a;
    protected CoreStore b;
    private PartitionStore partitions;
    private String db;

    protected abstract MetadataStore sharedMetadata() throws Exception;

    protected abstract PartitionStore sharedPartitions() throws Exception;

    @BeforeEach
    void open() throws Exception {
        MetadataStore meta = sharedMetadata();
        partitions = sharedPartitions();
        a = CoreStore.open(StoreConfig.defaults(dirs.resolve("a")), meta, partitions);
        b = CoreStore.open(StoreConfig.defaults(dirs.resolve("b")), meta, partitions);
        for (CoreStore s : List.of(a, b)) {
            s.uniqueIndexKinds().register("tags", TAGS);
            s.catalogCheckMillis(50);
        }
        db = "db" + Integer.toHexString(ThreadLocalRandom.current().nextInt(1 << 24));
        a.createDatabase(db, null);
        a.createContainer(db, "c", PartitionKeyDefinition.of("/pk"), null, null, null, null);
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
    }

    private ContainerStore on(CoreStore s) {
        return s.container(db, "c");
    }

    private static ItemResult create(ContainerStore c, ObjectNode item) {
        return c.execute(PartitionKeyValue.of(item.get("pk")), ItemOperation.create(item));
    }

    /** Waits (bounded) until {@code s}'s catalog refresh shows {@code count} unique indexes. */
    private ContainerStore following(CoreStore s, int count) throws InterruptedException {
        long until = System.nanoTime() + TestTime.patience(java.time.Duration.ofSeconds(30)).toNanos();
        while (on(s).uniqueIndexes().size() != count && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        assertEquals(count, on(s).uniqueIndexes().size());
        return on(s);
    }

    @Test
    void aBuildOverDuplicatesFailsThenOneServesBothServers() throws Exception {
        ContainerStore ca = on(a);
        create(ca, item("a", "p1", "x", "y", "y"));
        create(on(b), item("b", "p2", "z", "x"));
        UniqueIndexViolation v = assertThrows(UniqueIndexViolation.class, () -> ca.addUniqueIndex(tags(false)));
        assertArrayEquals("\"x\"".getBytes(StandardCharsets.UTF_8), v.key());
        assertTrue(ca.uniqueIndexes().isEmpty(), "a failed build leaves no index");
        create(on(b), item("c", "p3", "z")); // not enforced: nothing was left behind
        on(b).execute(pk("p2"), ItemOperation.delete("b", null));
        on(b).execute(pk("p3"), ItemOperation.delete("c", null));

        assertTrue(ca.addUniqueIndex(tags(false)));
        ContainerStore cb = following(b, 1);
        // the other server's writer in another logical partition is refused a held key
        UniqueIndexViolation taken = assertThrows(UniqueIndexViolation.class, () -> create(cb, item("d", "p4", "q", "y")));
        assertEquals(409, taken.status());
        assertArrayEquals("\"y\"".getBytes(StandardCharsets.UTF_8), taken.key());
        create(cb, item("d", "p4", "q")); // nothing of the refused write was kept
        assertThrows(UniqueIndexViolation.class, () -> create(ca, item("e", "p5", "q")));
        // a replace on one server frees a key the other takes; a delete frees its keys
        ca.execute(pk("p1"), ItemOperation.replace("a", item("a", "p1", "x"), null));
        create(cb, item("f", "p6", "y"));
        cb.execute(pk("p4"), ItemOperation.delete("d", null));
        create(ca, item("g", "p7", "q"));
        // a batch may take a key its earlier operation freed, and a failed batch keeps no claim
        List<ItemResult> batch = ca.executeBatch(pk("p1"), List.of(
                ItemOperation.replace("a", item("a", "p1"), null), ItemOperation.create(item("h", "p1", "x"))));
        assertTrue(batch.stream().allMatch(ItemResult::isSuccess), batch.toString());
        List<ItemResult> refused = ca.executeBatch(pk("p1"), List.of(
                ItemOperation.create(item("i", "p1", "r")), ItemOperation.create(item("j", "p1", "y"))));
        assertEquals(409, refused.get(1).status());
        create(cb, item("k", "p8", "r")); // the failed batch's claim of "r" was released
        assertThrows(UniqueIndexViolation.class, () -> create(cb, item("l", "p9", "x")));

        // dropped on one server: the other follows and stops enforcing
        assertTrue(ca.dropUniqueIndex("tags_1"));
        following(b, 0);
        create(cb, item("l", "p9", "x"));
    }

    /**
     * A batch's claims are sent at once ({@code BatchUniqueClaims}) with the outcome of claims made in turn: the
     * earliest operation whose key another item holds fails the batch (409, the others 424) and no claim of it is
     * kept; a batch of new keys is written whole, each key owned once. Then the same batch of 50 new keys timed with
     * the claims one after another and at once (printed, no assertion on it).
     */
    @Test
    void aBatchsClaimsGoAtOnceWithTheOutcomeOfClaimsInTurnAndAreTimed() throws Exception {
        ContainerStore ca = on(a);
        assertTrue(ca.addUniqueIndex(tags(false)));
        ContainerStore cb = following(b, 1);
        create(cb, item("h3", "q3", "b3"));
        create(cb, item("h7", "q7", "b7"));
        List<ItemOperation> ops = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            ops.add(ItemOperation.create(item("n" + i, "p1", "b" + i)));
        }
        List<ItemResult> refused = ca.executeBatch(pk("p1"), ops);
        assertEquals(409, refused.get(3).status(), refused.toString()); // the earliest, though 7 is refused too
        for (int i = 0; i < 10; i++) {
            if (i != 3) {
                assertEquals(io.tetradb.core.Status.FAILED_DEPENDENCY, refused.get(i).status(), refused.toString());
            }
        }
        for (int i = 0; i < 10; i++) { // the failed batch kept no claim: the other server takes its keys
            if (i != 3 && i != 7) {
                create(cb, item("t" + i, "r" + i, "b" + i));
            }
        }
        long[] nanos = new long[2];
        for (int round = 0; round < 4; round++) {
            boolean atOnce = round % 2 == 1;
            FaceUniqueIndexes.claimsAtOnce = atOnce;
            try {
                List<ItemOperation> batch = new ArrayList<>();
                for (int i = 0; i < 50; i++) {
                    batch.add(ItemOperation.create(item("m" + i, "w" + round, "w" + round + "-" + i)));
                }
                long t0 = System.nanoTime();
                List<ItemResult> written = ca.executeBatch(pk("w" + round), batch);
                nanos[atOnce ? 1 : 0] += System.nanoTime() - t0;
                assertTrue(written.stream().allMatch(ItemResult::isSuccess), written.toString());
            } finally {
                FaceUniqueIndexes.claimsAtOnce = true;
            }
            // each key owned once: the other server is refused one of them
            assertThrows(UniqueIndexViolation.class, () -> create(cb, item("x", "y", "w0-17")));
        }
        System.out.printf("BENCH unique-batch-claims keys=50 one_by_one_ms=%.1f at_once_ms=%.1f (%s, 2 batches each)%n",
                nanos[0] / 2e6, nanos[1] / 2e6, getClass().getSimpleName());
        System.out.printf("RATIO unique-batch-claims-one-by-one-over-at-once %.2f%n", (double) nanos[0] / nanos[1]);
    }

    @Test
    void racingWritersInManyPartitionsThroughBothServersHaveExactlyOneWinner() throws Exception {
        assertTrue(on(a).addUniqueIndex(tags(false)));
        following(b, 1);
        int writers = 6;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            for (int round = 0; round < 12; round++) {
                CountDownLatch go = new CountDownLatch(1);
                List<Future<Boolean>> outcomes = new ArrayList<>();
                for (int w = 0; w < writers; w++) {
                    String id = "r" + round + "w" + w;
                    String value = "v" + round;
                    ContainerStore c = on(w % 2 == 0 ? a : b);
                    outcomes.add(pool.submit(() -> {
                        go.await();
                        for (int attempt = 0; ; attempt++) {
                            try {
                                create(c, item(id, "p" + id, value));
                                return true;
                            } catch (UniqueIndexViolation e) {
                                return false;
                            } catch (io.tetradb.core.StoreException e) {
                                if (e.status() != 449 || attempt > 20) { // a lost partition race: run it again
                                    throw e;
                                }
                            }
                        }
                    }));
                }
                go.countDown();
                int won = 0;
                for (Future<Boolean> f : outcomes) {
                    won += f.get() ? 1 : 0;
                }
                assertEquals(1, won, "round " + round);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Wait-die ({@link UniqueClaimant}): two batches through the two servers, in two logical partitions, creating
     * items with the same 8 values in crossed order (one claims v0…v7, the other v7…v0; half the rounds
     * with the claims in turn, half at once). Without ages each could win some values, wait for the other's pending
     * claims, fence the other's partition after the lease and both fail (449) — every round again. Now the younger
     * gives way (449, its claims released) and the older goes on: in every round one of the two first attempts is
     * decided (applied, or 409 on a value the other holds), exactly one batch wins, after its retries the other
     * ends 409, and every value is held by the winner's items.
     */
    @Test
    void crossedBatchesOnSharedValuesThroughBothServersNeverBothFailAndOneWinsEveryValue() throws Exception {
        assertTrue(on(a).addUniqueIndex(tags(false)));
        following(b, 1);
        final int keys = 8;
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 8; round++) {
                FaceUniqueIndexes.claimsAtOnce = round % 2 == 1;
                try {
                    CountDownLatch go = new CountDownLatch(1);
                    List<Future<List<Integer>>> sides = new ArrayList<>();
                    for (int side = 0; side < 2; side++) {
                        List<ItemOperation> ops = new ArrayList<>();
                        String pk = "x" + round + "s" + side;
                        for (int i = 0; i < keys; i++) {
                            int value = side == 0 ? i : keys - 1 - i; // crossed order
                            ops.add(ItemOperation.create(item("s" + side + "i" + i, pk, "x" + round + "v" + value)));
                        }
                        ContainerStore c = on(side == 0 ? a : b);
                        sides.add(pool.submit(() -> {
                            go.await();
                            return attempts(c, pk(pk), ops);
                        }));
                    }
                    long t0 = System.nanoTime();
                    go.countDown();
                    List<Integer> first = sides.get(0).get();
                    List<Integer> second = sides.get(1).get();
                    String seen = "round " + round + ": " + first + " / " + second;
                    System.out.printf("UNIQUE crossed-batches %s %s, %.0f ms (%s)%n", FaceUniqueIndexes.claimsAtOnce
                            ? "at-once" : "in-turn", seen, (System.nanoTime() - t0) / 1e6, getClass().getSimpleName());
                    assertTrue(first.get(0) != 449 || second.get(0) != 449, "both first attempts refused, " + seen);
                    int last0 = first.get(first.size() - 1);
                    int last1 = second.get(second.size() - 1);
                    assertTrue(last0 == 201 && last1 == 409 || last0 == 409 && last1 == 201, seen);
                    int winner = last0 == 201 ? 0 : 1;
                    for (int v = 0; v < keys; v++) { // every value is the winner's: a third writer is refused
                        String value = "x" + round + "v" + v;
                        UniqueIndexViolation held = assertThrows(UniqueIndexViolation.class,
                                () -> create(on(a), item("third" + value, "t" + value, value)), seen);
                        assertEquals(409, held.status());
                    }
                    ContainerStore loser = on(winner == 0 ? b : a);
                    assertEquals(404, loser.executeBatch(pk("x" + round + "s" + (1 - winner)),
                            List.of(ItemOperation.read("s" + (1 - winner) + "i0", null))).get(0).status(), seen);
                } finally {
                    FaceUniqueIndexes.claimsAtOnce = true;
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Runs a batch until it is decided, as the faces do with a 449: the status of each attempt (201 applied, 409 a
     * value held by another item, 449 refused whole).
     */
    private static List<Integer> attempts(ContainerStore c, PartitionKeyValue pk, List<ItemOperation> ops) {
        List<Integer> out = new ArrayList<>();
        for (int attempt = 0; attempt < 20; attempt++) {
            try {
                List<ItemResult> r = c.executeBatch(pk, ops);
                if (r.stream().allMatch(ItemResult::isSuccess)) {
                    out.add(201);
                    return out;
                }
                int status = r.stream().mapToInt(ItemResult::status).filter(x -> x != 424).findFirst().orElse(0);
                out.add(status);
                if (status != 449) {
                    return out;
                }
            } catch (io.tetradb.core.StoreException e) {
                if (e.status() != 449) {
                    throw e;
                }
                out.add(449);
            }
        }
        return out;
    }

    @Test
    void perPartitionKeysRepeatAcrossPartitionsOnly() throws Exception {
        assertTrue(on(a).addUniqueIndex(tags(true)));
        ContainerStore cb = following(b, 1);
        create(on(a), item("a", "p1", "x"));
        create(cb, item("b", "p2", "x"));
        assertThrows(UniqueIndexViolation.class, () -> create(cb, item("c", "p1", "x")));
    }

    @Test
    void aClaimWhoseWriterNeverAppliedIsTakenOverAfterItsPartitionIsFenced() throws Exception {
        ContainerStore ca = on(a);
        assertTrue(ca.addUniqueIndex(tags(false)));
        ContainerStore cb = following(b, 1);
        create(ca, item("a", "p1", "other"));
        // a writer on server a claims "x" for item "ghost" of p1 and crashes before its partition's apply
        int collId = ca.collId();
        byte[] lp = Keys.concat(Keys.collId(collId), pk("p1").epk(), pk("p1").encoded());
        LogicalPartition p1 = LogicalPartition.ofPrefix(lp);
        long pa = partitions.version(p1);
        byte[] key = "\"x\"".getBytes(StandardCharsets.UTF_8);
        byte[] name = "tags_1".getBytes(StandardCharsets.UTF_8);
        byte[] entry = Keys.concat(new byte[]{FaceUniqueIndexes.ENTRY}, Keys.collId(collId),
                new byte[]{0, (byte) name.length}, name, key);
        byte[] ghost = Keys.concat(java.util.Arrays.copyOfRange(lp, 4, lp.length), Keys.utf8("ghost"));
        new SharedUniqueOwners(a, ca, collId).claim(entry, ghost, lp, pa, TAGS.open(tags(false)), key, false,
                () -> new IllegalStateException("free"), UniqueClaimant.startingNow());
        // the other server's writer waits for the claimant, fences its partition and takes the key
        long started = System.nanoTime();
        create(cb, item("b", "p2", "x"));
        assertTrue((System.nanoTime() - started) / 1_000_000L >= SharedUniqueOwners.PENDING_WAIT_MILLIS,
                "a pending claim is waited for before it is fenced");
        assertEquals(pa + 1, partitions.version(p1), "the claimant's partition was moved past its version");
        assertThrows(UniqueIndexViolation.class, () -> create(ca, item("ghost", "p1", "x")));
        create(ca, item("c", "p1", "y")); // the fenced partition takes writes as before
    }
}

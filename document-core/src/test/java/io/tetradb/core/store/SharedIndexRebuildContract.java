package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.query.sql.SqlParser;
import io.tetradb.core.storage.meta.MetadataStore;
import io.tetradb.core.storage.partition.PartitionStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Indexing-policy replaces on a shared engine (issue 20): two core stores (two servers) on one shared metadata store
 * and one shared partition store. The rebuild converts one logical partition per conditional apply and records the
 * partition's policy epoch; writers read it after the partition's version. Proven here: writes through both stores
 * while one rebuilds — the other with a catalog cache that still holds the old policy for the whole rebuild, so it
 * relies on the partitions' epochs alone — leave no item missing from the index and no term of the old policy (the
 * index consistency check after); queries answer correctly meanwhile; the progress is read from the metadata on both;
 * a store stopped mid-rebuild leaves its progress in the metadata and the other store resumes from it. A subclass
 * gives the shared stores: embedded ones presented as another engine ({@code SharedIndexRebuildEmbeddedTest}),
 * Cassandra in cassandra-engine's cluster profile.
 */
@org.junit.jupiter.api.Timeout(600)
public abstract class SharedIndexRebuildContract {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PARTITIONS = 24;
    private static final int ITEMS_PER_PARTITION = 3;

    @TempDir
    Path dirs;
    protected CoreStore a;
    protected CoreStore b;
    private String db;

    protected abstract MetadataStore sharedMetadata() throws Exception;

    protected abstract PartitionStore sharedPartitions() throws Exception;

    private MetadataStore meta;
    private PartitionStore partitions;

    @BeforeEach
    void open() throws Exception {
        meta = sharedMetadata();
        partitions = sharedPartitions();
        a = CoreStore.open(StoreConfig.defaults(dirs.resolve("a")), meta, partitions);
        b = CoreStore.open(StoreConfig.defaults(dirs.resolve("b")), meta, partitions);
        db = "db" + Integer.toHexString(ThreadLocalRandom.current().nextInt(1 << 24));
        a.createDatabase(db, null);
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
    }

    private static PartitionKeyValue pk(String v) {
        return PartitionKeyValue.of(PartitionKeyValue.component(v));
    }

    private static ObjectNode item(String id, String pk, int n) {
        return JSON.createObjectNode().put("id", id).put("pk", pk).put("cat", "c" + n % 4).put("n", n)
                .put("other", "o" + n);
    }

    /** Only /cat: every other path's terms (pk, n, other, id…) must go, and no writer may bring them back. */
    private static JsonNode narrow() throws Exception {
        return JSON.readTree("{\"indexingMode\":\"consistent\",\"includedPaths\":[{\"path\":\"/cat/?\"}],"
                + "\"excludedPaths\":[{\"path\":\"/*\"}]}");
    }

    private ContainerStore loaded(CoreStore on) {
        ContainerStore c = on.createContainer(db, "c", PartitionKeyDefinition.of("/pk"), null, null, null, null);
        for (int p = 0; p < PARTITIONS; p++) {
            List<ItemOperation> ops = new ArrayList<>();
            for (int i = 0; i < ITEMS_PER_PARTITION; i++) {
                ops.add(ItemOperation.create(item("i" + i, "p" + p, p * 10 + i)));
            }
            c.executeBatch(pk("p" + p), ops).forEach(r -> assertTrue(r.status() < 300, "status " + r.status()));
        }
        return c;
    }

    /** An upsert as a face does it: a lost partition race (449) is run again. */
    private static void upsert(ContainerStore c, ObjectNode item, AtomicInteger races) {
        for (int attempt = 0; ; attempt++) {
            try {
                assertTrue(c.execute(pk(item.get("pk").asText()), ItemOperation.upsert(item, null)).status() < 300);
                return;
            } catch (StoreException e) {
                if (e.status() != PartitionCommit.RETRY_WITH || attempt > 50) {
                    throw e;
                }
                races.incrementAndGet();
            }
        }
    }

    private static long count(ContainerStore c, String where) {
        return c.query(SqlParser.parse("SELECT VALUE COUNT(1) FROM c WHERE " + where), null, null, null)
                .results().get(0).asLong();
    }

    @Test
    void bothServersWriteWhileOneRebuildsAndTheIndexIsExactAfter() throws Exception {
        ContainerStore onA = loaded(a);
        ContainerStore onB = b.container(db, "c");
        b.catalogCheckMillis(3_600_000); // b keeps the old policy cached for the whole rebuild: the epochs decide
        a.rebuildChunkItems = 1;
        AtomicInteger steps = new AtomicInteger();
        AtomicInteger races = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Long> progressA = new ArrayList<>();
        List<Long> progressB = new ArrayList<>();
        CountDownLatch halfway = new CountDownLatch(1);
        a.rebuildHook = container -> {
            int s = steps.incrementAndGet();
            // between two conversions: both servers write into converted and unconverted partitions, and b creates
            // new partitions with the old policy it still holds (a later full pass converts them)
            try {
                int p = s % PARTITIONS;
                upsert(onB, item("b" + s, "p" + p, 1000 + s), races);
                upsert(onB, item("b" + s, "p" + (PARTITIONS - 1 - p), 2000 + s), races);
                upsert(onA, item("a" + s, "p" + (p * 7 % PARTITIONS), 3000 + s), races);
                if (s % 5 == 0 && s <= 2 * PARTITIONS) { // bounded: each new one makes the job pass once more
                    upsert(onB, item("new" + s, "fresh" + s, 4000 + s), races);
                }
                if (s < 40) {
                    progressA.add(onA.indexTransformationProgress());
                    progressB.add(onB.indexTransformationProgress());
                }
                if (s <= PARTITIONS / 2) { // before the writer threads start: the two counts see the same items
                    // queries meanwhile: the index serves what both policies index (/cat), the rest scans
                    assertEquals(count(onA, "c.n >= 0"), count(onA, "c.cat IN ('c0','c1','c2','c3')"));
                }
                if (s == PARTITIONS / 2) {
                    halfway.countDown();
                }
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        };
        // writers on both servers while the rebuild runs (a lost race against a conversion is retried)
        AtomicBoolean done = new AtomicBoolean();
        List<Thread> writers = new ArrayList<>();
        for (ContainerStore c : List.of(onA, onB)) {
            Thread t = new Thread(() -> {
                int n = 0;
                try {
                    halfway.await();
                    while (!done.get()) {
                        int p = ThreadLocalRandom.current().nextInt(PARTITIONS);
                        upsert(c, item("w" + (n % 7) + (c == onA ? "a" : "b"), "p" + p, 5000 + n), races);
                        n++;
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            t.start();
            writers.add(t);
        }
        a.replaceContainer(db, "c", null, narrow(), null);
        onA.awaitIndexRebuild();
        done.set(true);
        for (Thread t : writers) {
            t.join();
        }
        if (failure.get() != null) {
            throw new AssertionError("a writer or query failed during the rebuild", failure.get());
        }
        assertTrue(steps.get() > PARTITIONS, "one step per logical partition: " + steps.get());
        assertNull(meta.get(Keys.indexRebuild(onA.collId())), "the rebuild record is gone");
        assertEquals(100, onA.indexTransformationProgress());
        assertEquals(100, onB.indexTransformationProgress());
        assertTrue(progressA.stream().anyMatch(v -> v > 0 && v < 100), "progress moved: " + progressA);
        assertTrue(progressB.stream().anyMatch(v -> v > 0 && v < 100), "b reads it from the metadata: " + progressB);

        ContainerStore.IndexCheck check = onA.checkIndexes();
        assertTrue(check.consistent(), "no item missing from the index, no old-policy term left: " + check);
        assertTrue(check.expected() > 0, check.toString());

        // b still holds the old policy: its writes now find the partitions' new epoch and follow it
        for (int p = 0; p < PARTITIONS; p++) {
            upsert(onB, item("late" + p, "p" + p, 6000 + p), races);
        }
        check = onA.checkIndexes();
        assertTrue(check.consistent(), "a server whose cache is behind writes the partition's policy: " + check);
        assertEquals(count(onA, "c.cat = 'c1'"), count(onA, "c.n >= 0 AND c.cat = 'c1'"));
        long all = count(onA, "c.n >= 0");
        assertEquals(all, count(onA, "c.cat IN ('c0','c1','c2','c3')"), "the new /cat index holds every item");
    }

    @Test
    void aRebuildStoppedOnOneServerIsResumedByTheOther() throws Exception {
        ContainerStore onA = loaded(a);
        CountDownLatch paused = new CountDownLatch(1);
        AtomicInteger steps = new AtomicInteger();
        a.rebuildHook = container -> {
            if (steps.incrementAndGet() == 6) { // the listing step, then five partitions converted
                paused.countDown();
                new CountDownLatch(1).await(); // until the store's close stops the job
            }
        };
        a.replaceContainer(db, "c", null, narrow(), null);
        paused.await();
        a.close(); // a server stops mid-rebuild
        byte[] record = meta.get(Keys.indexRebuild(onA.collId())).value();
        RebuildRecord stopped = RebuildRecord.decode(record);
        assertNotNull(stopped.cursor(), "the progress is in the metadata");
        assertEquals(5L * ITEMS_PER_PARTITION, stopped.converted());

        ContainerStore onB = b.container(db, "c"); // loads the container with its unfinished rebuild: resumes it
        assertTrue(onB.isIndexRebuilding());
        onB.awaitIndexRebuild();
        assertNull(meta.get(Keys.indexRebuild(onB.collId())), "finished by the other server");
        assertEquals(100, onB.indexTransformationProgress());
        ContainerStore.IndexCheck check = onB.checkIndexes();
        assertTrue(check.consistent(), check.toString());
        assertEquals((long) PARTITIONS * ITEMS_PER_PARTITION, count(onB, "c.cat IN ('c0','c1','c2','c3')"));

        a = CoreStore.open(StoreConfig.defaults(dirs.resolve("a")), meta, partitions); // the restart sees it done
        assertTrue(!a.container(db, "c").isIndexRebuilding());
        assertTrue(a.container(db, "c").checkIndexes().consistent());
    }
}

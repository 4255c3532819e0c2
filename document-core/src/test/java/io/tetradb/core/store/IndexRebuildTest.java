package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.partition.PhysicalPartition;
import io.tetradb.core.storage.Space;
import io.tetradb.document.CosmosBatch;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.CosmosContainerResponse;
import io.tetradb.document.CosmosException;
import io.tetradb.document.CosmosPatchOperations;
import io.tetradb.document.IndexingMode;
import io.tetradb.document.IndexingPolicy;
import io.tetradb.document.PartitionKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Changing a container's indexing policy: the new policy is visible at once, a background job rebuilds the entries
 * chunk by chunk (a small chunk size gives dozens of chunks), and writes, reads and queries stay correct meanwhile.
 * "Mid-rebuild" states are reached through the job's chunk hook, never by timing.
 */
class IndexRebuildTest {
    static final ObjectMapper M = new ObjectMapper();
    static final int ITEMS = 3000;
    /** 20 partitions with many items each, and 30 with one item (so chunks cross partition boundaries). */
    static final int BIG_PARTITIONS = 20;
    static final int SOLO_PARTITIONS = 30;

    static final List<String> QUERIES = List.of(
            "SELECT * FROM c WHERE c.category = 'cat3'",
            "SELECT * FROM c WHERE c.price >= 10 AND c.price < 20",
            "SELECT * FROM c WHERE c.name = 'n7'",
            "SELECT * FROM c WHERE c.nested.level BETWEEN 2 AND 3");

    static ObjectNode item(int n, String pk) {
        ObjectNode o = M.createObjectNode().put("id", "i" + n).put("pk", pk).put("category", "cat" + n % 10)
                .put("price", n % 100).put("name", "n" + n % 50);
        if (n % 3 == 0) {
            o.putObject("nested").put("level", n % 5);
        }
        return o;
    }

    /** Only two paths: what the rebuild tests change the default policy to. */
    static IndexingPolicy narrow() {
        return new IndexingPolicy().setIncludedPaths(List.of("/category/?", "/price/?")).setExcludedPaths(List.of("/*"));
    }

    static CosmosClient open(Path dir) {
        return new CosmosClientBuilder().dataDirectory(dir).buildClient();
    }

    /** Creates db/c with ITEMS items (in batches) and returns the container. */
    static CosmosContainer load(CosmosClient client) {
        client.createDatabase("db");
        client.getDatabase("db").createContainer("c", "/pk");
        CosmosContainer c = client.getDatabase("db").getContainer("c");
        Map<String, List<ObjectNode>> byPartition = new LinkedHashMap<>();
        for (int n = 0; n < ITEMS; n++) {
            String pk = n < SOLO_PARTITIONS ? "solo" + n : "p" + n % BIG_PARTITIONS;
            byPartition.computeIfAbsent(pk, k -> new ArrayList<>()).add(item(n, pk));
        }
        for (Map.Entry<String, List<ObjectNode>> e : byPartition.entrySet()) {
            List<ObjectNode> items = e.getValue();
            for (int from = 0; from < items.size(); from += 100) {
                CosmosBatch b = CosmosBatch.createCosmosBatch(new PartitionKey(e.getKey()));
                items.subList(from, Math.min(items.size(), from + 100)).forEach(b::createItemOperation);
                assertTrue(c.executeCosmosBatch(b).isSuccessStatusCode());
            }
        }
        return c;
    }

    static Map<String, List<String>> runQueries(CosmosContainer c) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String q : QUERIES) {
            out.put(q, c.queryItems(q, null, ObjectNode.class).stream().map(n -> n.get("pk").asText() + "/"
                    + n.get("id").asText()).sorted().toList());
        }
        return out;
    }

    /** Pauses the job after its {@code at}-th chunk until {@link #resume} is counted down (or the job is stopped). */
    static final class PauseAt implements IndexRebuild.ChunkHook {
        final int at;
        final AtomicInteger chunks = new AtomicInteger();
        final CountDownLatch paused = new CountDownLatch(1);
        final CountDownLatch resume = new CountDownLatch(1);

        PauseAt(int at) {
            this.at = at;
        }

        @Override
        public void afterChunk(ContainerStore container) throws InterruptedException {
            if (chunks.incrementAndGet() == at) {
                paused.countDown();
                resume.await();
            }
        }
    }

    static Map<String, String> snapshot(CoreStore store, Space space, int collId) {
        Map<String, String> out = new LinkedHashMap<>();
        store.engine().scan(space, Keys.collId(collId), Keys.collId(collId + 1), kv -> {
            out.put(java.util.HexFormat.of().formatHex(kv.key()), java.util.HexFormat.of().formatHex(kv.value()));
            return true;
        });
        return out;
    }

    /** The logical bytes the items call for: key + value + their entries under the current policy. */
    static long expectedBytes(CoreStore store, ContainerStore c) {
        long[] total = {0};
        store.engine().scan(Space.DOCS, Keys.collId(c.collId()), Keys.collId(c.collId() + 1), kv -> {
            ObjectNode item = store.codec().parse(kv.value());
            total[0] += kv.key().length + kv.value().length + ContainerStore.bytes(c.indexEntries(kv.key(), item,
                    item.path("_ts").asLong(), c.indexingState().current()));
            return true;
        });
        return total[0];
    }

    static long storedBytes(ContainerStore c) {
        return c.partitionMap().partitions().stream().mapToLong(PhysicalPartition::bytes).sum();
    }

    @Test
    void replaceShowsTheNewPolicyAtOnceAndTheRebuildFinishesWithoutTouchingItems(@TempDir Path dir) throws Exception {
        try (CosmosClient client = open(dir)) {
            client.coreStore().rebuildChunkItems = 50;
            CosmosContainer c = load(client);
            ContainerStore cs = client.coreStore().container("db", "c");
            assertEquals(100, c.read().getIndexTransformationProgress());
            Map<String, List<String>> before = runQueries(c);
            Map<String, String> docs = snapshot(client.coreStore(), Space.DOCS, cs.collId());
            Map<String, String> feed = snapshot(client.coreStore(), Space.FEED, cs.collId());
            long entriesBefore = cs.checkIndexes().stored();
            long bytesBefore = storedBytes(cs);
            AtomicInteger chunks = new AtomicInteger();
            client.coreStore().rebuildHook = x -> chunks.incrementAndGet();

            CosmosContainerProperties props = c.read().getProperties().setIndexingPolicy(narrow());
            CosmosContainerResponse replaced = c.replace(props, new io.tetradb.document.CosmosContainerRequestOptions());
            assertEquals(200, replaced.getStatusCode());
            assertEquals(List.of("/category/?", "/price/?"), replaced.getProperties().getIndexingPolicy().getIncludedPaths());
            assertEquals(List.of("/category/?", "/price/?"), c.read().getProperties().getIndexingPolicy().getIncludedPaths());
            cs.awaitIndexRebuild();

            assertTrue(chunks.get() >= ITEMS / 50, "chunks: " + chunks.get());
            assertEquals(100, c.read().getIndexTransformationProgress());
            assertFalse(cs.isIndexRebuilding());
            ContainerStore.IndexCheck check = cs.checkIndexes();
            assertTrue(check.consistent(), check.toString());
            // id, _ts, category, price per item
            assertEquals(4L * ITEMS, check.stored());
            assertTrue(check.stored() < entriesBefore);
            assertEquals(docs, snapshot(client.coreStore(), Space.DOCS, cs.collId()), "items, _ts, _etag, lsn unchanged");
            assertEquals(feed, snapshot(client.coreStore(), Space.FEED, cs.collId()), "no change-feed record");
            assertEquals(expectedBytes(client.coreStore(), cs), storedBytes(cs));
            assertTrue(storedBytes(cs) < bytesBefore);
            assertEquals(before, runQueries(c));
            assertNull(client.coreStore().engine().get(Space.META, Keys.indexRebuild(cs.collId())));
        }
        try (CosmosClient client = open(dir)) {
            ContainerStore cs = client.coreStore().container("db", "c");
            assertFalse(cs.isIndexRebuilding());
            assertEquals(expectedBytes(client.coreStore(), cs), storedBytes(cs), "persisted sizes");
            assertEquals(List.of("/category/?", "/price/?"),
                    client.getDatabase("db").getContainer("c").read().getProperties().getIndexingPolicy().getIncludedPaths());
        }
    }

    private static void assertNull(Object o) {
        org.junit.jupiter.api.Assertions.assertNull(o);
    }

    @Test
    void queriesAndProgressMidRebuild(@TempDir Path dir) throws Exception {
        try (CosmosClient client = open(dir)) {
            client.coreStore().rebuildChunkItems = 50;
            CosmosContainer c = load(client);
            ContainerStore cs = client.coreStore().container("db", "c");
            Map<String, List<String>> before = runQueries(c);
            assertTrue(before.values().stream().allMatch(r -> !r.isEmpty()));
            PauseAt hook = new PauseAt(20);
            client.coreStore().rebuildHook = hook;

            c.replace(c.read().getProperties().setIndexingPolicy(narrow()));
            hook.paused.await();
            CosmosContainerResponse mid = c.read();
            assertTrue(mid.getIndexTransformationProgress() > 0 && mid.getIndexTransformationProgress() < 100,
                    "progress " + mid.getIndexTransformationProgress());
            assertEquals(List.of("/category/?", "/price/?"), mid.getProperties().getIndexingPolicy().getIncludedPaths());
            assertTrue(cs.isIndexRebuilding());
            // entries follow two policies: seeks only where both index (price, category), not on name (old only)
            assertTrue(cs.seekablePolicy().indexes(List.of("price")));
            assertFalse(cs.seekablePolicy().indexes(List.of("name")), "only the previous policy indexes name");
            String seek = c.queryItems("SELECT * FROM c WHERE c.price = 7", null, ObjectNode.class)
                    .iterableByPage(null, 100).iterator().next().getAccessPath();
            assertTrue(seek.startsWith("index seek on /price"), seek);
            // half old, half new entries: each item has exactly those of the policy its key follows
            assertTrue(cs.checkIndexes().consistent(), cs.checkIndexes().toString());
            assertEquals(before, runQueries(c));

            hook.resume.countDown();
            cs.awaitIndexRebuild();
            assertEquals(100, c.read().getIndexTransformationProgress());
            assertTrue(cs.seekablePolicy().indexes(List.of("price")));
            assertFalse(cs.seekablePolicy().indexes(List.of("name")));
            assertEquals(before, runQueries(c));
            assertTrue(cs.checkIndexes().consistent());

            // and back: mid-rebuild the new policy indexes /name, but only the converted items have its entries
            PauseAt back = new PauseAt(20);
            client.coreStore().rebuildHook = back;
            c.replace(c.read().getProperties().setIndexingPolicy(new IndexingPolicy()));
            back.paused.await();
            assertFalse(cs.seekablePolicy().indexes(List.of("name")), "only the new policy indexes name");
            assertTrue(cs.seekablePolicy().indexes(List.of("price")));
            assertTrue(cs.checkIndexes().consistent());
            assertEquals(before, runQueries(c));
            back.resume.countDown();
            cs.awaitIndexRebuild();
            assertEquals(before, runQueries(c));
            assertTrue(cs.checkIndexes().consistent());
        }
    }

    @Test
    void concurrentWritersDuringRebuildKeepIndexesAndSizesExact(@TempDir Path dir) throws Exception {
        try (CosmosClient client = open(dir)) {
            client.coreStore().rebuildChunkItems = 40;
            CosmosContainer c = load(client);
            ContainerStore cs = client.coreStore().container("db", "c");
            // each writer owns its partitions, so the expected state is exact
            Map<String, Integer> expected = new ConcurrentHashMap<>(); // "pk/id" → version (absent: deleted)
            for (int n = 0; n < ITEMS; n++) {
                expected.put((n < SOLO_PARTITIONS ? "solo" + n : "p" + n % BIG_PARTITIONS) + "/i" + n, -1);
            }
            int writers = 4;
            int opsPerWriter = 300;
            AtomicLong ops = new AtomicLong();
            AtomicBoolean writersDone = new AtomicBoolean();
            // interleave deterministically: after each chunk the job waits until the writers made some progress
            client.coreStore().rebuildHook = x -> {
                long target = ops.get() + 15;
                while (ops.get() < target && !writersDone.get()) {
                    Thread.sleep(1);
                }
            };
            c.replace(c.read().getProperties().setIndexingPolicy(narrow()));
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int w = 0; w < writers; w++) {
                int writer = w;
                Thread t = new Thread(() -> {
                    Random r = new Random(writer * 7919L);
                    try {
                        for (int i = 0; i < opsPerWriter; i++) {
                            // partitions p{writer}, p{writer+4}, ... plus a new one per writer
                            int part = writer + writers * r.nextInt(BIG_PARTITIONS / writers);
                            String pk = r.nextInt(10) == 0 ? "new" + writer : "p" + part;
                            int n = r.nextInt(ITEMS + 200);
                            String key = pk + "/i" + n;
                            ObjectNode it = item(n, pk).put("v", i).put("price", r.nextInt(100));
                            try {
                                switch (r.nextInt(5)) {
                                    case 0 -> {
                                        c.createItem(it);
                                        expected.put(key, i);
                                    }
                                    case 1 -> {
                                        c.upsertItem(it);
                                        expected.put(key, i);
                                    }
                                    case 2 -> {
                                        c.replaceItem(it, "i" + n, new PartitionKey(pk), null);
                                        expected.put(key, i);
                                    }
                                    case 3 -> {
                                        c.deleteItem("i" + n, new PartitionKey(pk), null);
                                        expected.remove(key);
                                    }
                                    default -> {
                                        c.patchItem("i" + n, new PartitionKey(pk), CosmosPatchOperations.create()
                                                .set("/v", i).set("/category", "patched"), ObjectNode.class);
                                        expected.put(key, i);
                                    }
                                }
                            } catch (CosmosException e) {
                                if (e.getStatusCode() != 404 && e.getStatusCode() != 409) {
                                    throw e;
                                }
                            }
                            ops.incrementAndGet();
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                });
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join();
            }
            writersDone.set(true);
            cs.awaitIndexRebuild();
            assertEquals(List.of(), failures);
            assertEquals(100, c.read().getIndexTransformationProgress());
            ContainerStore.IndexCheck check = cs.checkIndexes();
            assertTrue(check.consistent(), check.toString());
            assertEquals(expectedBytes(client.coreStore(), cs), storedBytes(cs), "sizes include exactly the entries");
            for (Map.Entry<String, Integer> e : expected.entrySet()) {
                String[] k = e.getKey().split("/");
                ObjectNode got = c.readItem(k[1], new PartitionKey(k[0]), ObjectNode.class).getItem();
                assertEquals((int) e.getValue(), got.path("v").asInt(-1), e.getKey());
            }
            long count = c.queryItems("SELECT VALUE COUNT(1) FROM c", null, Long.class).stream().findFirst().orElseThrow();
            assertEquals(expected.size(), count);
            // an indexed query after the rebuild agrees with a scan
            List<String> indexed = c.queryItems("SELECT * FROM c WHERE c.category = 'patched'", null, ObjectNode.class)
                    .stream().map(n -> n.get("id").asText()).sorted().toList();
            List<String> scanned = c.queryItems("SELECT * FROM c WHERE CONCAT(c.category, '') = 'patched'", null,
                    ObjectNode.class).stream().map(n -> n.get("id").asText()).sorted().toList();
            assertEquals(scanned, indexed);
        }
        try (CosmosClient client = open(dir)) {
            ContainerStore cs = client.coreStore().container("db", "c");
            assertTrue(cs.checkIndexes().consistent());
            assertEquals(expectedBytes(client.coreStore(), cs), storedBytes(cs), "persisted sizes");
        }
    }

    @Test
    void closingMidRebuildResumesAtTheNextOpen(@TempDir Path dir) throws Exception {
        Map<String, List<String>> before;
        int collId;
        try (CosmosClient client = open(dir)) {
            client.coreStore().rebuildChunkItems = 50;
            CosmosContainer c = load(client);
            before = runQueries(c);
            collId = client.coreStore().container("db", "c").collId();
            PauseAt hook = new PauseAt(10);
            client.coreStore().rebuildHook = hook;
            c.replace(c.read().getProperties().setIndexingPolicy(narrow()));
            hook.paused.await();
            RebuildRecord rec = RebuildRecord.decode(
                    client.coreStore().engine().get(Space.META, Keys.indexRebuild(collId)));
            assertNotNull(rec.cursor());
            assertTrue(rec.converted() > 0 && rec.converted() < ITEMS, "converted " + rec.converted());
            assertEquals("c", rec.container());
            // close stops the paused job (interrupt) without waiting for the rest
        }
        try (CosmosClient client = open(dir)) {
            ContainerStore cs = client.coreStore().container("db", "c");
            cs.awaitIndexRebuild();
            assertFalse(cs.isIndexRebuilding());
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            assertEquals(100, c.read().getIndexTransformationProgress());
            assertTrue(cs.checkIndexes().consistent(), cs.checkIndexes().toString());
            assertEquals(4L * ITEMS, cs.checkIndexes().stored());
            assertEquals(expectedBytes(client.coreStore(), cs), storedBytes(cs));
            assertEquals(before, runQueries(c));
        }
    }

    @Test
    void indexingModeNoneAndBack(@TempDir Path dir) throws Exception {
        try (CosmosClient client = open(dir)) {
            client.coreStore().rebuildChunkItems = 200;
            CosmosContainer c = load(client);
            ContainerStore cs = client.coreStore().container("db", "c");
            Map<String, List<String>> before = runQueries(c);
            long all = cs.checkIndexes().stored();

            c.replace(c.read().getProperties().setIndexingPolicy(new IndexingPolicy()
                    .setIndexingMode(IndexingMode.NONE).setAutomatic(false)
                    .setIncludedPaths(List.of()).setExcludedPaths(List.of())));
            cs.awaitIndexRebuild();
            assertEquals(IndexingMode.NONE, c.read().getProperties().getIndexingPolicy().getIndexingMode());
            ContainerStore.IndexCheck none = cs.checkIndexes();
            assertTrue(none.consistent(), none.toString());
            assertEquals(0, none.stored());
            assertEquals(expectedBytes(client.coreStore(), cs), storedBytes(cs));
            assertEquals(before, runQueries(c));

            c.replace(c.read().getProperties().setIndexingPolicy(new IndexingPolicy()));
            cs.awaitIndexRebuild();
            ContainerStore.IndexCheck back = cs.checkIndexes();
            assertTrue(back.consistent(), back.toString());
            assertEquals(all, back.stored());
            assertEquals(expectedBytes(client.coreStore(), cs), storedBytes(cs));
            assertEquals(before, runQueries(c));
        }
    }

    @Test
    void aSecondReplaceWaitsForTheRunningRebuild(@TempDir Path dir) throws Exception {
        try (CosmosClient client = open(dir)) {
            client.coreStore().rebuildChunkItems = 100;
            CosmosContainer c = load(client);
            ContainerStore cs = client.coreStore().container("db", "c");
            c.replace(c.read().getProperties().setIndexingPolicy(narrow()));
            c.replace(c.read().getProperties().setIndexingPolicy(new IndexingPolicy()
                    .setIncludedPaths(List.of("/name/?")).setExcludedPaths(List.of("/*"))));
            cs.awaitIndexRebuild();
            assertEquals(List.of("/name/?"), c.read().getProperties().getIndexingPolicy().getIncludedPaths());
            ContainerStore.IndexCheck check = cs.checkIndexes();
            assertTrue(check.consistent(), check.toString());
            assertEquals(3L * ITEMS, check.stored()); // id, _ts, name
        }
    }

    @Test
    void deletingTheContainerStopsItsRebuild(@TempDir Path dir) throws Exception {
        try (CosmosClient client = open(dir)) {
            client.coreStore().rebuildChunkItems = 50;
            CosmosContainer c = load(client);
            ContainerStore cs = client.coreStore().container("db", "c");
            PauseAt hook = new PauseAt(3);
            client.coreStore().rebuildHook = hook;
            c.replace(c.read().getProperties().setIndexingPolicy(narrow()));
            hook.paused.await();
            IndexRebuild job = cs.indexRebuild();
            c.delete();
            assertFalse(job.isAlive());
            assertNull(client.coreStore().engine().get(Space.META, Keys.indexRebuild(cs.collId())));
            long[] left = {0};
            client.coreStore().engine().scan(Space.INDEX, Keys.collId(cs.collId()), Keys.collId(cs.collId() + 1),
                    kv -> ++left[0] > 0);
            assertEquals(0, left[0]);
            client.getDatabase("db").createContainer("c", "/pk");
            assertEquals(100, c.read().getIndexTransformationProgress());
        }
    }

    @Test
    void onlyTheIndexingPolicyMayChange(@TempDir Path dir) {
        try (CosmosClient client = open(dir)) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer("c", "/pk");
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            CosmosException pk = assertThrows(CosmosException.class,
                    () -> c.replace(new CosmosContainerProperties("c", "/other").setIndexingPolicy(narrow())));
            assertEquals(400, pk.getStatusCode());
            CosmosException id = assertThrows(CosmosException.class,
                    () -> c.replace(new CosmosContainerProperties("d", "/pk").setIndexingPolicy(narrow())));
            assertEquals(400, id.getStatusCode());
            CosmosException invalid = assertThrows(CosmosException.class, () -> c.replace(
                    new CosmosContainerProperties("c", "/pk").setIndexingPolicy(new IndexingPolicy()
                            .setIncludedPaths(List.of("/a/?")).setExcludedPaths(List.of()))));
            assertEquals(400, invalid.getStatusCode());
            assertEquals(List.of("/*"), c.read().getProperties().getIndexingPolicy().getIncludedPaths());
            CosmosException missing = assertThrows(CosmosException.class, () -> client.getDatabase("db")
                    .getContainer("nope").replace(new CosmosContainerProperties("nope", "/pk")));
            assertEquals(404, missing.getStatusCode());
            // the same policy again: nothing to rebuild
            c.replace(c.read().getProperties());
            assertEquals(100, c.read().getIndexTransformationProgress());
        }
    }
}

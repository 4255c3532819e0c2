package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.index.CompositeIndex;
import io.tetradb.core.storage.Space;
import io.tetradb.core.value.IndexKeyEncoding;
import io.tetradb.core.value.ValueOrder;
import io.tetradb.document.CompositePath;
import io.tetradb.document.CompositePathSortOrder;
import io.tetradb.document.CosmosBatch;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.CosmosException;
import io.tetradb.document.CosmosItemResponse;
import io.tetradb.document.CosmosPatchOperations;
import io.tetradb.document.IndexingMode;
import io.tetradb.document.IndexingPolicy;
import io.tetradb.document.PartitionKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Composite index entries: one per item and composite, kept exact by every kind of write, in the right order. */
class CompositeIndexMaintenanceTest {
    static final ObjectMapper M = new ObjectMapper();

    static CompositePath path(String path, CompositePathSortOrder order) {
        return new CompositePath().setPath(path).setOrder(order);
    }

    /** (/s ASC, /n DESC) and (/o/deep ASC, /tags ASC, /_ts DESC), beside the default single paths. */
    static IndexingPolicy compositePolicy() {
        return new IndexingPolicy().setCompositeIndexes(List.of(
                List.of(path("/s", CompositePathSortOrder.ASCENDING), path("/n", CompositePathSortOrder.DESCENDING)),
                List.of(path("/o/deep", CompositePathSortOrder.ASCENDING), new CompositePath().setPath("/tags"),
                        path("/_ts", CompositePathSortOrder.DESCENDING))));
    }

    /** One decoded composite entry: its values and the id of the item it points to. */
    record Entry(List<JsonNode> values, String id) {
        /** Values compare in ValueOrder (a decoded 1 may be another node class than the written 1). */
        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Entry e) || !id.equals(e.id) || values.size() != e.values.size()) {
                return false;
            }
            for (int i = 0; i < values.size(); i++) {
                if (ValueOrder.typeRank(values.get(i)) != ValueOrder.typeRank(e.values.get(i))
                        || ValueOrder.compareValues(values.get(i), e.values.get(i)) != 0) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public int hashCode() {
            return id.hashCode();
        }
    }

    /** The entries of one composite index, in key order, decoded component by component. */
    static List<Entry> entries(CosmosClient client, String container, CompositeIndex index) {
        ContainerStore store = client.coreStore().container("db", container);
        Integer pathId = new PathDictionary(client.coreStore().metadata(), store.collId()).find(index.name());
        List<Entry> out = new ArrayList<>();
        if (pathId == null) {
            return out;
        }
        byte[] prefix = Keys.concat(Keys.collId(store.collId()), Keys.collId(pathId));
        int epkBytes = 16 * store.definition().partitionKey().levels();
        client.coreStore().engine().scan(Space.INDEX, prefix, Keys.prefixEnd(prefix), kv -> {
            byte[] key = kv.key();
            List<JsonNode> values = new ArrayList<>();
            int off = prefix.length;
            for (int i = 0; i < index.size(); i++) {
                int end = IndexKeyEncoding.skip(key, off, index.descending(i));
                values.add(IndexKeyEncoding.decode(key, off, end - off, index.descending(i)));
                off = end;
            }
            // then EPK · pk · id, exactly as after a single-path entry's value
            int pkStart = off + epkBytes;
            int idStart = pkStart + io.tetradb.core.partition.PartitionKeyValue.encodedLength(key, pkStart,
                    store.definition().partitionKey().levels());
            out.add(new Entry(values, ContainerStore.text(Arrays.copyOfRange(key, idStart, key.length))));
            return true;
        });
        return out;
    }

    static CompositeIndex composite(CosmosClient client, String container, int i) {
        return io.tetradb.core.index.CompiledIndexingPolicy.of(
                client.coreStore().container("db", container).definition().indexingPolicy()).composites().get(i);
    }

    static CosmosClient open(Path dir) {
        return new CosmosClientBuilder().dataDirectory(dir).buildClient();
    }

    @Test
    void policyRoundTripsThroughCreateReadAndReopen(@TempDir Path dir) {
        try (CosmosClient client = open(dir)) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer(new CosmosContainerProperties("c", "/pk")
                    .setIndexingPolicy(compositePolicy()));
            IndexingPolicy read = client.getDatabase("db").getContainer("c").read().getProperties().getIndexingPolicy();
            assertEquals(compositePolicy().getCompositeIndexes(), read.getCompositeIndexes());
            assertEquals(CompositePathSortOrder.ASCENDING, read.getCompositeIndexes().get(1).get(1).getOrder(),
                    "an order left unset is ascending");
            assertEquals("descending", CompositePathSortOrder.DESCENDING.toString());
            JsonNode stored = client.coreStore().container("db", "c").definition().indexingPolicy();
            assertEquals(M.createObjectNode().put("path", "/n").put("order", "descending"),
                    stored.get("compositeIndexes").get(0).get(1), "Cosmos' JSON shape");
            assertEquals(List.of(), new IndexingPolicy().getCompositeIndexes());
        }
        try (CosmosClient client = open(dir)) {
            IndexingPolicy read = client.getDatabase("db").getContainer("c").read().getProperties().getIndexingPolicy();
            assertEquals(compositePolicy().getCompositeIndexes(), read.getCompositeIndexes());
            assertEquals(compositePolicy().getCompositeIndexes(), client.getDatabase("db").readAllContainers().get(0)
                    .getIndexingPolicy().getCompositeIndexes());
        }
    }

    @Test
    void invalidCompositesAreRefusedAtCreation(@TempDir Path dir) {
        try (CosmosClient client = open(dir)) {
            client.createDatabase("db");
            List<List<List<CompositePath>>> bad = List.of(
                    List.of(List.of(path("/a", null))),                                          // one path
                    List.of(List.of(path("/a", null), path("/a", CompositePathSortOrder.DESCENDING))), // twice
                    List.of(List.of(path("/a/?", null), path("/b", null))),                      // /? suffix
                    List.of(List.of(path("/a", null), path("/*", null))),                        // wildcard
                    List.of(List.of(path("/tags/[]", null), path("/b", null))),                  // array elements
                    List.of(List.of(path(null, null), path("/b", null))));                       // no path
            for (List<List<CompositePath>> composites : bad) {
                CosmosException e = assertThrows(CosmosException.class, () -> client.getDatabase("db").createContainer(
                        new CosmosContainerProperties("c", "/pk").setIndexingPolicy(
                                new IndexingPolicy().setCompositeIndexes(composites))), composites.toString());
                assertEquals(400, e.getStatusCode(), e.getMessage());
            }
            List<CompositePath> nine = new ArrayList<>();
            for (int i = 0; i < 9; i++) {
                nine.add(path("/p" + i, null));
            }
            assertEquals(400, assertThrows(CosmosException.class, () -> client.getDatabase("db").createContainer(
                    new CosmosContainerProperties("c", "/pk").setIndexingPolicy(
                            new IndexingPolicy().setCompositeIndexes(List.of(nine))))).getStatusCode());
            assertEquals(0, client.getDatabase("db").readAllContainers().size(), "nothing was created");
            client.getDatabase("db").createContainer(new CosmosContainerProperties("c", "/pk").setIndexingPolicy(
                    new IndexingPolicy().setCompositeIndexes(List.of(nine.subList(0, 8)))));
        }
    }

    @Test
    void everyKindOfWriteKeepsExactlyOneEntryPerItem(@TempDir Path dir) {
        try (CosmosClient client = open(dir)) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer(new CosmosContainerProperties("c", "/pk")
                    .setIndexingPolicy(compositePolicy()));
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            CompositeIndex sn = composite(client, "c", 0);
            assertEquals("composite(/s ASC,/n DESC)", sn.name());

            c.createItem(M.createObjectNode().put("id", "a").put("pk", "p").put("s", "x").put("n", 1));
            assertEquals(List.of(new Entry(List.of(text("x"), num(1)), "a")), entries(client, "c", sn));

            c.createItem(M.createObjectNode().put("id", "b").put("pk", "p")); // no values: undefined components
            assertEquals(List.of(new Entry(List.of(undefined(), undefined()), "b"),
                    new Entry(List.of(text("x"), num(1)), "a")), entries(client, "c", sn));

            c.replaceItem(M.createObjectNode().put("id", "a").put("pk", "p").put("s", "x").put("n", 5), "a",
                    new PartitionKey("p"), null);
            assertEquals(new Entry(List.of(text("x"), num(5)), "a"), entries(client, "c", sn).get(1));

            c.upsertItem(M.createObjectNode().put("id", "b").put("pk", "p").put("s", "w"));
            c.upsertItem(M.createObjectNode().put("id", "d").put("pk", "q").put("s", "x").put("n", 9));
            assertEquals(List.of(new Entry(List.of(text("w"), undefined()), "b"),
                    new Entry(List.of(text("x"), num(9)), "d"), new Entry(List.of(text("x"), num(5)), "a")),
                    entries(client, "c", sn), "/s ascending, then /n descending");

            c.patchItem("a", new PartitionKey("p"), CosmosPatchOperations.create().increment("/n", 10), ObjectNode.class);
            assertEquals(new Entry(List.of(text("x"), num(15)), "a"), entries(client, "c", sn).get(1));

            CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey("p"));
            batch.patchItemOperation("b", CosmosPatchOperations.create().set("/n", 2));
            batch.deleteItemOperation("a");
            batch.createItemOperation(M.createObjectNode().put("id", "e").put("pk", "p").put("s", "v"));
            assertTrue(c.executeCosmosBatch(batch).isSuccessStatusCode());
            assertEquals(List.of(new Entry(List.of(text("v"), undefined()), "e"),
                    new Entry(List.of(text("w"), num(2)), "b"), new Entry(List.of(text("x"), num(9)), "d")),
                    entries(client, "c", sn));

            // a failing batch leaves every entry as it was
            CosmosBatch failing = CosmosBatch.createCosmosBatch(new PartitionKey("p"));
            failing.upsertItemOperation(M.createObjectNode().put("id", "e").put("pk", "p").put("s", "zzz"));
            failing.createItemOperation(M.createObjectNode().put("id", "b").put("pk", "p"));
            assertTrue(!c.executeCosmosBatch(failing).isSuccessStatusCode());
            assertEquals(3, entries(client, "c", sn).size());
            assertEquals("v", entries(client, "c", sn).get(0).values().get(0).textValue());

            c.deleteItem("b", new PartitionKey("p"), null);
            c.deleteItem("d", new PartitionKey("q"), null);
            c.deleteItem("e", new PartitionKey("p"), null);
            assertEquals(List.of(), entries(client, "c", sn));
            assertEquals(List.of(), entries(client, "c", composite(client, "c", 1)));
            ContainerStore.IndexCheck check = client.coreStore().container("db", "c").checkIndexes();
            assertTrue(check.consistent() && check.stored() == 0, check.toString());
        }
    }

    @Test
    void compositeEntriesAreChargedSizedAndIndependentOfIncludedPaths(@TempDir Path dir) {
        try (CosmosClient client = open(dir)) {
            client.createDatabase("db");
            // only /x is indexed as a single path; composites still hold every item
            IndexingPolicy narrow = new IndexingPolicy().setIncludedPaths(List.of("/x/?")).setExcludedPaths(List.of("/*"));
            client.getDatabase("db").createContainer(new CosmosContainerProperties("plain", "/pk")
                    .setIndexingPolicy(narrow));
            client.getDatabase("db").createContainer(new CosmosContainerProperties("comp", "/pk")
                    .setIndexingPolicy(new IndexingPolicy().setIncludedPaths(List.of("/x/?")).setExcludedPaths(List.of("/*"))
                            .setCompositeIndexes(compositePolicy().getCompositeIndexes())));
            client.getDatabase("db").createContainer(new CosmosContainerProperties("off", "/pk")
                    .setIndexingPolicy(new IndexingPolicy().setIndexingMode(IndexingMode.NONE).setAutomatic(false)
                            .setIncludedPaths(List.of()).setExcludedPaths(List.of())
                            .setCompositeIndexes(compositePolicy().getCompositeIndexes())));
            ObjectNode item = M.createObjectNode().put("id", "i").put("pk", "p").put("x", 1).put("s", "a");
            CosmosItemResponse<ObjectNode> plain = client.getDatabase("db").getContainer("plain").createItem(item);
            CosmosItemResponse<ObjectNode> comp = client.getDatabase("db").getContainer("comp").createItem(item);
            client.getDatabase("db").getContainer("off").createItem(item);
            assertEquals(0.20, comp.getRequestCharge() - plain.getRequestCharge(), 1e-9, "two composite entries, 0.1 RU each");
            ContainerStore compStore = client.coreStore().container("db", "comp");
            assertEquals(3 + 2, compStore.checkIndexes().stored(), "id, _ts, x and one entry per composite");
            assertTrue(compStore.checkIndexes().consistent());
            assertEquals(0, client.coreStore().container("db", "off").checkIndexes().stored());
            long plainBytes = client.coreStore().container("db", "plain").partitionMap().partitions().get(0).bytes();
            long compBytes = compStore.partitionMap().partitions().get(0).bytes();
            assertTrue(compBytes > plainBytes, "logical sizes count composite entries: " + compBytes + " vs " + plainBytes);
            double delete = client.getDatabase("db").getContainer("comp").deleteItem("i", new PartitionKey("p"), null)
                    .getRequestCharge();
            double deletePlain = client.getDatabase("db").getContainer("plain").deleteItem("i", new PartitionKey("p"), null)
                    .getRequestCharge();
            assertEquals(0.20, delete - deletePlain, 1e-9, "two composite entries removed, 0.1 RU each");
            assertEquals(0, compStore.partitionMap().partitions().get(0).bytes());
        }
    }

    @Test
    void randomWritesKeepCompositeIndexesExact(@TempDir Path dir) {
        long seed = new Random().nextLong();
        Random r = new Random(seed);
        try (CosmosClient client = open(dir)) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer(new CosmosContainerProperties("c", "/pk")
                    .setIndexingPolicy(compositePolicy()));
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            for (int i = 0; i < 1000; i++) {
                String pk = "p" + r.nextInt(4);
                String id = "i" + r.nextInt(40);
                try {
                    switch (r.nextInt(7)) {
                        case 0 -> c.createItem(IndexMaintenanceTest.randomItem(r, id, pk));
                        case 1, 2 -> c.upsertItem(IndexMaintenanceTest.randomItem(r, id, pk));
                        case 3 -> c.replaceItem(IndexMaintenanceTest.randomItem(r, id, pk), id, new PartitionKey(pk), null);
                        case 4 -> c.deleteItem(id, new PartitionKey(pk), null);
                        case 5 -> c.patchItem(id, new PartitionKey(pk), CosmosPatchOperations.create()
                                .set("/s", "patched" + r.nextInt(3)).add("/tags/-", "pt").increment("/n", 1),
                                ObjectNode.class);
                        default -> {
                            CosmosBatch b = CosmosBatch.createCosmosBatch(new PartitionKey(pk));
                            b.upsertItemOperation(IndexMaintenanceTest.randomItem(r, id, pk));
                            b.patchItemOperation(id, CosmosPatchOperations.create().remove("/tags"));
                            b.upsertItemOperation(IndexMaintenanceTest.randomItem(r, "j" + r.nextInt(5), pk));
                            if (r.nextBoolean()) {
                                b.deleteItemOperation(id);
                            }
                            c.executeCosmosBatch(b);
                        }
                    }
                } catch (CosmosException expected) {
                    // 404/409 for random operations on absent or existing items: nothing was applied
                }
                if (i % 200 == 0) {
                    try { // read back with system properties (a stale _ts among them) and written again
                        ObjectNode back = c.readItem(id, new PartitionKey(pk), ObjectNode.class).getItem();
                        c.upsertItem(back.put("_ts", 1).put("s", "again"));
                    } catch (CosmosException absent) {
                        // deleted meanwhile
                    }
                }
            }
            ContainerStore store = client.coreStore().container("db", "c");
            ContainerStore.IndexCheck check = store.checkIndexes();
            assertTrue(check.consistent(), check + " (seed " + seed + ")");
            long[] items = {0};
            store.scan(io.tetradb.core.partition.EpkRange.FULL, b -> ++items[0] > 0);
            for (int i = 0; i < 2; i++) {
                CompositeIndex index = composite(client, "c", i);
                List<Entry> entries = entries(client, "c", index);
                assertEquals(items[0], entries.size(), "one entry per item in " + index + " (seed " + seed + ")");
                assertSorted(index, entries, seed);
            }
        }
        try (CosmosClient client = open(dir)) {
            ContainerStore.IndexCheck check = client.coreStore().container("db", "c").checkIndexes();
            assertTrue(check.consistent(), "after reopen: " + check + " (seed " + seed + ")");
        }
    }

    /** Entries come in the composite's order: lexicographic ValueOrder, each component in its own direction. */
    static void assertSorted(CompositeIndex index, List<Entry> entries, long seed) {
        for (int e = 1; e < entries.size(); e++) {
            List<JsonNode> a = entries.get(e - 1).values();
            List<JsonNode> b = entries.get(e).values();
            int c = 0;
            for (int i = 0; i < index.size() && c == 0; i++) {
                c = ValueOrder.compareValues(a.get(i), b.get(i)) * (index.descending(i) ? -1 : 1);
            }
            assertTrue(c <= 0, a + " before " + b + " in " + index + " (seed " + seed + ")");
        }
    }

    static JsonNode text(String s) {
        return M.getNodeFactory().textNode(s);
    }

    static JsonNode num(int n) {
        return M.getNodeFactory().numberNode(n);
    }

    static JsonNode undefined() {
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }
}

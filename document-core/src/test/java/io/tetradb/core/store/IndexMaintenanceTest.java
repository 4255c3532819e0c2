package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.storage.Space;
import io.tetradb.document.CosmosBatch;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.CosmosException;
import io.tetradb.document.CosmosPatchOperations;
import io.tetradb.document.IndexingMode;
import io.tetradb.document.IndexingPolicy;
import io.tetradb.document.PartitionKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Index entries always equal what the stored items call for, whatever sequence of writes produced them. */
class IndexMaintenanceTest {
    static final ObjectMapper M = new ObjectMapper();

    static ObjectNode randomItem(Random r, String id, String pk) {
        ObjectNode n = M.createObjectNode().put("id", id).put("pk", pk);
        if (r.nextBoolean()) {
            n.put("n", r.nextInt(20));
        }
        if (r.nextBoolean()) {
            n.put("s", "v" + r.nextInt(10));
        }
        if (r.nextInt(4) == 0) {
            n.put("long", "x".repeat(300 + r.nextInt(50)));
        }
        ArrayNode tags = n.putArray("tags");
        for (int i = r.nextInt(4); i > 0; i--) {
            tags.add("t" + r.nextInt(5));
        }
        ArrayNode links = n.putArray("links");
        for (int i = r.nextInt(3); i > 0; i--) {
            links.addObject().put("target", "L" + r.nextInt(6)).put("w", r.nextDouble());
        }
        if (r.nextBoolean()) {
            n.putObject("o").put("deep", r.nextBoolean()).putNull("nothing");
        }
        return n;
    }

    @Test
    void randomWritesKeepIndexesExact(@TempDir Path dir) {
        long seed = new Random().nextLong();
        Random r = new Random(seed);
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer("c", "/pk");
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            for (int i = 0; i < 1500; i++) {
                String pk = "p" + r.nextInt(5);
                String id = "i" + r.nextInt(60);
                try {
                    switch (r.nextInt(7)) {
                        case 0 -> c.createItem(randomItem(r, id, pk));
                        case 1, 2 -> c.upsertItem(randomItem(r, id, pk));
                        case 3 -> c.replaceItem(randomItem(r, id, pk), id, new PartitionKey(pk), null);
                        case 4 -> c.deleteItem(id, new PartitionKey(pk), null);
                        case 5 -> c.patchItem(id, new PartitionKey(pk), CosmosPatchOperations.create()
                                .set("/s", "patched" + r.nextInt(3)).add("/tags/-", "pt").increment("/n", 1),
                                ObjectNode.class);
                        default -> {
                            CosmosBatch b = CosmosBatch.createCosmosBatch(new PartitionKey(pk));
                            b.upsertItemOperation(randomItem(r, id, pk));
                            b.patchItemOperation(id, CosmosPatchOperations.create().remove("/tags"));
                            b.upsertItemOperation(randomItem(r, "j" + r.nextInt(5), pk));
                            if (r.nextBoolean()) {
                                b.deleteItemOperation(id);
                            }
                            if (r.nextInt(3) == 0) {
                                b.createItemOperation(randomItem(r, "j" + r.nextInt(5), pk)); // may fail: 409
                            }
                            c.executeCosmosBatch(b);
                        }
                    }
                } catch (CosmosException expected) {
                    // 404/409/400 for random operations on absent or existing items: nothing was applied
                }
                if (i % 250 == 0) {
                    // an item read back (with its system properties) and written again is indexed by its new version
                    try {
                        ObjectNode back = c.readItem(id, new PartitionKey(pk), ObjectNode.class).getItem();
                        c.upsertItem(back.put("s", "again"));
                    } catch (CosmosException absent) {
                        // deleted meanwhile
                    }
                }
            }
            ContainerStore.IndexCheck check = client.coreStore().container("db", "c").checkIndexes();
            assertTrue(check.consistent(), check + " (seed " + seed + ")");
            assertTrue(check.stored() > 100, check.toString());
        }
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            ContainerStore.IndexCheck check = client.coreStore().container("db", "c").checkIndexes();
            assertTrue(check.consistent(), "after reopen: " + check + " (seed " + seed + ")");
        }
    }

    @Test
    void policiesDecideWhatIsIndexedAndDeletingAContainerRemovesItsEntries(@TempDir Path dir) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer(new CosmosContainerProperties("none", "/pk")
                    .setIndexingPolicy(new IndexingPolicy().setIndexingMode(IndexingMode.NONE).setAutomatic(false)
                            .setIncludedPaths(List.of()).setExcludedPaths(List.of())));
            client.getDatabase("db").createContainer(new CosmosContainerProperties("some", "/pk")
                    .setIndexingPolicy(new IndexingPolicy().setIncludedPaths(List.of("/links/[]/target/?"))
                            .setExcludedPaths(List.of("/*"))));
            ObjectNode item = randomItem(new Random(1), "x", "p");
            item.putArray("links").addObject().put("target", "L1").put("w", 1);
            client.getDatabase("db").getContainer("none").createItem(item);
            client.getDatabase("db").getContainer("some").createItem(item);
            ContainerStore none = client.coreStore().container("db", "none");
            ContainerStore some = client.coreStore().container("db", "some");
            assertEquals(0, none.checkIndexes().stored());
            // id, _ts (always) and the one included path
            assertEquals(3, some.checkIndexes().stored());
            assertTrue(some.checkIndexes().consistent());
            int collId = some.collId();
            client.getDatabase("db").getContainer("some").delete();
            long[] left = {0};
            client.coreStore().engine().scan(Space.INDEX, Keys.collId(collId), Keys.collId(collId + 1), kv -> {
                left[0]++;
                return true;
            });
            assertEquals(0, left[0]);
        }
    }

    /** Values whose JSON reads back as another node type still leave exactly the right entries on replace. */
    @Test
    void floatsDecimalsBinaryAndPojosAreIndexedAsTheyReadBack(@TempDir Path dir) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer("c", "/pk");
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            ObjectNode item = M.createObjectNode().put("id", "x").put("pk", "p").put("f", 1.1f)
                    .put("d", new java.math.BigDecimal("0.1000000000000000055511151231257827"))
                    .put("b", new byte[]{1, 2, 3}).put("big", new java.math.BigInteger("123456789012345678901234567890"));
            item.putPOJO("pojo", java.util.Map.of("k", 1.5f));
            c.createItem(item);
            c.upsertItem(M.createObjectNode().put("id", "x").put("pk", "p").put("f", 2));
            ContainerStore.IndexCheck check = client.coreStore().container("db", "c").checkIndexes();
            assertTrue(check.consistent(), check.toString());
            assertEquals(4, check.stored(), "id, pk, f, _ts");
        }
    }
}

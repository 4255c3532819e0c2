package io.tetradb.document;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.store.PartitionStatistics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every limit gets its Cosmos status code, and a refused write leaves stored data as it was. */
class LimitsAndErrorsTest {
    static final ObjectMapper M = new ObjectMapper();
    @TempDir
    Path dir;
    CosmosClient client;
    CosmosContainer c;

    @BeforeEach
    void open() {
        client = new CosmosClientBuilder().dataDirectory(dir).logicalPartitionLimitBytes(64 * 1024).buildClient();
        client.createDatabase("db");
        client.getDatabase("db").createContainer("c", "/pk");
        c = client.getDatabase("db").getContainer("c");
        c.createItem(M.createObjectNode().put("id", "keep").put("pk", "p").put("v", 1));
    }

    @AfterEach
    void close() {
        // whatever failed above, the first item is intact
        assertEquals(1, c.readItem("keep", new PartitionKey("p"), ObjectNode.class).getItem().get("v").asInt());
        client.close();
    }

    private int status(Runnable r) {
        return assertThrows(CosmosException.class, r::run).getStatusCode();
    }

    @Test
    void itemOverTwoMegabytesIs413() {
        ObjectNode big = M.createObjectNode().put("id", "big").put("pk", "q").put("blob", "x".repeat(2 * 1024 * 1024));
        CosmosClient roomy = client; // logical limit is 64 KB but the size check comes first
        assertEquals(413, status(() -> roomy.getDatabase("db").getContainer("c").createItem(big)));
    }

    @Test
    void itemJustUnderTwoMegabytesIsAcceptedWhenThePartitionHasRoom(@TempDir Path other) {
        try (CosmosClient big = new CosmosClientBuilder().dataDirectory(other).buildClient()) {
            big.createDatabase("db");
            big.getDatabase("db").createContainer("c", "/pk");
            ObjectNode item = M.createObjectNode().put("id", "big").put("pk", "q").put("blob", "x".repeat(2 * 1024 * 1024 - 400));
            assertEquals(201, big.getDatabase("db").getContainer("c").createItem(item).getStatusCode());
        }
    }

    @Test
    void containerWithItsOwnItemLimitStoresLargerItemsAndKeepsTheLimitAcrossRestarts(@TempDir Path other) {
        int limit = 24 * 1024 * 1024;
        ObjectNode item = M.createObjectNode().put("id", "big").put("pk", "q").put("blob", "y".repeat(20_000_000));
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(other).buildClient()) {
            store.createDatabase("db");
            CosmosContainerProperties props = new CosmosContainerProperties("large", "/pk").setMaxItemBytes(limit);
            assertEquals(limit, store.getDatabase("db").createContainer(props).getProperties().getMaxItemBytes());
            store.getDatabase("db").createContainer("plain", "/pk");
            CosmosContainer large = store.getDatabase("db").getContainer("large");
            assertEquals(201, large.createItem(item).getStatusCode());
            // a batch of that one item is over the store's 2 MB batch limit but within one item of the container
            ObjectNode again = item.deepCopy().put("id", "big2");
            CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey("q"));
            batch.createItemOperation(again);
            assertTrue(large.executeCosmosBatch(batch).isSuccessStatusCode());
            // over the container's own limit: 413; the plain container keeps the store's 2 MB
            ObjectNode huge = M.createObjectNode().put("id", "huge").put("pk", "q").put("blob", "z".repeat(limit));
            assertEquals(413, assertThrows(CosmosException.class, () -> large.createItem(huge)).getStatusCode());
            assertEquals(413, assertThrows(CosmosException.class,
                    () -> store.getDatabase("db").getContainer("plain").createItem(item)).getStatusCode());
            assertEquals(null, store.getDatabase("db").getContainer("plain").read().getProperties().getMaxItemBytes());
            // a limit outside [1 KiB, 256 MiB] is refused
            assertEquals(400, assertThrows(CosmosException.class, () -> store.getDatabase("db").createContainer(
                    new CosmosContainerProperties("tiny", "/pk").setMaxItemBytes(100))).getStatusCode());
        }
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(other).buildClient()) {
            CosmosContainer large = store.getDatabase("db").getContainer("large");
            assertEquals(limit, large.read().getProperties().getMaxItemBytes());
            assertEquals(20_000_000, large.readItem("big2", new PartitionKey("q"), ObjectNode.class)
                    .getItem().get("blob").asText().length());
            ObjectNode bigger = item.deepCopy().put("blob", "w".repeat(22_000_000));
            assertEquals(200, large.replaceItem(bigger, "big", new PartitionKey("q"), null).getStatusCode());
        }
    }

    @Test
    void idRules() {
        assertEquals(400, status(() -> c.createItem(M.createObjectNode().put("id", "x".repeat(256)).put("pk", "p"))));
        assertEquals(201, c.createItem(M.createObjectNode().put("id", "x".repeat(255)).put("pk", "p")).getStatusCode());
        for (String bad : new String[]{"a/b", "a\\b", "a?b", "a#b", "", "a\uD800", "a\uDC00b", "\uDBFF",
                "a\uDC00\uD800"}) {
            assertEquals(400, status(() -> c.createItem(M.createObjectNode().put("id", bad).put("pk", "p"))), bad);
        }
        // a surrogate pair is a character like any other
        assertEquals(201, c.createItem(M.createObjectNode().put("id", "smile\uD83D\uDE00").put("pk", "p"))
                .getStatusCode());
        assertEquals(400, status(() -> c.upsertItem(M.createObjectNode().put("id", "smile\uD83D").put("pk", "p"))),
                "an unpaired surrogate would have shared a key with other such ids");
        assertEquals(400, status(() -> c.createItem(M.createObjectNode().put("id", "k1").put("pk", "p\uDC00"))),
                "nor a partition key value");
        assertEquals(400, status(() -> c.createItem(M.createObjectNode().put("pk", "p"))), "missing id");
        assertEquals(400, status(() -> c.createItem(M.createObjectNode().put("id", 5).put("pk", "p"))), "numeric id");
    }

    @Test
    void nestingDepth() {
        assertEquals(201, c.createItem(nested("ok", 127)).getStatusCode());
        assertEquals(400, status(() -> c.createItem(nested("deep", 128))));
    }

    /** An item whose root object holds {@code levels} nested objects: depth levels + 1. */
    private static ObjectNode nested(String id, int levels) {
        ObjectNode root = M.createObjectNode().put("id", id).put("pk", "p");
        ObjectNode n = root;
        for (int i = 0; i < levels; i++) {
            n = n.putObject("n");
        }
        return root;
    }

    @Test
    void duplicateMissingAndMismatch() {
        assertEquals(409, status(() -> c.createItem(M.createObjectNode().put("id", "keep").put("pk", "p").put("v", 2))));
        assertEquals(404, status(() -> c.readItem("nope", new PartitionKey("p"), ObjectNode.class)));
        assertEquals(404, status(() -> c.deleteItem("nope", new PartitionKey("p"), null)));
        assertEquals(404, status(() -> c.replaceItem(M.createObjectNode().put("id", "nope").put("pk", "p"), "nope",
                new PartitionKey("p"), null)));
        assertEquals(400, status(() -> c.createItem(M.createObjectNode().put("id", "m").put("pk", "p"),
                new PartitionKey("other"), null)), "partition key of the request differs from the item's");
        assertEquals(400, status(() -> c.replaceItem(M.createObjectNode().put("id", "other").put("pk", "p"), "keep",
                new PartitionKey("p"), null)), "replace cannot change the id");
        assertEquals(400, status(() -> c.createItem(M.createObjectNode().put("id", "o").set("pk",
                M.createObjectNode().put("a", 1)))), "object partition key value");
        assertEquals(404, status(() -> client.getDatabase("db").getContainer("missing").createItem(
                M.createObjectNode().put("id", "x").put("pk", "p"))));
        assertEquals(404, status(() -> client.getDatabase("nodb").read()));
        assertEquals(409, status(() -> client.createDatabase("db")));
        assertEquals(409, status(() -> client.getDatabase("db").createContainer("c", "/pk")));
        assertEquals(400, status(() -> client.getDatabase("db").createContainer("bad", "pk")), "path without /");
        CosmosContainerProperties badPolicy = new CosmosContainerProperties("badpolicy", "/pk")
                .setIndexingPolicy(new IndexingPolicy().setIncludedPaths(java.util.List.of("/a/?"))
                        .setExcludedPaths(java.util.List.of()));
        assertEquals(400, status(() -> client.getDatabase("db").createContainer(badPolicy)), "policy without /*");
    }

    @Test
    void logicalPartitionLimitIs403NamingThePartitionKey() {
        String filler = "y".repeat(10_000);
        int created = 0;
        CosmosException e = null;
        for (int i = 0; i < 20 && e == null; i++) {
            try {
                c.createItem(M.createObjectNode().put("id", "f" + i).put("pk", "hot").put("f", filler));
                created++;
            } catch (CosmosException ex) {
                e = ex;
            }
        }
        assertTrue(e != null, "the 64 KB logical partition must fill up");
        assertEquals(403, e.getStatusCode());
        assertEquals(1014, e.getSubStatusCode());
        assertTrue(e.getMessage().contains("\"hot\""), e.getMessage());
        assertTrue(created >= 5 && created <= 6, "created " + created);
        // other logical partitions still take writes, and the full one still takes deletes and smaller rewrites
        c.createItem(M.createObjectNode().put("id", "cold1").put("pk", "cold").put("f", filler));
        c.deleteItem("f0", new PartitionKey("hot"), null);
        c.createItem(M.createObjectNode().put("id", "again").put("pk", "hot").put("f", filler));
        PartitionStatistics stats = c.readPartitionStatistics();
        PartitionStatistics.Logical hot = stats.physicalPartitions().get(0).largestLogicalPartitions().get(0);
        assertEquals("[\"hot\"]", hot.partitionKey().toString());
        assertTrue(hot.nearLimit());
    }

    @Test
    void badPatchChangesNothing() {
        assertEquals(400, status(() -> c.patchItem("keep", new PartitionKey("p"),
                CosmosPatchOperations.create().set("/v", 99).remove("/absent"), ObjectNode.class)));
        assertEquals(400, status(() -> c.patchItem("keep", new PartitionKey("p"),
                CosmosPatchOperations.create().set("/pk", "moved"), ObjectNode.class)), "partition key path");
        assertEquals(400, status(() -> c.patchItem("keep", new PartitionKey("p"),
                CosmosPatchOperations.create().set("/id", "x"), ObjectNode.class)), "id");
        assertEquals(404, status(() -> c.patchItem("nope", new PartitionKey("p"),
                CosmosPatchOperations.create().set("/v", 1), ObjectNode.class)));
    }
}

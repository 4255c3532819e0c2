package io.tetradb.document;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Transactional batch: all or nothing, the failing operation's own status, 424 for the rest. */
class BatchTest {
    static final ObjectMapper M = new ObjectMapper();
    @TempDir
    Path dir;
    CosmosClient client;
    CosmosContainer c;
    final PartitionKey pk = new PartitionKey("t1");

    @BeforeEach
    void open() {
        client = new CosmosClientBuilder().dataDirectory(dir).buildClient();
        client.createDatabase("db");
        client.getDatabase("db").createContainer("c", "/tenant");
        c = client.getDatabase("db").getContainer("c");
        c.createItem(item("existing", 1));
    }

    @AfterEach
    void close() {
        client.close();
    }

    static ObjectNode item(String id, int v) {
        return M.createObjectNode().put("id", id).put("tenant", "t1").put("v", v);
    }

    @Test
    void successfulBatchAppliesEverythingAndSeesItsOwnWrites() {
        CosmosBatch b = CosmosBatch.createCosmosBatch(pk);
        b.createItemOperation(item("n1", 1));
        b.readItemOperation("n1");
        b.patchItemOperation("n1", CosmosPatchOperations.create().increment("/v", 10));
        b.upsertItemOperation(item("existing", 2));
        b.replaceItemOperation("n1", item("n1", 42));
        b.deleteItemOperation("existing");
        b.createItemOperation(item("existing", 3));
        CosmosBatchResponse r = c.executeCosmosBatch(b);
        assertTrue(r.isSuccessStatusCode(), r.getErrorMessage());
        assertEquals(200, r.getStatusCode());
        assertEquals(7, r.size());
        int[] expected = {201, 200, 200, 200, 200, 204, 201};
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], r.getResults().get(i).getStatusCode(), "operation " + i);
        }
        assertEquals(1, r.getResults().get(1).getItem(ObjectNode.class).get("v").asInt());
        assertEquals(11, r.getResults().get(2).getItem(ObjectNode.class).get("v").asInt());
        assertEquals(42, c.readItem("n1", pk, ObjectNode.class).getItem().get("v").asInt());
        assertEquals(3, c.readItem("existing", pk, ObjectNode.class).getItem().get("v").asInt());
        assertTrue(r.getRequestCharge() > 0);
    }

    @Test
    void failingOperationKeepsItsStatusAndNothingIsApplied() {
        CosmosBatch b = CosmosBatch.createCosmosBatch(pk);
        b.createItemOperation(item("n1", 1));
        b.upsertItemOperation(item("existing", 99));
        b.createItemOperation(item("existing", 5)); // 409
        b.createItemOperation(item("n2", 1));
        CosmosBatchResponse r = c.executeCosmosBatch(b);
        assertFalse(r.isSuccessStatusCode());
        assertEquals(409, r.getStatusCode());
        assertEquals(424, r.getResults().get(0).getStatusCode());
        assertEquals(424, r.getResults().get(1).getStatusCode());
        assertEquals(409, r.getResults().get(2).getStatusCode());
        assertEquals(424, r.getResults().get(3).getStatusCode());
        assertEquals(404, assertThrows(CosmosException.class, () -> c.readItem("n1", pk, ObjectNode.class)).getStatusCode());
        assertEquals(1, c.readItem("existing", pk, ObjectNode.class).getItem().get("v").asInt());
    }

    @Test
    void staleEtagFailsTheBatchWith412() {
        String etag = c.readItem("existing", pk, ObjectNode.class).getETag();
        c.upsertItem(item("existing", 2));
        CosmosBatch b = CosmosBatch.createCosmosBatch(pk);
        b.createItemOperation(item("n1", 1));
        b.replaceItemOperation("existing", item("existing", 3), new CosmosBatchItemRequestOptions().setIfMatchETag(etag));
        CosmosBatchResponse r = c.executeCosmosBatch(b);
        assertEquals(412, r.getStatusCode());
        assertEquals(424, r.getResults().get(0).getStatusCode());
    }

    @Test
    void itemOfAnotherPartitionFailsWith400() {
        CosmosBatch b = CosmosBatch.createCosmosBatch(pk);
        b.createItemOperation(item("n1", 1));
        b.createItemOperation(M.createObjectNode().put("id", "x").put("tenant", "t2"));
        CosmosBatchResponse r = c.executeCosmosBatch(b);
        assertEquals(400, r.getResults().get(1).getStatusCode());
        assertEquals(424, r.getResults().get(0).getStatusCode());
    }

    @Test
    void batchRules() {
        CosmosBatch empty = CosmosBatch.createCosmosBatch(pk);
        assertEquals(400, assertThrows(CosmosException.class, () -> c.executeCosmosBatch(empty)).getStatusCode());
        CosmosBatch tooMany = CosmosBatch.createCosmosBatch(pk);
        for (int i = 0; i < 101; i++) {
            tooMany.createItemOperation(item("i" + i, i));
        }
        assertEquals(400, assertThrows(CosmosException.class, () -> c.executeCosmosBatch(tooMany)).getStatusCode());
        CosmosBatch hundred = CosmosBatch.createCosmosBatch(pk);
        for (int i = 0; i < 100; i++) {
            hundred.createItemOperation(item("i" + i, i));
        }
        assertTrue(c.executeCosmosBatch(hundred).isSuccessStatusCode());
        CosmosBatch tooBig = CosmosBatch.createCosmosBatch(pk);
        for (int i = 0; i < 3; i++) {
            tooBig.createItemOperation(item("big" + i, i).put("blob", "z".repeat(800_000)));
        }
        assertEquals(400, assertThrows(CosmosException.class, () -> c.executeCosmosBatch(tooBig)).getStatusCode());
        assertEquals(404, assertThrows(CosmosException.class, () -> c.readItem("big0", pk, ObjectNode.class)).getStatusCode());
    }

    @Test
    void readOfMissingItemFailsTheBatch() {
        CosmosBatch b = CosmosBatch.createCosmosBatch(pk);
        b.createItemOperation(item("n1", 1));
        b.readItemOperation("nope");
        CosmosBatchResponse r = c.executeCosmosBatch(b);
        assertEquals(404, r.getStatusCode());
        assertEquals(404, assertThrows(CosmosException.class, () -> c.readItem("n1", pk, ObjectNode.class)).getStatusCode());
    }
}

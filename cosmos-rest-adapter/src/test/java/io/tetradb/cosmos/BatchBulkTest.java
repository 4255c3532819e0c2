package io.tetradb.cosmos;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosBatch;
import com.azure.cosmos.models.CosmosBatchItemRequestOptions;
import com.azure.cosmos.models.CosmosBatchOperationResult;
import com.azure.cosmos.models.CosmosBatchResponse;
import com.azure.cosmos.models.CosmosBulkExecutionOptions;
import com.azure.cosmos.models.CosmosBulkOperationResponse;
import com.azure.cosmos.models.CosmosBulkOperations;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemOperation;
import com.azure.cosmos.models.CosmosPatchOperations;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Transactional batch (200 / 207 with 424, nothing applied on failure) and the Java SDK's bulk executor. */
class BatchBulkTest extends ServerFixture {
    CosmosContainer c;

    @BeforeAll
    void container() {
        sdk.createDatabaseIfNotExists("batch");
        sdk.getDatabase("batch").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"));
        c = sdk.getDatabase("batch").getContainer("c");
    }

    @Test
    void batchOfEveryOperationSucceedsAtomically() {
        c.createItem(Json.object().put("id", "old").put("pk", "b1").put("n", 1));
        CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey("b1"));
        batch.createItemOperation(Json.object().put("id", "x1").put("pk", "b1").put("n", 10));
        batch.upsertItemOperation(Json.object().put("id", "x2").put("pk", "b1").put("n", 20));
        batch.readItemOperation("old");
        batch.patchItemOperation("old", CosmosPatchOperations.create().increment("/n", 4));
        batch.replaceItemOperation("x1", Json.object().put("id", "x1").put("pk", "b1").put("n", 11));
        batch.deleteItemOperation("x2");
        CosmosBatchResponse r = c.executeCosmosBatch(batch);
        assertTrue(r.isSuccessStatusCode(), r.getErrorMessage());
        assertEquals(200, r.getStatusCode());
        assertEquals(6, r.getResults().size());
        assertEquals(201, r.getResults().get(0).getStatusCode());
        assertEquals(1, r.getResults().get(2).getItem(ObjectNode.class).get("n").asInt());
        assertEquals(204, r.getResults().get(5).getStatusCode());
        assertTrue(r.getRequestCharge() > 0);
        assertEquals(5, c.readItem("old", new PartitionKey("b1"), ObjectNode.class).getItem().get("n").asInt());
        assertEquals(11, c.readItem("x1", new PartitionKey("b1"), ObjectNode.class).getItem().get("n").asInt());
        assertThrows(CosmosException.class, () -> c.readItem("x2", new PartitionKey("b1"), ObjectNode.class));
    }

    @Test
    void aFailedOperationFailsTheBatchAndAppliesNothing() {
        c.createItem(Json.object().put("id", "taken").put("pk", "b2"));
        CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey("b2"));
        batch.createItemOperation(Json.object().put("id", "new1").put("pk", "b2"));
        batch.createItemOperation(Json.object().put("id", "taken").put("pk", "b2"));
        batch.createItemOperation(Json.object().put("id", "new2").put("pk", "b2"));
        CosmosBatchResponse r = c.executeCosmosBatch(batch);
        assertFalse(r.isSuccessStatusCode());
        assertEquals(409, r.getStatusCode(), "the SDK promotes the failed operation's status from 207");
        List<CosmosBatchOperationResult> results = r.getResults();
        assertEquals(424, results.get(0).getStatusCode());
        assertEquals(409, results.get(1).getStatusCode());
        assertEquals(424, results.get(2).getStatusCode());
        assertThrows(CosmosException.class, () -> c.readItem("new1", new PartitionKey("b2"), ObjectNode.class));
        assertThrows(CosmosException.class, () -> c.readItem("new2", new PartitionKey("b2"), ObjectNode.class));
    }

    @Test
    void anEtagConflictInABatchIs412() {
        c.createItem(Json.object().put("id", "e").put("pk", "b3").put("n", 1));
        CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey("b3"));
        batch.createItemOperation(Json.object().put("id", "f").put("pk", "b3"));
        batch.replaceItemOperation("e", Json.object().put("id", "e").put("pk", "b3").put("n", 2),
                new CosmosBatchItemRequestOptions().setIfMatchETag("\"stale\""));
        CosmosBatchResponse r = c.executeCosmosBatch(batch);
        assertEquals(412, r.getStatusCode());
        assertEquals(424, r.getResults().get(0).getStatusCode());
        assertEquals(1, c.readItem("e", new PartitionKey("b3"), ObjectNode.class).getItem().get("n").asInt());
        assertThrows(CosmosException.class, () -> c.readItem("f", new PartitionKey("b3"), ObjectNode.class));
    }

    @Test
    void bulkFromTheJavaSdk() {
        c.createItem(Json.object().put("id", "dup").put("pk", "k3"));
        List<CosmosItemOperation> ops = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            ops.add(CosmosBulkOperations.getCreateItemOperation(
                    Json.object().put("id", "bulk" + i).put("pk", "k" + (i % 10)).put("n", i),
                    new PartitionKey("k" + (i % 10))));
        }
        ops.add(CosmosBulkOperations.getCreateItemOperation(Json.object().put("id", "dup").put("pk", "k3"),
                new PartitionKey("k3")));
        int ok = 0;
        int conflicts = 0;
        for (CosmosBulkOperationResponse<Object> r : c.executeBulkOperations(ops, new CosmosBulkExecutionOptions())) {
            if (r.getResponse() != null && r.getResponse().getStatusCode() == 201) {
                ok++;
            } else if (r.getResponse() != null && r.getResponse().getStatusCode() == 409) {
                conflicts++;
            }
        }
        assertEquals(200, ok);
        assertEquals(1, conflicts);
        assertEquals(List.of(200), c.queryItems("SELECT VALUE COUNT(1) FROM c WHERE STARTSWITH(c.id, 'bulk')", null,
                Integer.class).stream().toList());
    }
}

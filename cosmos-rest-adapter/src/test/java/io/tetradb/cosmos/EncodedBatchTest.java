package io.tetradb.cosmos;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosBatch;
import com.azure.cosmos.models.CosmosBatchResponse;
import com.azure.cosmos.models.CosmosBulkExecutionOptions;
import com.azure.cosmos.models.CosmosBulkOperationResponse;
import com.azure.cosmos.models.CosmosBulkOperations;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemOperation;
import com.azure.cosmos.models.CosmosPatchOperations;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * encoded-writes (issue 17): transactional batch and bulk bodies have their create, upsert and replace items encoded
 * from the JSON tokens (no tree), with the tree path's answers and stored items.
 */
class EncodedBatchTest extends ServerFixture {
    private static final String DOCS = "/dbs/encb/colls/c/docs";
    private static final List<String> SYSTEM = List.of("_rid", "_self", "_etag", "_ts");
    CosmosContainer c;
    RawClient raw;

    @BeforeAll
    void container() {
        sdk.createDatabaseIfNotExists("encb");
        sdk.getDatabase("encb").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"));
        c = sdk.getDatabase("encb").getContainer("c");
        raw = new RawClient(endpoint(), KEY);
    }

    private static ObjectNode item(String id, String pk) {
        ObjectNode o = Json.object().put("id", id).put("pk", pk).put("n", 7).put("big", new BigInteger("123456789012345678901234"))
                .put("x", 1.5).put("neg", -0.0).put("s", "Zoë \uD83D\uDE00").putNull("none").put("t", true);
        o.putObject("nested").put("deep", 3_000_000_000L).putArray("a").add(1).add("two").addObject().put("three", 3);
        return o;
    }

    @Test
    void sdkBatchAndBulkWritesBuildNoTree() {
        c.createItem(Json.object().put("id", "old").put("pk", "s1").put("n", 1));
        long trees = Batches.treeBatches();
        CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey("s1"));
        batch.createItemOperation(item("a", "s1"));
        batch.upsertItemOperation(item("b", "s1"));
        batch.replaceItemOperation("a", item("a", "s1").put("n", 8));
        batch.patchItemOperation("old", CosmosPatchOperations.create().increment("/n", 4));
        CosmosBatchResponse r = c.executeCosmosBatch(batch);
        assertTrue(r.isSuccessStatusCode(), r.getErrorMessage());
        assertEquals(List.of(201, 201, 200, 200), r.getResults().stream().map(x -> x.getStatusCode()).toList());
        assertEquals(withoutSystem(item("a", "s1").put("n", 8)),
                withoutSystem(c.readItem("a", new PartitionKey("s1"), ObjectNode.class).getItem()));
        assertEquals(withoutSystem(item("b", "s1")),
                withoutSystem(c.readItem("b", new PartitionKey("s1"), ObjectNode.class).getItem()));
        assertEquals(5, c.readItem("old", new PartitionKey("s1"), ObjectNode.class).getItem().get("n").asInt());

        List<CosmosItemOperation> ops = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            ops.add(CosmosBulkOperations.getCreateItemOperation(item("k" + i, "bulk" + i % 3), new PartitionKey("bulk" + i % 3)));
        }
        int ok = 0;
        for (CosmosBulkOperationResponse<Object> res : c.executeBulkOperations(ops, new CosmosBulkExecutionOptions())) {
            ok += res.getResponse() != null && res.getResponse().getStatusCode() == 201 ? 1 : 0;
        }
        assertEquals(20, ok);
        assertEquals(withoutSystem(item("k4", "bulk1")),
                withoutSystem(c.readItem("k4", new PartitionKey("bulk1"), ObjectNode.class).getItem()));
        assertEquals(0, Batches.treeBatches() - trees, "a batch or bulk request was read as a tree");
    }

    @Test
    void encodedAndTreeBatchesAnswerAndStoreTheSame() throws Exception {
        // the same operations, once as they are (encoded) and once behind a patch whose body precedes its type
        // (which sends the whole request down the tree path), in partitions of their own
        for (String failing : List.of("none", "conflict", "otherPk", "badTtl", "noId")) {
            JsonNode encoded = batch("e-" + failing, failing, false);
            JsonNode tree = batch("t-" + failing, failing, true);
            assertEquals(tree.size() - 1, encoded.size());
            for (int i = 0; i < encoded.size(); i++) {
                ObjectNode e = normalized(encoded.get(i), "e-" + failing);
                ObjectNode t = normalized(tree.get(i), "t-" + failing);
                assertEquals(t, e, failing + " #" + i);
            }
            for (String id : List.of("a", "b")) {
                JsonNode te = read(id, "t-" + failing);
                JsonNode ee = read(id, "e-" + failing);
                assertEquals(te == null ? null : withoutSystem(((ObjectNode) te).put("pk", "P")),
                        ee == null ? null : withoutSystem(((ObjectNode) ee).put("pk", "P")), failing + " " + id);
            }
        }
    }

    /** An operation's result with its partition's name replaced and what differs per write (etag, charge) left out. */
    private static ObjectNode normalized(JsonNode result, String pk) {
        ObjectNode x = result.deepCopy();
        x.remove("eTag");
        x.remove("requestCharge");
        if (x.has("resourceBody")) {
            x.set("resourceBody", withoutSystem((ObjectNode) x.get("resourceBody")).put("pk", "P"));
        }
        if (x.has("message")) {
            x.put("message", x.get("message").asText().replace(pk, "P"));
        }
        return x;
    }

    @Test
    void whatTheReaderLeavesToTheTreePathIsAnsweredAsBefore() throws Exception {
        Map<String, String> h = Map.of("x-ms-cosmos-is-batch-request", "true", "x-ms-documentdb-partitionkey",
                "[\"r\"]", "Content-Type", "application/json");
        long trees = Batches.treeBatches();
        RawClient.Answer dup = raw.send("POST", DOCS, "[{\"operationType\":\"Create\",\"resourceBody\":"
                + "{\"id\":\"d\",\"pk\":\"r\",\"v\":1,\"v\":2}}]", h);
        assertEquals(200, dup.status(), dup.text());
        assertEquals(2, read("d", "r").get("v").asInt(), "a repeated name keeps the last value, as the tree does");
        RawClient.Answer truncated = raw.send("POST", DOCS, "[{\"operationType\":\"Create\",\"resourceBody\":{", h);
        assertEquals(400, truncated.status());
        assertTrue(truncated.text().contains("The request body is not valid JSON"), truncated.text());
        RawClient.Answer notObjects = raw.send("POST", DOCS, "[1]", h);
        assertEquals(400, notObjects.status());
        assertTrue(notObjects.text().contains("Each batch operation is a JSON object."), notObjects.text());
        assertEquals(3, Batches.treeBatches() - trees);
    }

    private JsonNode read(String id, String pk) {
        try {
            return c.readItem(id, new PartitionKey(pk), ObjectNode.class).getItem();
        } catch (com.azure.cosmos.CosmosException e) {
            assertEquals(404, e.getStatusCode());
            return null;
        }
    }

    /** Posts an atomic batch in partition {@code pk}; {@code treePath}: with a trailing patch that forces the tree. */
    private JsonNode batch(String pk, String failing, boolean treePath) throws Exception {
        c.createItem(Json.object().put("id", "old").put("pk", pk).put("n", 1));
        ArrayNode ops = Json.array();
        ops.addObject().put("operationType", "Create").set("resourceBody", item("a", pk));
        ops.addObject().put("operationType", "Upsert").set("resourceBody", item("b", pk).put("ttl", 100));
        ObjectNode bad = switch (failing) {
            case "conflict" -> item("old", pk);
            case "otherPk" -> item("c", "elsewhere");
            case "badTtl" -> item("c", pk).put("ttl", "soon");
            case "noId" -> (ObjectNode) item("c", pk).without("id");
            default -> item("c", pk);
        };
        ops.addObject().put("operationType", "Create").set("resourceBody", bad);
        ops.addObject().put("operationType", "Replace").put("id", "a").set("resourceBody", item("a", pk).put("n", 9));
        if (treePath) {
            ObjectNode patch = ops.addObject();
            patch.putObject("resourceBody").putArray("operations").addObject().put("op", "incr").put("path", "/n")
                    .put("value", 1);
            patch.put("operationType", "Patch").put("id", "old");
        }
        long trees = Batches.treeBatches();
        RawClient.Answer a = raw.send("POST", DOCS, ops.toString(), Map.of("x-ms-cosmos-is-batch-request", "true",
                "x-ms-documentdb-partitionkey", "[\"" + pk + "\"]", "Content-Type", "application/json"));
        assertEquals(treePath ? 1 : 0, Batches.treeBatches() - trees);
        // a ttl that is not a number is accepted (as before, on either path); the other failures fail the batch
        assertEquals(List.of("conflict", "otherPk", "noId").contains(failing) ? 207 : 200, a.status(), a.text());
        return a.json();
    }

    private static ObjectNode withoutSystem(ObjectNode o) {
        ObjectNode out = o.deepCopy();
        SYSTEM.forEach(out::remove);
        out.remove("_attachments");
        return out;
    }
}

package io.tetradb.cosmos;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosItemResponse;
import com.azure.cosmos.models.CosmosPatchItemRequestOptions;
import com.azure.cosmos.models.CosmosPatchOperations;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Items through the Java SDK: point operations, preconditions, patch, partition key forms, read feed. */
class ItemsTest extends ServerFixture {
    CosmosContainer c;

    @BeforeAll
    void container() {
        sdk.createDatabaseIfNotExists("items");
        sdk.getDatabase("items").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"));
        c = sdk.getDatabase("items").getContainer("c");
    }

    @Test
    void createReadUpsertReplaceDelete() {
        CosmosItemResponse<ObjectNode> created = c.createItem(Json.object().put("id", "a1").put("pk", "p").put("v", 1));
        assertEquals(201, created.getStatusCode());
        assertNotNull(created.getETag());
        assertTrue(created.getRequestCharge() > 0);
        assertNotNull(created.getSessionToken());
        assertNotNull(created.getActivityId());
        assertNull(created.getItem(), "Java asks for no body by default (Prefer: return=minimal)");

        CosmosItemResponse<ObjectNode> read = c.readItem("a1", new PartitionKey("p"), ObjectNode.class);
        assertEquals(1, read.getItem().get("v").asInt());
        assertEquals(created.getETag(), read.getETag());
        assertEquals(created.getETag(), read.getItem().get("_etag").asText());
        assertNotNull(read.getItem().get("_ts"));

        CosmosException dup = assertThrows(CosmosException.class,
                () -> c.createItem(Json.object().put("id", "a1").put("pk", "p")));
        assertEquals(409, dup.getStatusCode());

        CosmosItemRequestOptions withBody = new CosmosItemRequestOptions().setContentResponseOnWriteEnabled(true);
        CosmosItemResponse<ObjectNode> up = c.upsertItem(Json.object().put("id", "a1").put("pk", "p").put("v", 2),
                withBody);
        assertEquals(200, up.getStatusCode());
        assertEquals(2, up.getItem().get("v").asInt());
        assertEquals(201, c.upsertItem(Json.object().put("id", "a2").put("pk", "p")).getStatusCode());

        CosmosItemResponse<ObjectNode> replaced = c.replaceItem(Json.object().put("id", "a1").put("pk", "p")
                .put("v", 3), "a1", new PartitionKey("p"), withBody);
        assertEquals(200, replaced.getStatusCode());
        assertEquals(3, replaced.getItem().get("v").asInt());

        assertEquals(204, c.deleteItem("a1", new PartitionKey("p"), null).getStatusCode());
        CosmosException gone = assertThrows(CosmosException.class,
                () -> c.readItem("a1", new PartitionKey("p"), ObjectNode.class));
        assertEquals(404, gone.getStatusCode());
        assertEquals(0, gone.getSubStatusCode());
        // the same id in another logical partition is another item
        assertThrows(CosmosException.class, () -> c.readItem("a2", new PartitionKey("q"), ObjectNode.class));
    }

    @Test
    void etagPreconditions() {
        String etag = c.createItem(Json.object().put("id", "e1").put("pk", "p").put("v", 1)).getETag();
        CosmosItemRequestOptions stale = new CosmosItemRequestOptions().setIfMatchETag("\"not-the-etag\"");
        CosmosException e = assertThrows(CosmosException.class, () -> c.replaceItem(
                Json.object().put("id", "e1").put("pk", "p").put("v", 9), "e1", new PartitionKey("p"), stale));
        assertEquals(412, e.getStatusCode());
        assertThrows(CosmosException.class, () -> c.deleteItem("e1", new PartitionKey("p"), stale));
        assertEquals(1, c.readItem("e1", new PartitionKey("p"), ObjectNode.class).getItem().get("v").asInt());

        String next = c.replaceItem(Json.object().put("id", "e1").put("pk", "p").put("v", 2), "e1",
                new PartitionKey("p"), new CosmosItemRequestOptions().setIfMatchETag(etag)).getETag();
        assertFalse(next.equals(etag));

        // If-None-Match with the current etag: 304, nothing to send
        CosmosItemRequestOptions unchanged = new CosmosItemRequestOptions().setIfNoneMatchETag(next);
        int status;
        try {
            status = c.readItem("e1", new PartitionKey("p"), unchanged, ObjectNode.class).getStatusCode();
        } catch (CosmosException notModified) {
            status = notModified.getStatusCode();
        }
        assertEquals(304, status);
    }

    @Test
    void patchOperationsAndConditions() {
        c.createItem(Json.object().put("id", "p1").put("pk", "p").put("n", 1).put("old", "x")
                .set("tags", Json.array().add("a")));
        CosmosPatchOperations ops = CosmosPatchOperations.create()
                .set("/name", "alice")
                .increment("/n", 5)
                .add("/tags/-", "b")
                .move("/old", "/renamed")
                .remove("/name");
        CosmosPatchItemRequestOptions returning = new CosmosPatchItemRequestOptions();
        returning.setContentResponseOnWriteEnabled(true);
        CosmosItemResponse<ObjectNode> r = c.patchItem("p1", new PartitionKey("p"), ops, returning, ObjectNode.class);
        assertEquals(200, r.getStatusCode());
        assertEquals(6, r.getItem().get("n").asInt());
        assertEquals("[\"a\",\"b\"]", r.getItem().get("tags").toString());
        assertEquals("x", r.getItem().get("renamed").asText());
        assertFalse(r.getItem().has("old"));

        CosmosPatchItemRequestOptions unmet = new CosmosPatchItemRequestOptions();
        unmet.setFilterPredicate("from c where c.n > 100");
        CosmosException e = assertThrows(CosmosException.class, () -> c.patchItem("p1", new PartitionKey("p"),
                CosmosPatchOperations.create().set("/n", 0), unmet, ObjectNode.class));
        assertEquals(412, e.getStatusCode());
        CosmosPatchItemRequestOptions met = new CosmosPatchItemRequestOptions();
        met.setFilterPredicate("from c where c.n = 6");
        c.patchItem("p1", new PartitionKey("p"), CosmosPatchOperations.create().set("/n", 0), met, ObjectNode.class);
        assertEquals(0, c.readItem("p1", new PartitionKey("p"), ObjectNode.class).getItem().get("n").asInt());
    }

    @Test
    void patchAsABareArrayAsNodeSendsIt() throws Exception {
        c.createItem(Json.object().put("id", "arr").put("pk", "p").put("n", 1));
        RawClient raw = new RawClient(endpoint(), KEY);
        RawClient.Answer a = raw.send("PATCH", "/dbs/items/colls/c/docs/arr",
                "[{\"op\":\"incr\",\"path\":\"/n\",\"value\":2}]",
                Map.of("x-ms-documentdb-partitionkey", "[\"p\"]", "Content-Type", "application/json-patch+json"));
        assertEquals(200, a.status(), a.text());
        assertEquals(3, a.json().get("n").asInt());
        assertNotNull(a.header("etag"));
        assertNotNull(a.header("x-ms-session-token"));
        assertNotNull(a.header("x-ms-request-charge"));
    }

    @Test
    void everyPartitionKeyForm() {
        sdk.getDatabase("items").createContainerIfNotExists(new CosmosContainerProperties("forms", "/k"));
        CosmosContainer f = sdk.getDatabase("items").getContainer("forms");
        f.createItem(Json.object().put("id", "num").put("k", 5));
        f.createItem(Json.object().put("id", "dbl").put("k", 2.5));
        f.createItem(Json.object().put("id", "bool").put("k", true));
        f.createItem(Json.object().put("id", "null").putNull("k"));
        f.createItem(Json.object().put("id", "none"));
        f.createItem(Json.object().put("id", "uni code").put("k", "Grüße, 東京 \"q\""));
        assertEquals("num", f.readItem("num", new PartitionKey(5), ObjectNode.class).getItem().get("id").asText());
        assertEquals("dbl", f.readItem("dbl", new PartitionKey(2.5), ObjectNode.class).getItem().get("id").asText());
        assertEquals("bool", f.readItem("bool", new PartitionKey(true), ObjectNode.class).getItem().get("id")
                .asText());
        assertEquals("null", f.readItem("null", new PartitionKey(null), ObjectNode.class).getItem().get("id")
                .asText());
        assertEquals("none", f.readItem("none", PartitionKey.NONE, ObjectNode.class).getItem().get("id").asText());
        assertEquals("uni code", f.readItem("uni code", new PartitionKey("Grüße, 東京 \"q\""), ObjectNode.class)
                .getItem().get("id").asText());
        // null and undefined are different logical partitions
        assertThrows(CosmosException.class, () -> f.readItem("none", new PartitionKey(null), ObjectNode.class));
        // a key in the header that is not the document's: 400
        CosmosException e = assertThrows(CosmosException.class, () -> f.createItem(
                Json.object().put("id", "x").put("k", "a"), new PartitionKey("b"), new CosmosItemRequestOptions()));
        assertEquals(400, e.getStatusCode());
    }

    @Test
    void deleteAllItemsOfOneLogicalPartition() {
        for (int i = 0; i < 5; i++) {
            c.createItem(Json.object().put("id", "d" + i).put("pk", "gone"));
        }
        c.createItem(Json.object().put("id", "d0").put("pk", "stays"));
        assertEquals(200, c.deleteAllItemsByPartitionKey(new PartitionKey("gone"), null).getStatusCode());
        assertEquals(0, c.readAllItems(new PartitionKey("gone"), ObjectNode.class).stream().count());
        assertEquals(1, c.readAllItems(new PartitionKey("stays"), ObjectNode.class).stream().count());
    }

    @Test
    void readManyAcrossPartitions() {
        for (int i = 0; i < 6; i++) {
            c.upsertItem(Json.object().put("id", "m" + i).put("pk", "mp" + (i % 3)).put("n", i));
        }
        List<com.azure.cosmos.models.CosmosItemIdentity> ids = List.of(
                new com.azure.cosmos.models.CosmosItemIdentity(new PartitionKey("mp0"), "m0"),
                new com.azure.cosmos.models.CosmosItemIdentity(new PartitionKey("mp1"), "m4"),
                new com.azure.cosmos.models.CosmosItemIdentity(new PartitionKey("mp2"), "m2"),
                new com.azure.cosmos.models.CosmosItemIdentity(new PartitionKey("mp2"), "absent"));
        List<String> found = c.readMany(ids, ObjectNode.class).getResults().stream().map(x -> x.get("id").asText())
                .sorted().toList();
        assertEquals(List.of("m0", "m2", "m4"), found);
        // a feed range from the SDK (the one range) scopes a query like the whole container
        var range = c.getFeedRanges().get(0);
        assertEquals(6, c.queryItems("SELECT * FROM c WHERE STARTSWITH(c.id, 'm')",
                new com.azure.cosmos.models.CosmosQueryRequestOptions().setFeedRange(range), ObjectNode.class)
                .stream().count());
        var logical = com.azure.cosmos.models.FeedRange.forLogicalPartition(new PartitionKey("mp1"));
        assertEquals(2, c.queryItems("SELECT * FROM c WHERE STARTSWITH(c.id, 'm')",
                new com.azure.cosmos.models.CosmosQueryRequestOptions().setFeedRange(logical), ObjectNode.class)
                .stream().count());
    }

    @Test
    void readFeedPageByPage() {
        sdk.getDatabase("items").createContainerIfNotExists(new CosmosContainerProperties("feed", "/pk"));
        CosmosContainer f = sdk.getDatabase("items").getContainer("feed");
        for (int i = 0; i < 25; i++) {
            f.createItem(Json.object().put("id", String.format("f%02d", i)).put("pk", i % 2 == 0 ? "even" : "odd"));
        }
        List<String> ids = new ArrayList<>();
        int pages = 0;
        for (FeedResponse<ObjectNode> page : f.readAllItems(new PartitionKey("even"), ObjectNode.class)
                .iterableByPage(5)) {
            pages++;
            assertTrue(page.getResults().size() <= 5);
            page.getResults().forEach(x -> ids.add(x.get("id").asText()));
        }
        assertEquals(13, ids.size());
        assertTrue(pages >= 3, "pages " + pages);
        assertEquals(25, f.queryItems("SELECT * FROM c", null, ObjectNode.class).stream().count());
    }
}

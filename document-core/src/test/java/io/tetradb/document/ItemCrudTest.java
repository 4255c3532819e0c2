package io.tetradb.document;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ItemCrudTest {
    static final ObjectMapper M = new ObjectMapper();
    @TempDir
    Path dir;
    CosmosClient client;
    CosmosContainer container;

    @BeforeEach
    void open() {
        client = new CosmosClientBuilder().dataDirectory(dir).buildClient();
        client.createDatabaseIfNotExists("db");
        client.getDatabase("db").createContainerIfNotExists(new CosmosContainerProperties("devices", "/deviceId"));
        container = client.getDatabase("db").getContainer("devices");
    }

    @AfterEach
    void close() {
        client.close();
    }

    static ObjectNode item(String id, String deviceId) {
        return M.createObjectNode().put("id", id).put("deviceId", deviceId).put("temp", 21.5);
    }

    @Test
    void createReadReplaceDelete() {
        CosmosItemResponse<ObjectNode> created = container.createItem(item("a", "d1"));
        assertEquals(201, created.getStatusCode());
        assertNull(created.getItem(), "no content on write by default, as azure-cosmos");
        assertTrue(created.getRequestCharge() >= 5);

        CosmosItemResponse<ObjectNode> read = container.readItem("a", new PartitionKey("d1"), ObjectNode.class);
        assertEquals(200, read.getStatusCode());
        assertEquals(1.0, read.getRequestCharge());
        ObjectNode doc = read.getItem();
        assertEquals("d1", doc.get("deviceId").asText());
        assertEquals(21.5, doc.get("temp").asDouble());
        for (String p : new String[]{"_rid", "_self", "_etag", "_ts"}) {
            assertNotNull(doc.get(p), p);
        }
        assertEquals(read.getETag(), doc.get("_etag").asText());

        doc.put("temp", 30);
        CosmosItemResponse<ObjectNode> replaced = container.replaceItem(doc, "a", new PartitionKey("d1"),
                new CosmosItemRequestOptions().setContentResponseOnWriteEnabled(true));
        assertEquals(200, replaced.getStatusCode());
        assertEquals(30, replaced.getItem().get("temp").asInt());
        assertNotEquals(read.getETag(), replaced.getETag());

        CosmosException stale = assertThrows(CosmosException.class, () -> container.replaceItem(doc, "a",
                new PartitionKey("d1"), new CosmosItemRequestOptions().setIfMatchETag(read.getETag())));
        assertEquals(412, stale.getStatusCode());

        CosmosItemResponse<ObjectNode> notModified = container.readItem("a", new PartitionKey("d1"),
                new CosmosItemRequestOptions().setIfNoneMatchETag(replaced.getETag()), ObjectNode.class);
        assertEquals(304, notModified.getStatusCode());
        assertNull(notModified.getItem());

        assertEquals(409, assertThrows(CosmosException.class, () -> container.createItem(item("a", "d1"))).getStatusCode());
        // the same id in another logical partition is another item
        assertEquals(201, container.createItem(item("a", "d2")).getStatusCode());

        assertEquals(204, container.deleteItem("a", new PartitionKey("d1"), null).getStatusCode());
        assertEquals(404, assertThrows(CosmosException.class,
                () -> container.readItem("a", new PartitionKey("d1"), ObjectNode.class)).getStatusCode());
        assertEquals("d2", container.readItem("a", new PartitionKey("d2"), ObjectNode.class).getItem()
                .get("deviceId").asText());
    }

    @Test
    void upsertCreatesThenReplaces() {
        assertEquals(201, container.upsertItem(item("u", "d1")).getStatusCode());
        assertEquals(200, container.upsertItem(item("u", "d1").put("temp", 1)).getStatusCode());
        assertEquals(1, container.readItem("u", new PartitionKey("d1"), ObjectNode.class).getItem().get("temp").asInt());
    }
}

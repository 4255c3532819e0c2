package io.tetradb.document;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Cosmos patch semantics, operation by operation. */
class PatchTest {
    static final ObjectMapper M = new ObjectMapper();
    @TempDir
    Path dir;
    CosmosClient client;
    CosmosContainer c;
    final PartitionKey pk = new PartitionKey("p");

    @BeforeEach
    void open() throws Exception {
        client = new CosmosClientBuilder().dataDirectory(dir).buildClient();
        client.createDatabase("db");
        client.getDatabase("db").createContainer("c", "/pk");
        c = client.getDatabase("db").getContainer("c");
        c.createItem(M.readTree("{\"id\":\"1\",\"pk\":\"p\",\"n\":1,\"f\":1.5,\"tags\":[\"a\",\"b\"],"
                + "\"address\":{\"city\":\"Seattle\"}}"));
    }

    @AfterEach
    void close() {
        client.close();
    }

    private ObjectNode patch(CosmosPatchOperations ops) {
        CosmosItemResponse<ObjectNode> r = c.patchItem("1", pk, ops, ObjectNode.class);
        assertEquals(200, r.getStatusCode());
        return c.readItem("1", pk, ObjectNode.class).getItem();
    }

    @Test
    void addSetReplaceRemove() {
        ObjectNode doc = patch(CosmosPatchOperations.create()
                .add("/tags/1", "inserted")
                .add("/tags/-", "last")
                .set("/address/zip", 98101)
                .replace("/address/city", "Redmond")
                .remove("/f")
                .add("/extra", Map.of("k", List.of(1, 2))));
        assertEquals("[\"a\",\"inserted\",\"b\",\"last\"]", doc.get("tags").toString());
        assertEquals("{\"city\":\"Redmond\",\"zip\":98101}", doc.get("address").toString());
        assertEquals(null, doc.get("f"));
        assertEquals("{\"k\":[1,2]}", doc.get("extra").toString());
    }

    @Test
    void setOverwritesArrayElementsWhileAddInserts() {
        ObjectNode doc = patch(CosmosPatchOperations.create().set("/tags/0", "z"));
        assertEquals("[\"z\",\"b\"]", doc.get("tags").toString());
    }

    @Test
    void incrementKeepsIntegersIntegral() {
        ObjectNode doc = patch(CosmosPatchOperations.create().increment("/n", 5).increment("/f", 1.0)
                .increment("/fresh", 3));
        assertEquals(6, doc.get("n").asLong());
        assertEquals(true, doc.get("n").isIntegralNumber());
        assertEquals(2.5, doc.get("f").asDouble());
        assertEquals(3, doc.get("fresh").asLong());
    }

    @Test
    void moveRemovesTheSource() {
        ObjectNode doc = patch(CosmosPatchOperations.create().move("/address/city", "/city"));
        assertEquals("Seattle", doc.get("city").asText());
        assertEquals("{}", doc.get("address").toString());
    }

    @Test
    void invalidOperationsFailAtomically() {
        List<java.util.function.UnaryOperator<CosmosPatchOperations>> bad = List.of(
                ops -> ops.replace("/missing", 1),
                ops -> ops.increment("/tags", 1),
                ops -> ops.add("/nope/deeper", 1),
                ops -> ops.add("/tags/7", "x"),
                ops -> ops.move("/address", "/address/inner"),
                ops -> ops.set("/_etag", "x"));
        for (var b : bad) {
            // a valid operation first, then the bad one: neither may be applied
            CosmosPatchOperations ops = b.apply(CosmosPatchOperations.create().set("/n", 100));
            CosmosException e = assertThrows(CosmosException.class, () -> c.patchItem("1", pk, ops, ObjectNode.class));
            assertEquals(400, e.getStatusCode());
        }
        ObjectNode doc = c.readItem("1", pk, ObjectNode.class).getItem();
        assertEquals(1, doc.get("n").asInt());
        assertEquals("[\"a\",\"b\"]", doc.get("tags").toString());
    }

    @Test
    void patchHonoursIfMatch() {
        String etag = c.readItem("1", pk, ObjectNode.class).getETag();
        c.patchItem("1", pk, CosmosPatchOperations.create().set("/n", 2), ObjectNode.class);
        CosmosPatchItemRequestOptions stale = new CosmosPatchItemRequestOptions();
        stale.setIfMatchETag(etag);
        assertEquals(412, assertThrows(CosmosException.class, () -> c.patchItem("1", pk,
                CosmosPatchOperations.create().set("/n", 3), stale, ObjectNode.class)).getStatusCode());
        assertEquals(2, c.readItem("1", pk, ObjectNode.class).getItem().get("n").asInt());
    }
}

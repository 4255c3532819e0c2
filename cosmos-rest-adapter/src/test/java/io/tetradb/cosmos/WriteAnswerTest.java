package io.tetradb.cosmos;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A write's answer is the item as stored, exactly what a read of it returns, whether the face echoes the body it was
 * sent (with the stored system properties) or decodes the stored item: whitespace, number spellings, nested values,
 * and the bodies that must not be echoed (duplicate names, the caller's own system properties, integers beyond 64
 * bits, {@code \\u} escapes including an unpaired surrogate).
 */
class WriteAnswerTest extends ServerFixture {
    static final String DOCS = "/dbs/answers/colls/c/docs";
    CosmosContainer c;
    RawClient raw;

    @BeforeAll
    void container() {
        sdk.createDatabaseIfNotExists("answers");
        sdk.getDatabase("answers").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"));
        c = sdk.getDatabase("answers").getContainer("c");
        raw = new RawClient(endpoint(), KEY);
    }

    /** Creates {@code body} (id {@code id}), upserts it again, replaces it: each answer equals the read that follows. */
    private void assertAnswersAreStored(String id, String body, boolean echoed) throws Exception {
        Map<String, String> pk = Map.of("x-ms-documentdb-partitionkey", "[\"p\"]");
        RawClient.Answer created = raw.send("POST", DOCS, body, pk);
        assertEquals(201, created.status(), created.text());
        assertEquals(read(id), created.json(), "create of " + body);
        // echoed: the answer is the text sent (whitespace and number spellings kept) with the system properties
        assertEquals(echoed, created.text().startsWith(body.substring(0, body.lastIndexOf('}')) + ",\"_rid\":"),
                created.text());
        RawClient.Answer upserted = raw.send("POST", DOCS, body,
                Map.of("x-ms-documentdb-partitionkey", "[\"p\"]", "x-ms-documentdb-is-upsert", "true"));
        assertEquals(200, upserted.status(), upserted.text());
        assertEquals(read(id), upserted.json(), "upsert of " + body);
        RawClient.Answer replaced = raw.send("PUT", DOCS + "/" + id, body, pk);
        assertEquals(200, replaced.status(), replaced.text());
        JsonNode stored = read(id);
        assertEquals(stored, replaced.json(), "replace of " + body);
        assertEquals(stored.get("_etag").textValue(), replaced.header("etag"));
        assertTrue(stored.get("_self").textValue().endsWith("/docs/" + stored.get("_rid").textValue() + "/"), stored::toString);
    }

    private JsonNode read(String id) throws Exception {
        RawClient.Answer a = raw.send("GET", DOCS + "/" + id, null, Map.of("x-ms-documentdb-partitionkey", "[\"p\"]"));
        assertEquals(200, a.status(), a.text());
        return a.json();
    }

    @Test
    void echoedBodiesReadBackAsAnswered() throws Exception {
        assertAnswersAreStored("plain", "{\"id\":\"plain\",\"pk\":\"p\",\"n\":1,\"s\":\"text é ✓\"}", true);
        assertAnswersAreStored("spaced", " {\n  \"id\" : \"spaced\",\t\"pk\":\"p\" , \"a\" : [ 1 , 2 ] }\n ", true);
        assertAnswersAreStored("numbers", "{\"id\":\"numbers\",\"pk\":\"p\",\"f\":1.50,\"e\":1e2,\"neg\":-0,"
                + "\"big\":9007199254740993,\"min\":-9223372036854775808,\"tiny\":5e-324,\"z\":0.0}", true);
        assertAnswersAreStored("nested", "{\"id\":\"nested\",\"pk\":\"p\",\"o\":{\"a\":{\"b\":[{\"c\":null},true,"
                + "false,\"x\"]}},\"empty\":{},\"none\":[],\"ttl\":-1}", true);
    }

    @Test
    void bodiesThatAreNotTheStoredViewAreDecoded() throws Exception {
        // each has a space after its first colon, which the decoded (compact) view does not: not echoed
        assertAnswersAreStored("dup", "{\"id\": \"dup\",\"pk\":\"p\",\"n\":1,\"n\":2,\"o\":{\"k\":1,\"k\":\"last\"}}", false);
        assertAnswersAreStored("sys", "{\"id\":\"sys\",\"pk\":\"p\",\"_rid\":\"forged\",\"_etag\":\"\\\"x\\\"\","
                + "\"_ts\":5,\"_self\":\"nope\",\"_attachments\":\"a/\"}", false);
        assertAnswersAreStored("huge", "{\"id\": \"huge\",\"pk\":\"p\",\"n\":123456789012345678901234567890}", false);
        assertAnswersAreStored("esc", "{\"id\":\"esc\",\"pk\":\"p\",\"s\":\"\\u00e9\\ud83d\\ude00\",\"lone\":\"\\ud800\"}", false);
        assertAnswersAreStored("backslash", "{\"id\": \"backslash\",\"pk\":\"p\",\"s\":\"a\\\\u0041\\\\\"}", false);
        JsonNode dup = read("dup");
        assertEquals(2, dup.get("n").intValue());
        assertEquals("last", dup.get("o").get("k").textValue());
        assertTrue(!"forged".equals(read("sys").get("_rid").textValue()));
    }

    @Test
    void partitionKeyHeaderFormsStillChecked() throws Exception {
        String body = "{\"id\":\"pkform\",\"pk\":\"p\"}";
        assertEquals(201, raw.send("POST", DOCS, body, Map.of("x-ms-documentdb-partitionkey", "[ \"p\" ]")).status());
        RawClient.Answer other = raw.send("POST", DOCS, "{\"id\":\"pkform2\",\"pk\":\"p\"}",
                Map.of("x-ms-documentdb-partitionkey", "[\"q\"]"));
        assertEquals(400, other.status(), other.text());
        assertEquals("1001", other.header("x-ms-substatus"));
        RawClient.Answer escaped = raw.send("POST", DOCS, "{\"id\":\"pkform3\",\"pk\":\"é\"}",
                Map.of("x-ms-documentdb-partitionkey", "[\"\\u00e9\"]"));
        assertEquals(201, escaped.status(), escaped.text());
    }

    @Test
    void sdkWritesSeeTheirItem() {
        ObjectNode item = Json.object().put("id", "sdk").put("pk", "p").put("d", 0.1).put("l", Long.MAX_VALUE);
        item.putArray("a").add("x").add(2);
        ObjectNode created = c.createItem(item, new PartitionKey("p"), new CosmosItemRequestOptions()
                .setContentResponseOnWriteEnabled(true)).getItem();
        ObjectNode read = c.readItem("sdk", new PartitionKey("p"), ObjectNode.class).getItem();
        assertEquals(read, created);
        assertEquals(0.1, created.get("d").doubleValue());
        assertEquals(Long.MAX_VALUE, created.get("l").longValue());
    }
}

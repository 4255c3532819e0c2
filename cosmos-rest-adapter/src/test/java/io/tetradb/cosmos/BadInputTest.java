package io.tetradb.cosmos;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad input gets Cosmos DB's status and a JSON {code, message}; the server keeps serving and nothing changes. */
class BadInputTest extends ServerFixture {
    static final String DOCS = "/dbs/bad/colls/c/docs";
    CosmosContainer c;
    RawClient raw;

    @BeforeAll
    void container() {
        sdk.createDatabaseIfNotExists("bad");
        sdk.getDatabase("bad").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"));
        c = sdk.getDatabase("bad").getContainer("c");
        for (int i = 0; i < 5; i++) {
            c.upsertItem(Json.object().put("id", "keep" + i).put("pk", "p").put("n", i));
        }
        raw = new RawClient(endpoint(), KEY);
    }

    private static void assertError(RawClient.Answer a, int status) {
        assertEquals(status, a.status(), a.text());
        assertNotNull(a.json(), "error body is JSON: " + a.text());
        assertTrue(a.json().hasNonNull("code") && a.json().hasNonNull("message"), a.text());
    }

    @Test
    void malformedBodiesAre400() throws Exception {
        assertError(raw.send("POST", DOCS, "{\"id\": \"x\", \"pk\": "), 400);
        assertError(raw.send("POST", DOCS, "[1, 2]"), 400);
        assertError(raw.send("POST", DOCS, "{\"id\":\"x\",\"pk\":\"p\"} trailing"), 400);
        assertError(raw.send("POST", DOCS, "[".repeat(5000)), 400);
        assertError(raw.send("POST", "/dbs", "not json"), 400);
        assertError(raw.send("PATCH", DOCS + "/keep0", "{\"operations\": [{\"op\": \"explode\", \"path\": \"/n\"}]}",
                Map.of("x-ms-documentdb-partitionkey", "[\"p\"]")), 400);
        assertError(raw.send("POST", DOCS, "{\"query\": 5}", Map.of("x-ms-documentdb-isquery", "true",
                "Content-Type", "application/query+json")), 400);
    }

    @Test
    void badPartitionKeyHeadersAre400() throws Exception {
        for (String h : List.of("p", "{\"a\":1}", "[\"p\", \"q\"]", "[[1]]", "[\"p\"")) {
            RawClient.Answer a = raw.send("GET", DOCS + "/keep0", null, Map.of("x-ms-documentdb-partitionkey", h));
            assertError(a, 400);
            assertEquals("1001", a.header("x-ms-substatus"), h);
        }
        assertError(raw.send("GET", DOCS + "/keep0", null), 400);
    }

    @Test
    void badContinuationAndPageSizeAre400() throws Exception {
        Map<String, String> query = new HashMap<>(Map.of("x-ms-documentdb-isquery", "true",
                "Content-Type", "application/query+json"));
        query.put("x-ms-continuation", "bm90LWEtdG9rZW4");
        assertError(raw.send("POST", DOCS, "{\"query\": \"SELECT * FROM c\"}", query), 400);
        query.put("x-ms-continuation", "%%%garbage");
        assertError(raw.send("POST", DOCS, "{\"query\": \"SELECT * FROM c\"}", query), 400);
        query.remove("x-ms-continuation");
        query.put("x-ms-max-item-count", "many");
        assertError(raw.send("POST", DOCS, "{\"query\": \"SELECT * FROM c\"}", query), 400);
    }

    @Test
    void unknownRoutesAre404AndWrongMethods405() throws Exception {
        assertError(raw.send("GET", "/nothing/here", null), 404);
        assertError(raw.send("GET", "/dbs/bad/colls/c/whatever", null), 404);
        assertError(raw.send("GET", "/dbs/nodb/colls/c/docs/x", null,
                Map.of("x-ms-documentdb-partitionkey", "[\"p\"]")), 404);
        assertError(raw.send("PUT", "/dbs", "{}"), 405);
        assertError(raw.send("DELETE", DOCS, null), 405);
        assertError(raw.send("PATCH", "/dbs/bad", "{}"), 405);
    }

    @Test
    void badChangeFeedRequestsAndUsersAreRefusedClearly() throws Exception {
        RawClient.Answer a = raw.send("GET", DOCS, null, Map.of("A-IM", "Everything"));
        assertError(a, 400);
        assertTrue(a.json().get("message").asText().contains("Incremental Feed"), a.text());
        RawClient.Answer etag = raw.send("GET", DOCS, null, Map.of("A-IM", "Incremental Feed", "If-None-Match", "\"x7\""));
        assertError(etag, 400);
        assertTrue(etag.json().get("message").asText().contains("change feed continuation"), etag.text());
        RawClient.Answer since = raw.send("GET", DOCS, null, Map.of("A-IM", "Incremental Feed",
                "If-Modified-Since", "yesterday"));
        assertError(since, 400);
        assertTrue(since.json().get("message").asText().contains("RFC 1123"), since.text());
        assertError(raw.send("GET", DOCS, null, Map.of("A-IM", "Incremental Feed",
                "x-ms-documentdb-partitionkeyrangeid", "7")), 410);
        RawClient.Answer fullFidelity = raw.send("GET", DOCS, null, Map.of("A-IM", "Full-Fidelity Feed"));
        assertError(fullFidelity, 400); // no all-versions retention on this container
        assertTrue(fullFidelity.json().get("message").asText().contains("retention"), fullFidelity.text());
        assertError(raw.send("POST", "/dbs/nodb/users", "{\"id\":\"u\"}"), 404); // users of no database
        assertError(raw.send("POST", "/dbs/bad/users", "{\"id\":\"u/x\"}"), 400); // a slash in a user's id
        assertError(raw.send("POST", "/dbs/bad/users/nobody/permissions", "{\"id\":\"p\"}"), 404);
    }

    @Test
    void aBodyOverTwoMegabytesIs413() throws Exception {
        String big = "{\"id\":\"big\",\"pk\":\"p\",\"s\":\"" + "x".repeat(2 * 1024 * 1024 + 10) + "\"}";
        RawClient.Answer a = raw.send("POST", DOCS, big);
        assertError(a, 413);
        assertEquals("RequestEntityTooLarge", a.json().get("code").asText());
        assertEquals(200, raw.send("GET", "/", null).status());
    }

    @Test
    void theCoresRefusalsKeepTheirStatus() throws Exception {
        RawClient.Answer slash = raw.send("POST", DOCS, "{\"id\":\"a/b\",\"pk\":\"p\"}");
        assertError(slash, 400);
        RawClient.Answer noId = raw.send("POST", DOCS, "{\"pk\":\"p\"}");
        assertTrue(noId.status() == 400, noId.text());
        assertError(raw.send("POST", DOCS, "{\"id\":\"keep0\",\"pk\":\"p\"}"), 409);
        RawClient.Answer depth = raw.send("POST", DOCS, "{\"id\":\"deep\",\"pk\":\"p\",\"a\":"
                + "[".repeat(150) + "]".repeat(150) + "}");
        assertEquals(400, depth.status(), depth.text());
    }

    @Test
    void garbageOnTheSocketClosesOnlyThatConnection() throws Exception {
        try (Socket s = new Socket("127.0.0.1", server.address().getPort())) {
            OutputStream out = s.getOutputStream();
            out.write("\u0016\u0003\u0001 NOT HTTP AT ALL\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            s.setSoTimeout(5000);
            in.readAllBytes(); // the server answers 400 or closes; either way it must not hang or die
        } catch (java.io.IOException closed) {
            // the connection was reset: fine
        }
        assertEquals(200, raw.send("GET", "/", null).status());
    }

    /** Many malformed requests (seeded), then the endpoint is used normally and the stored data is unchanged. */
    @Test
    void fuzzThenUseNormally() throws Exception {
        Random rnd = new Random(13);
        List<String> paths = List.of("/", "/dbs", "/dbs/bad", "/dbs/bad/colls", "/dbs/bad/colls/c", DOCS,
                DOCS + "/keep1", DOCS + "/nope", "/dbs/bad/colls/c/pkranges", "/dbs/bad/colls/c/sprocs",
                "/dbs/bad/colls/c/sprocs/x", "/offers", "/offers/AAAA", "/dbs//colls", "/dbs/%zz", "/dbs/bad/users",
                "/dbs/bad/colls/c/docs/keep1/extra");
        List<String> bodies = List.of("", "{", "}", "[]", "[{}]", "null", "42", "\"s\"", "{\"id\": 5}",
                "{\"id\": null, \"pk\": []}", "[{\"operationType\": \"Explode\"}]", "{\"operations\": 5}",
                "{\"query\": null}", "\u0000\u0001\u0002", "{\"a\":" + "{\"b\":".repeat(300) + "1" + "}".repeat(300),
                "[" + "1,".repeat(1000) + "]", "{\"id\":\"x\",\"pk\":\"p\"", "{\"content\": {\"offerThroughput\": 1}}");
        List<Map.Entry<String, String>> headers = List.of(
                Map.entry("x-ms-documentdb-partitionkey", "[\"p\""),
                Map.entry("x-ms-documentdb-partitionkey", "[1,2,3,4]"),
                Map.entry("x-ms-continuation", "~~~~"),
                Map.entry("x-ms-max-item-count", "-5x"),
                Map.entry("x-ms-cosmos-is-batch-request", "true"),
                Map.entry("x-ms-documentdb-isquery", "true"),
                Map.entry("x-ms-cosmos-is-query-plan-request", "true"),
                Map.entry("Content-Type", "application/query+json"),
                Map.entry("If-Match", "\"zzz\""),
                Map.entry("x-ms-offer-throughput", "lots"),
                Map.entry("A-IM", "Incremental Feed"));
        List<String> methods = List.of("GET", "POST", "PUT", "PATCH", "HEAD", "OPTIONS");
        int errors = 0;
        for (int i = 0; i < 400; i++) {
            String method = methods.get(rnd.nextInt(methods.size()));
            String path = paths.get(rnd.nextInt(paths.size()));
            String body = method.equals("GET") || method.equals("HEAD") ? null : bodies.get(rnd.nextInt(bodies.size()));
            Map<String, String> h = new HashMap<>();
            for (int k = rnd.nextInt(3); k > 0; k--) {
                var e = headers.get(rnd.nextInt(headers.size()));
                h.put(e.getKey(), e.getValue());
            }
            RawClient signer = rnd.nextInt(5) == 0 ? new RawClient(endpoint(), "AAAA") : raw;
            RawClient.Answer a;
            try {
                a = signer.send(method, path, body, h);
            } catch (IllegalArgumentException badUri) {
                continue; // the JDK client refuses to send it at all
            }
            assertNotEquals(500, a.status(), method + " " + path + " " + h + " " + body + " -> " + a.text());
            if (a.status() >= 400 && !method.equals("HEAD")) {
                errors++;
                assertNotNull(a.json(), method + " " + path + " -> " + a.text());
                assertTrue(a.json().has("code") && a.json().has("message"), a.text());
            }
        }
        assertTrue(errors > 200, "errors " + errors);
        // the endpoint still works, and the data the fuzz aimed at is as it was
        assertEquals(List.of(5), c.queryItems("SELECT VALUE COUNT(1) FROM c", null, Integer.class).stream().toList());
        for (int i = 0; i < 5; i++) {
            ObjectNode item = c.readItem("keep" + i, new PartitionKey("p"), ObjectNode.class).getItem();
            assertEquals(i, item.get("n").asInt());
        }
        c.createItem(Json.object().put("id", "after").put("pk", "p"));
        assertEquals(List.of("bad"), sdk.readAllDatabases().stream().map(d -> d.getId()).toList());
    }
}

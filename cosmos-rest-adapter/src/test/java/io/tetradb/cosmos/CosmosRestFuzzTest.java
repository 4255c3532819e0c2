package io.tetradb.cosmos;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.testing.fuzz.FuzzSettings;
import io.tetradb.testing.fuzz.FuzzTally;
import io.tetradb.testing.fuzz.HttpFuzzer;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Cosmos REST face under hostile input: correctly signed requests (create, upsert, query, stored procedure
 * execution) mutated and truncated, Content-Length and chunk sizes far over the 2 MiB limit, 10,000 levels of JSON,
 * bad UTF-8, and authorization headers that are garbage or signed with the wrong key. The azure-cosmos SDK must keep
 * working, the canary container must read back unchanged, no connection may hang, and the heap after GC stays flat.
 * Long form: {@code mvn -pl cosmos-rest-adapter verify -Dtest=CosmosRestFuzzTest -Dtetradb.fuzz.inputs=1000000}.
 */
class CosmosRestFuzzTest extends ServerFixture {

    @Test
    void hostileRequestsNeitherCrashNorHangNorLeak() throws Exception {
        sdk.createDatabaseIfNotExists("fuzz");
        sdk.getDatabase("fuzz").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"));
        sdk.createDatabaseIfNotExists("canary");
        sdk.getDatabase("canary").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"));
        CosmosContainer canary = sdk.getDatabase("canary").getContainer("c");
        for (int i = 0; i < 30; i++) {
            canary.upsertItem(Map.of("id", "k" + i, "pk", "p" + (i % 3), "v", "canary-" + i));
        }
        List<String> before = canaryItems(canary);

        FuzzSettings settings = FuzzSettings.fromSystemProperties();
        InetSocketAddress target = new InetSocketAddress("127.0.0.1", server.address().getPort());
        FuzzTally tally = HttpFuzzer.run("cosmos", target, seeds(), settings, () -> assertTrue(List.of(200, 201)
                .contains(sdk.getDatabase("fuzz").getContainer("c").upsertItem(Map.of("id", "alive", "pk", "a"))
                        .getStatusCode()), "the SDK is still served"));
        long heapAfter = io.tetradb.testing.fuzz.MemoryProbe.heapUsedAfterGc();

        assertTrue(tally.hangs().isEmpty(), "hangs: " + tally.hangs());
        assertEquals(before, canaryItems(canary), "the canary data is unchanged");
        assertTrue(heapAfter - tally.heapBefore() < 64L * 1024 * 1024, "live heap grew by "
                + (heapAfter - tally.heapBefore()) / (1024 * 1024) + " MB");
    }

    @Test
    void aChunkedBodyOverTwoMegabytesIs413BeforeItIsAggregated() throws Exception {
        sdk.createDatabaseIfNotExists("fuzz");
        sdk.getDatabase("fuzz").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"));
        String docs = "/dbs/fuzz/colls/c/docs";
        StringBuilder head = new StringBuilder("POST " + docs + " HTTP/1.1\r\n");
        for (String h : withHeader(signed("POST", docs, KEY), "x-ms-documentdb-partitionkey: [\"p1\"]")) {
            head.append(h).append("\r\n");
        }
        String answer = io.tetradb.testing.fuzz.ChunkedFlood.send(new InetSocketAddress("127.0.0.1",
                server.address().getPort()), head.toString(), 64L * 1024 * 1024);
        assertTrue(answer.startsWith("HTTP/1.1 413"), answer);
        assertTrue(answer.contains("\"code\":\"RequestEntityTooLarge\""), answer);
    }

    private static List<String> canaryItems(CosmosContainer c) {
        List<String> items = new ArrayList<>();
        c.queryItems("SELECT c.id, c.pk, c.v FROM c ORDER BY c.id", new CosmosQueryRequestOptions(),
                ObjectNode.class).forEach(n -> items.add(n.toString()));
        return items;
    }

    private static List<String> signed(String method, String path, String key) {
        String date = RawClient.now();
        return List.of("Host: localhost", "x-ms-date: " + date, "x-ms-version: 2020-07-15",
                "Content-Type: application/json", "authorization: " + RawClient.authorization(key, method, path, date));
    }

    private static List<String> withHeader(List<String> headers, String header) {
        List<String> h = new ArrayList<>(headers);
        h.add(header);
        return h;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static List<byte[]> seeds() {
        String docs = "/dbs/fuzz/colls/c/docs";
        String wrongKey = "dGhpcyBpcyBub3QgdGhlIGtleSB5b3UgYXJlIGxvb2tpbmcgZm9y";
        List<byte[]> seeds = new ArrayList<>();
        seeds.add(HttpFuzzer.request("POST", docs, withHeader(signed("POST", docs, KEY),
                "x-ms-documentdb-partitionkey: [\"p1\"]"), utf8("{\"id\":\"d1\",\"pk\":\"p1\",\"n\":[1,2,{\"x\":\"é\"}]}")));
        seeds.add(HttpFuzzer.request("POST", docs, withHeader(withHeader(signed("POST", docs, KEY),
                "x-ms-documentdb-partitionkey: [\"p1\"]"), "x-ms-documentdb-is-upsert: true"),
                utf8("{\"id\":\"d2\",\"pk\":\"p1\",\"s\":\"text\"}")));
        seeds.add(HttpFuzzer.request("POST", docs, withHeader(withHeader(withHeader(signed("POST", docs, KEY),
                "x-ms-documentdb-isquery: true"), "x-ms-documentdb-query-enablecrosspartition: true"),
                "Content-Type: application/query+json"), utf8("{\"query\":\"SELECT c.pk, COUNT(1) AS n FROM c "
                + "WHERE c.n[0] >= @v GROUP BY c.pk\",\"parameters\":[{\"name\":\"@v\",\"value\":1}]}")));
        seeds.add(HttpFuzzer.request("GET", docs + "/d1", withHeader(signed("GET", docs + "/d1", KEY),
                "x-ms-documentdb-partitionkey: [\"p1\"]"), new byte[0]));
        seeds.add(HttpFuzzer.request("POST", "/dbs", signed("POST", "/dbs", KEY), utf8("{\"id\":\"fuzzdb\"}")));
        // 10,000 levels of JSON; bad UTF-8 in a string and in the partition key header
        seeds.add(HttpFuzzer.request("POST", docs, withHeader(signed("POST", docs, KEY),
                "x-ms-documentdb-partitionkey: [\"p1\"]"), utf8("{\"id\":\"deep\",\"pk\":\"p1\",\"d\":"
                + HttpFuzzer.deepJson(10_000) + "}")));
        byte[] badUtf8 = utf8("{\"id\":\"u\",\"pk\":\"p1\",\"s\":\"xx\"}");
        badUtf8[badUtf8.length - 4] = (byte) 0xc0;
        badUtf8[badUtf8.length - 3] = (byte) 0x80;
        seeds.add(HttpFuzzer.request("POST", docs, withHeader(signed("POST", docs, KEY),
                "x-ms-documentdb-partitionkey: [\"p1\"]"), badUtf8));
        // authorization: the wrong key, garbage, a token type that does not exist
        seeds.add(HttpFuzzer.request("GET", "/dbs", signed("GET", "/dbs", wrongKey), new byte[0]));
        seeds.add(HttpFuzzer.request("GET", "/dbs", List.of("x-ms-date: " + RawClient.now(),
                "authorization: type%3Dmaster%26ver%3D1.0%26sig%3D%%%%%%"), new byte[0]));
        seeds.add(HttpFuzzer.request("GET", "/dbs", List.of("x-ms-date: Mon, 99 Foo 9999 99:99:99 GMT",
                "authorization: type=resource&ver=1.0&sig=" + "A".repeat(4096)), new byte[0]));
        seeds.addAll(HttpFuzzer.oversizedDeclarations("POST", docs, withHeader(signed("POST", docs, KEY),
                "x-ms-documentdb-partitionkey: [\"p1\"]")));
        return seeds;
    }
}

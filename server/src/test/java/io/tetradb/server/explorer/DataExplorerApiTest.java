package io.tetradb.server.explorer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.cosmos.CosmosHttpServer;
import io.tetradb.cosmos.CosmosRestOptions;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.PartitionKey;
import io.tetradb.server.Endpoint;
import io.tetradb.server.ServerConfig;
import io.tetradb.server.TestHttp;
import io.tetradb.server.TetraDbServer;
import io.tetradb.server.admin.AdminAccess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The explorer's JSON API over HTTP: what the page calls, and every bad request refused with a 4xx JSON
 * {@code {code, message}} that changes nothing; who may call it (loopback Host, same origin, loopback bind only).
 */
class DataExplorerApiTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(TestHttp.TIMEOUT).build();
    private static final String ITEM = "/_explorer/api/databases/shop/containers/orders/item";

    @TempDir
    static Path dir;
    private static TetraDbServer server;
    private static String base;
    private static CosmosContainer orders;

    @BeforeAll
    static void start() {
        server = new TetraDbServer(ServerConfig.ephemeral(dir).withCosmosPort(0)).start();
        base = "http://" + Endpoint.hostPort(server.endpoint("cosmos").address());
        server.client().createDatabaseIfNotExists("shop");
        server.client().getDatabase("shop").createContainerIfNotExists("orders", "/customerId");
        orders = server.client().getDatabase("shop").getContainer("orders");
        orders.upsertItem(Map.of("id", "o1", "customerId", "c1", "total", 30.5));
        orders.upsertItem(Map.of("id", "o2", "customerId", "c2", "total", 12.0));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static HttpResponse<String> call(String method, String path, String contentType, String body,
                                             String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(TestHttp.TIMEOUT)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        if (headers.length > 0) {
            b.headers(headers);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String item(String id, String pk) {
        return ITEM + "?id=" + URLEncoder.encode(id, StandardCharsets.UTF_8) + "&pk="
                + URLEncoder.encode(pk, StandardCharsets.UTF_8);
    }

    /** A 4xx with the JSON error body every face uses. */
    private static JsonNode refused(int status, HttpResponse<String> r) throws Exception {
        assertEquals(status, r.statusCode(), r.body());
        assertTrue(r.headers().firstValue("content-type").orElse("").startsWith("application/json"));
        JsonNode body = JSON.readTree(r.body());
        assertTrue(body.path("code").isTextual() && body.path("message").isTextual(), r.body());
        return body;
    }

    private static String sortedById(JsonNode items) {
        java.util.List<JsonNode> list = new java.util.ArrayList<>();
        items.forEach(list::add);
        list.sort(java.util.Comparator.comparing(n -> n.path("id").asText()));
        return JSON.valueToTree(list).toString();
    }

    private static double total(String id, String pk) {
        return orders.readItem(id, new PartitionKey(pk), ObjectNode.class).getItem().get("total").asDouble();
    }

    @Test
    void whatThePageCalls() throws Exception {
        JsonNode dbs = JSON.readTree(call("GET", "/_explorer/api/databases", null, null).body());
        assertTrue(dbs.path("databases").toString().contains("\"shop\""), dbs.toString());
        JsonNode containers = JSON.readTree(call("GET", "/_explorer/api/databases/shop/containers", null, null)
                .body());
        assertEquals("[{\"id\":\"orders\",\"partitionKeyPaths\":[\"/customerId\"]}]",
                containers.path("containers").toString());
        JsonNode items = JSON.readTree(call("GET", "/_explorer/api/databases/shop/containers/orders/items", null, null)
                .body());
        assertEquals(2, items.path("items").size());
        assertTrue(items.path("requestCharge").asDouble() > 0);
        JsonNode read = JSON.readTree(call("GET", item("o1", "[\"c1\"]"), null, null).body());
        assertEquals(30.5, read.path("item").path("total").asDouble());
        assertTrue(read.path("etag").asText().startsWith("\""));
        JsonNode query = JSON.readTree(call("POST", "/_explorer/api/databases/shop/containers/orders/query",
                "application/json", "{\"query\": \"SELECT VALUE SUM(c.total) FROM c\"}").body());
        assertEquals(42.5, query.path("results").get(0).asDouble());
        assertTrue(query.path("requestCharge").asDouble() > 0);
        assertTrue(query.path("metrics").has("retrievedDocumentCount"));
        assertTrue(query.path("explain").has("plan"));
        // items without a partition key value and in a hierarchical container: keys as the Cosmos header writes them
        server.client().createDatabaseIfNotExists("keys");
        server.client().getDatabase("keys").createContainerIfNotExists(
                new io.tetradb.document.CosmosContainerProperties("nested",
                        new io.tetradb.document.PartitionKeyDefinition().setPaths(java.util.List.of("/t", "/u"))
                                .setKind(io.tetradb.document.PartitionKind.MULTI_HASH)));
        server.client().getDatabase("keys").getContainer("nested").upsertItem(Map.of("id", "h1", "t", "a", "u", 7));
        server.client().getDatabase("keys").getContainer("nested").upsertItem(Map.of("id", "h2"));
        JsonNode nested = JSON.readTree(call("GET", "/_explorer/api/databases/keys/containers/nested/items", null,
                null).body());
        assertEquals("[{\"id\":\"h1\",\"partitionKey\":[\"a\",7]},{\"id\":\"h2\",\"partitionKey\":[{},{}]}]",
                sortedById(nested.path("items")));
        for (JsonNode entry : nested.path("items")) {
            HttpResponse<String> one = call("GET", "/_explorer/api/databases/keys/containers/nested/item?id="
                    + entry.path("id").asText() + "&pk=" + URLEncoder.encode(entry.path("partitionKey").toString(),
                    StandardCharsets.UTF_8), null, null);
            assertEquals(200, one.statusCode(), one.body());
            ObjectNode edited = (ObjectNode) JSON.readTree(one.body()).path("item");
            edited.put("seen", true);
            assertEquals(200, call("PUT", "/_explorer/api/databases/keys/containers/nested/item?id="
                    + entry.path("id").asText() + "&pk=" + URLEncoder.encode(entry.path("partitionKey").toString(),
                    StandardCharsets.UTF_8), "application/json", edited.toString()).statusCode());
        }
        assertEquals(2, server.client().getDatabase("keys").getContainer("nested")
                .queryItems("SELECT VALUE COUNT(1) FROM c WHERE c.seen = true", null, Integer.class).stream()
                .findFirst().orElseThrow());
        JsonNode partitions = JSON.readTree(call("GET", "/_explorer/api/partitions", null, null).body());
        assertTrue(partitions.path("containers").toString().contains("\"orders\""));
        // a replace with the read etag, then the same etag again: 412, as Cosmos DB answers a stale If-Match
        ObjectNode edited = (ObjectNode) read.path("item");
        edited.put("total", 31);
        String etag = read.path("etag").asText();
        assertEquals(200, call("PUT", item("o1", "[\"c1\"]"), "application/json", edited.toString(),
                "If-Match", etag).statusCode());
        edited.put("total", 32);
        refused(412, call("PUT", item("o1", "[\"c1\"]"), "application/json", edited.toString(), "If-Match", etag));
        assertEquals(31, total("o1", "c1"));
    }

    @Test
    void badRequestsAreRefusedAsJsonAndChangeNothing() throws Exception {
        String o2 = "{\"id\":\"o2\",\"customerId\":\"c2\",\"total\":1}";
        refused(400, call("PUT", item("o2", "[\"c2\"]"), "application/json", "{\"id\": \"o2\", broken"));
        refused(400, call("PUT", item("o2", "[\"c2\"]"), "application/json", "[1, 2]"));
        refused(400, call("PUT", item("o2", "[\"c2\"]"), "application/json", ""));
        refused(415, call("PUT", item("o2", "[\"c2\"]"), "text/plain", o2));
        refused(400, call("PUT", item("o2", "[\"c2\"]"), "application/json",
                "{\"id\":\"other\",\"customerId\":\"c2\",\"total\":1}"));
        refused(400, call("PUT", item("o2", "[\"c2\"]"), "application/json",
                "{\"id\":\"o2\",\"customerId\":\"c9\",\"total\":1}"));
        refused(404, call("PUT", item("nope", "[\"c2\"]"), "application/json",
                "{\"id\":\"nope\",\"customerId\":\"c2\"}"));
        refused(404, call("GET", item("nope", "[\"c2\"]"), null, null));
        refused(404, call("DELETE", item("nope", "[\"c2\"]"), null, null));
        refused(400, call("GET", item("o2", "c2"), null, null));
        refused(400, call("GET", item("o2", "[[1]]"), null, null));
        refused(400, call("GET", ITEM + "?pk=%5B%22c2%22%5D", null, null));
        refused(404, call("GET", "/_explorer/api/databases/nodb/containers", null, null));
        refused(404, call("GET", "/_explorer/api/databases/shop/containers/nocontainer/items", null, null));
        refused(404, call("GET", "/_explorer/api/databases/shop/containers/orders/items/extra", null, null));
        refused(404, call("GET", "/_explorer/api/unknown", null, null));
        refused(404, call("GET", "/_explorer/nothing.js", null, null));
        refused(405, call("POST", "/_explorer/api/databases", "application/json", "{}"));
        refused(405, call("PATCH", item("o2", "[\"c2\"]"), "application/json", o2));
        String queries = "/_explorer/api/databases/shop/containers/orders/query";
        refused(400, call("POST", queries, "application/json", "{\"query\": \"SELEC nonsense\"}"));
        refused(400, call("POST", queries, "application/json", "{\"q\": 1}"));
        refused(400, call("POST", queries, "application/json",
                "{\"query\": \"SELECT * FROM c\", \"continuation\": \"forged\"}"));
        assertEquals(12.0, total("o2", "c2"));
        assertEquals(2, orders.queryItems("SELECT VALUE COUNT(1) FROM c", null, Integer.class).stream()
                .findFirst().orElseThrow());
    }

    @Test
    void onlyTheExplorersOwnPageOnALoopbackHostMayCallIt() throws Exception {
        // another site's page in the same browser: its Origin is refused before anything runs
        refused(403, call("DELETE", item("o2", "[\"c2\"]"), null, null, "Origin", "http://evil.example"));
        assertEquals(12.0, total("o2", "c2"));
        // a DNS-rebinding page reaches 127.0.0.1 under its own host name
        InetSocketAddress address = server.endpoint("cosmos").address();
        try (Socket s = new Socket(address.getAddress(), address.getPort())) {
            OutputStream out = s.getOutputStream();
            out.write(("GET /_explorer/api/databases HTTP/1.1\r\nHost: evil.example:" + address.getPort()
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(answer.startsWith("HTTP/1.1 403"), answer);
            assertFalse(answer.contains("\"shop\""), answer);
        }
        // the page's own origin is fine
        assertEquals(200, call("GET", "/_explorer/api/databases", null, null, "Origin", base).statusCode());
    }

    @Test
    void theRootSendsBrowsersToTheExplorerAndTheCertificateStaysWhereItWas() throws Exception {
        HttpResponse<String> browser = call("GET", "/", null, null, "Accept", "text/html,*/*;q=0.8");
        assertEquals(302, browser.statusCode());
        assertEquals("/_explorer/", browser.headers().firstValue("location").orElseThrow());
        // unsigned and not a browser: the Cosmos account route, which wants the key
        assertEquals(401, call("GET", "/", null, null, "Accept", "application/json").statusCode());
        HttpResponse<String> page = call("GET", "/_explorer/", null, null);
        assertEquals(200, page.statusCode());
        assertTrue(page.body().contains("TetraDB · data explorer"));
        assertTrue(page.headers().firstValue("content-security-policy").orElse("").contains("default-src 'self'"));
        assertEquals(200, call("GET", "/_explorer", null, null).statusCode());
        assertEquals(200, call("GET", "/_explorer/explorer.js", null, null).statusCode());
        HttpResponse<String> pem = call("GET", "/_explorer/emulator.pem", null, null);
        assertEquals(200, pem.statusCode());
        assertTrue(pem.body().startsWith("-----BEGIN CERTIFICATE-----"), pem.body());
    }

    @Test
    void beyondLoopbackTheApiNeedsTheCosmosKeyAndTheReadOnlyKeyOnlyReads() throws Exception {
        String master = newKey();
        String readOnly = newKey();
        CosmosRestOptions options = DataExplorer.mount(CosmosRestOptions.defaults().withMasterKey(master)
                .withReadOnlyKey(readOnly), server.client(), AdminAccess.keys(() -> master, () -> readOnly));
        try (CosmosHttpServer keyed = CosmosHttpServer.start(InetAddress.getLoopbackAddress(), 0, server.client(),
                options)) {
            String url = "http://" + Endpoint.hostPort(keyed.address());
            // the page and its files hold no data: served to anyone, so the browser can ask for the key
            assertEquals(200, send(url, "GET", "/_explorer/", null, null).statusCode());
            assertEquals(200, send(url, "GET", "/_explorer/explorer.js", null, null).statusCode());
            // missing or wrong key: 401 JSON (no basic challenge: the page asks, not the browser's dialog)
            HttpResponse<String> missing = send(url, "GET", "/_explorer/api/databases", null, null);
            assertEquals(401, missing.statusCode());
            assertEquals("Unauthorized", JSON.readTree(missing.body()).get("code").asText());
            assertTrue(missing.headers().firstValue("www-authenticate").isEmpty());
            assertEquals(401, send(url, "GET", "/_explorer/api/databases", signed("GET", newKey()), null)
                    .statusCode());
            assertEquals(401, send(url, "DELETE", item("o2", "[\"c2\"]"), basic(newKey()), null).statusCode());
            // the master key, signed as the page signs (verb and x-ms-date) or as a basic password
            HttpResponse<String> listed = send(url, "GET", "/_explorer/api/databases", signed("GET", master), null);
            assertEquals(200, listed.statusCode(), listed.body());
            assertTrue(listed.body().contains("\"shop\""));
            assertEquals(200, send(url, "GET", "/_explorer/api/databases", basic(master), null).statusCode());
            // the read-only key reads and queries, and cannot write
            assertEquals(200, send(url, "GET", item("o1", "[\"c1\"]"), signed("GET", readOnly), null).statusCode());
            assertEquals(200, send(url, "POST", "/_explorer/api/databases/shop/containers/orders/query",
                    signed("POST", readOnly), "{\"query\":\"SELECT * FROM c\"}").statusCode());
            HttpResponse<String> refusedDelete = send(url, "DELETE", item("o2", "[\"c2\"]"),
                    signed("DELETE", readOnly), null);
            assertEquals(403, refusedDelete.statusCode());
            assertEquals("Forbidden", JSON.readTree(refusedDelete.body()).get("code").asText());
            assertEquals(403, send(url, "PUT", item("o2", "[\"c2\"]"), signed("PUT", readOnly),
                    "{\"id\":\"o2\",\"customerId\":\"c2\",\"total\":0}").statusCode());
            assertEquals(12.0, total("o2", "c2"), "nothing changed");
            // another site's page is refused even with a key
            assertEquals(403, send(url, "GET", "/_explorer/api/databases", basic(master), null,
                    "Origin", "http://evil.example").statusCode());
            // the master key writes
            HttpResponse<String> saved = send(url, "PUT", item("o2", "[\"c2\"]"), signed("PUT", master),
                    "{\"id\":\"o2\",\"customerId\":\"c2\",\"total\":12.0}");
            assertEquals(200, saved.statusCode(), saved.body());
        }
    }

    private static HttpResponse<String> send(String url, String method, String path, String[] auth, String body,
                                             String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url + path)).timeout(TestHttp.TIMEOUT)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        if (auth != null) {
            b.headers(auth);
        }
        if (headers.length > 0) {
            b.headers(headers);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The headers the page sends: a Cosmos master-key signature of the verb and x-ms-date. */
    private static String[] signed(String verb, String key) throws Exception {
        String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(Base64.getDecoder().decode(key), "HmacSHA256"));
        String payload = verb.toLowerCase() + "\n\n\n" + date.toLowerCase() + "\n\n";
        String sig = Base64.getEncoder().encodeToString(mac.doFinal(payload.getBytes(StandardCharsets.UTF_8)));
        return new String[] {"x-ms-date", date,
                "Authorization", URLEncoder.encode("type=master&ver=1.0&sig=" + sig, StandardCharsets.UTF_8)};
    }

    private static String[] basic(String key) {
        return new String[] {"Authorization", "Basic " + Base64.getEncoder()
                .encodeToString((":" + key).getBytes(StandardCharsets.UTF_8))};
    }

    private static String newKey() {
        byte[] k = new byte[64];
        new java.security.SecureRandom().nextBytes(k);
        return Base64.getEncoder().encodeToString(k);
    }
}

package io.tetradb.table.http;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.core.storage.Durability;
import io.tetradb.testing.TestTime;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A running TableHttpServer on a free port over a fresh store, the official SDK pointed at it, and requests signed by
 * hand (Shared Key) for what the SDK cannot send.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SdkTestBase {
    static final String KEY = SharedKeyAuth.DEV_KEY;
    Path dir;
    CosmosClient cosmos;
    TableHttpServer server;
    TableServiceClient service;

    @BeforeAll
    void startServer() throws Exception {
        dir = Files.createTempDirectory("tables-sdk");
        cosmos = new CosmosClientBuilder().dataDirectory(dir).durability(Durability.ASYNC).clock(clock()).buildClient();
        server = TableHttpServer.start(InetAddress.getLoopbackAddress(), 0, cosmos);
        service = new TableServiceClientBuilder().connectionString(connectionString(KEY)).buildClient();
    }

    /** The store's clock (a test of expiry gives a ManualClock). */
    java.time.Clock clock() {
        return java.time.Clock.systemUTC();
    }

    String endpoint() {
        return "http://127.0.0.1:" + server.address().getPort() + "/devstoreaccount1";
    }

    String connectionString(String key) {
        return "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=" + key
                + ";TableEndpoint=" + endpoint() + ";";
    }

    static final ObjectMapper M = new ObjectMapper();
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    HttpResponse<String> send(String method, String path, String body, String... headers) throws Exception {
        String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
        String contentType = body == null ? "" : "application/json";
        for (int i = 0; i < headers.length; i += 2) {
            if (headers[i].equals("Content-Type")) {
                contentType = headers[i + 1];
            }
        }
        int query = path.indexOf('?');
        String canonical = "/devstoreaccount1" + (query < 0 ? path : path.substring(0, query));
        java.util.regex.Matcher comp = java.util.regex.Pattern.compile("[?&]comp=([^&]*)").matcher(path);
        if (comp.find()) {
            canonical += "?comp=" + comp.group(1); // the one query parameter the canonicalized resource keeps
        }
        String toSign = method + "\n\n" + contentType + "\n" + date + "\n" + canonical;
        String sig = Base64.getEncoder().encodeToString(SharedKeyAuth.hmac(Base64.getDecoder().decode(KEY), toSign));
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.address().getPort() + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .timeout(TestTime.patience(java.time.Duration.ofSeconds(30))) // a wait, not a speed check
                .header("x-ms-date", date)
                .header("Authorization", "SharedKey devstoreaccount1:" + sig);
        if (java.util.stream.IntStream.range(0, headers.length / 2).noneMatch(i -> headers[2 * i].equals("x-ms-version"))) {
            b.header("x-ms-version", "2019-02-02");
        }
        if (!contentType.isEmpty()) {
            b.header("Content-Type", contentType);
        }
        for (int i = 0; i < headers.length; i += 2) {
            if (!headers[i].equals("Content-Type")) {
                b.header(headers[i], headers[i + 1]);
            }
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    void assertError(HttpResponse<String> r, int status, String code) throws Exception {
        assertEquals(status, r.statusCode(), r.body());
        assertEquals(code, r.headers().firstValue("x-ms-error-code").orElse(null));
        JsonNode e = M.readTree(r.body()).path("odata.error");
        assertEquals(code, e.path("code").asText());
        assertFalse(e.path("message").path("value").asText().isEmpty());
        assertEquals("0.00", r.headers().firstValue("x-ms-request-charge").orElse(null));
        assertServing();
    }

    void assertServing() throws Exception {
        assertEquals(200, send("GET", "/devstoreaccount1/Tables", null).statusCode(), "the server keeps serving");
    }

    static String enc(String s) {
        return java.net.URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    TableClient freshTable(String name) {
        service.createTable(name);
        return service.getTableClient(name);
    }

    @AfterAll
    void stopServer() throws Exception {
        server.close();
        cosmos.close();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}

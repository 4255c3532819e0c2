package io.tetradb.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.ThroughputProperties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The server in-process: a container with two physical partitions and a skewed key, read over admin HTTP. */
@Timeout(600) // a hung test's bound, above the waits on TestTime's patience (2 min)
class TetraDbServerTest {
    static final int HOT_ITEMS = 40;
    static final int COLD_KEYS = 20;

    @TempDir
    Path dataDir;
    TetraDbServer server;
    String baseUrl;

    @BeforeEach
    void start() {
        server = new TetraDbServer(ServerConfig.ephemeral(dataDir)).start();
        baseUrl = server.endpoint("admin").url();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    /** 40 items under "hot", one item under each of 20 other keys: 21 logical partitions, 60 items. */
    static void writeSkewedItems(CosmosClient client) {
        client.createDatabaseIfNotExists("shop");
        client.getDatabase("shop").createContainerIfNotExists(new CosmosContainerProperties("orders", "/pk"),
                ThroughputProperties.createManualThroughput(20000));
        CosmosContainer orders = client.getDatabase("shop").getContainer("orders");
        for (int i = 0; i < HOT_ITEMS; i++) {
            orders.createItem(item("hot-" + i, "hot"));
        }
        for (int i = 0; i < COLD_KEYS; i++) {
            orders.createItem(item("cold-" + i, "k" + i));
        }
    }

    private static ObjectNode item(String id, String pk) {
        return JsonNodeFactory.instance.objectNode().put("id", id).put("pk", pk).put("total", 12.5);
    }

    /**
     * Checks what /api/partitions says about {@link #writeSkewedItems}; shared with the process test, whose server
     * also has Gremlin Server's graph container {@code graphdb/graph}.
     */
    static void assertSkewedPartitions(JsonNode report) {
        List<JsonNode> containers = new ArrayList<>();
        report.get("containers").forEach(containers::add);
        containers.removeIf(c -> c.get("database").asText().equals("graphdb"));
        assertEquals(1, containers.size(), report.toString());
        JsonNode c = containers.get(0);
        assertEquals("shop", c.get("database").asText());
        assertEquals("orders", c.get("container").asText());
        assertEquals("/pk", c.get("partitionKeyPaths").get(0).asText());
        assertTrue(c.get("limits").get("logicalPartitionLimitBytes").asLong() > 0);
        assertTrue(c.get("limits").get("splitThresholdBytes").asLong() > 0);

        JsonNode partitions = c.get("physicalPartitions");
        assertEquals(2, partitions.size(), "20000 RU/s gives two physical partitions");
        // the EPK ranges tile the whole space ["", "FF") without gaps or overlaps
        assertEquals("", partitions.get(0).get("minInclusive").asText());
        assertEquals(partitions.get(0).get("maxExclusive").asText(), partitions.get(1).get("minInclusive").asText());
        assertEquals("FF", partitions.get(1).get("maxExclusive").asText());

        long items = 0;
        long logical = 0;
        long bytes = 0;
        JsonNode hot = null;
        for (JsonNode p : partitions) {
            items += p.get("itemCount").asLong();
            logical += p.get("logicalPartitionCount").asLong();
            bytes += p.get("bytes").asLong();
            for (JsonNode l : p.get("largestLogicalPartitions")) {
                assertFalse(l.get("nearLimit").asBoolean());
                assertTrue(l.get("epk").asText().length() > 0);
                if (l.get("partitionKey").equals(JsonNodeFactory.instance.arrayNode().add("hot"))
                        || l.get("partitionKey").asText().equals("hot")) {
                    hot = l;
                    // the hot key is the largest logical partition of its physical partition
                    assertEquals(l, p.get("largestLogicalPartitions").get(0));
                }
            }
        }
        assertEquals(HOT_ITEMS + COLD_KEYS, items);
        assertEquals(1 + COLD_KEYS, logical);
        assertEquals(c.get("itemCount").asLong(), items);
        assertEquals(c.get("bytes").asLong(), bytes);
        assertTrue(hot != null, "the hot key is listed: " + report);
        assertEquals(HOT_ITEMS, hot.get("itemCount").asLong());
        assertTrue(hot.get("bytes").asLong() > 0);
    }

    @Test
    void healthAnswersOkWithEveryFaceListening() {
        HttpResponse<String> r = TestHttp.get(baseUrl, "/health");
        assertEquals(200, r.statusCode());
        assertEquals("application/json", TestHttp.contentType(r));
        JsonNode body = TestHttp.json(r);
        assertEquals("ok", body.get("status").asText());
        assertEquals("admin", body.get("faces").get(0).get("name").asText());
        assertEquals("listening", body.get("faces").get(0).get("state").asText());
        assertEquals(baseUrl, body.get("faces").get(0).get("url").asText());
    }

    @Test
    void partitionsReportShowsSplitAndSkew() {
        assertEquals("{\"containers\":[]}", TestHttp.get(baseUrl, "/api/partitions").body());
        writeSkewedItems(server.client());
        HttpResponse<String> r = TestHttp.get(baseUrl, "/api/partitions?ignored=query");
        assertEquals(200, r.statusCode());
        assertEquals("application/json", TestHttp.contentType(r));
        assertSkewedPartitions(TestHttp.json(r));
    }

    @Test
    void unknownPathIs404AndOtherMethodsAre405() {
        HttpResponse<String> missing = TestHttp.get(baseUrl, "/nope");
        assertEquals(404, missing.statusCode());
        assertEquals("application/json", TestHttp.contentType(missing));
        assertEquals("NotFound", TestHttp.json(missing).get("code").asText());
        assertTrue(TestHttp.json(missing).get("message").asText().contains("/nope"));

        for (String method : List.of("POST", "PUT", "DELETE", "HEAD")) {
            HttpResponse<String> r = TestHttp.send(baseUrl, "/api/partitions", method);
            assertEquals(405, r.statusCode(), method);
            assertEquals("GET", r.headers().firstValue("allow").orElse(""), method);
        }
        assertEquals("MethodNotAllowed", TestHttp.json(TestHttp.send(baseUrl, "/health", "POST")).get("code").asText());
    }

    @Test
    void pageIsSelfContainedHtml() {
        for (String path : List.of("/", "/partitions")) {
            HttpResponse<String> r = TestHttp.get(baseUrl, path);
            assertEquals(200, r.statusCode(), path);
            assertTrue(TestHttp.contentType(r).startsWith("text/html"), path);
            assertTrue(r.body().contains("<script>") && r.body().contains("api/partitions"), path);
            assertFalse(r.body().matches("(?s).*(src|href)=\"?(https?:)?//.*"), "no external assets");
        }
    }

    @Test
    void keepAliveServesSeveralRequestsOnOneConnectionAndCloseIsHonoured() throws IOException {
        InetAddress host = server.endpoint("admin").address().getAddress();
        int port = server.endpoint("admin").address().getPort();
        try (Socket socket = new Socket(host, port)) {
            socket.setSoTimeout((int) TestHttp.TIMEOUT.toMillis());
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\nGET /nope HTTP/1.1\r\nHost: x\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertTrue(readResponse(in).startsWith("HTTP/1.1 200"));
            assertTrue(readResponse(in).startsWith("HTTP/1.1 404"), "the connection stayed open after the 200");
            out.write("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String last = readResponse(in);
            assertTrue(last.startsWith("HTTP/1.1 200") && last.toLowerCase().contains("connection: close"), last);
            assertEquals(-1, readOrTimeout(in), "the server closes after Connection: close");
        }
    }

    @Test
    void malformedRequestGets400AndTheServerKeepsServing() throws IOException {
        InetAddress host = server.endpoint("admin").address().getAddress();
        try (Socket socket = new Socket(host, server.endpoint("admin").address().getPort())) {
            socket.setSoTimeout((int) TestHttp.TIMEOUT.toMillis());
            socket.getOutputStream().write("GET /health HTTP/1.1\r\nContent-Length: nonsense\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            assertTrue(readResponse(socket.getInputStream()).startsWith("HTTP/1.1 400"));
        }
        assertEquals(200, TestHttp.get(baseUrl, "/health").statusCode());
    }

    @Test
    void secondServerOnTheSameDirectoryIsRefusedWithOneLine() {
        StartupException e = assertThrows(StartupException.class,
                () -> new TetraDbServer(ServerConfig.ephemeral(dataDir)).start());
        assertTrue(e.getMessage().contains("in use"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
        assertEquals(200, TestHttp.get(baseUrl, "/health").statusCode(), "the running server is unaffected");
    }

    @Test
    void busyPortFailsTheStartAndReleasesTheDirectory(@TempDir Path otherDir) throws IOException {
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            ServerConfig config = new ServerConfig(otherDir, InetAddress.getLoopbackAddress(), busy.getLocalPort());
            StartupException e = assertThrows(StartupException.class, () -> new TetraDbServer(config).start());
            assertTrue(e.getMessage().startsWith("cannot bind admin HTTP"), e.getMessage());
        }
        // the failed start closed its store: the directory can be opened again
        new TetraDbServer(ServerConfig.ephemeral(otherDir)).start().close();
    }

    @Test
    void closeIsIdempotentAndStopsServing() {
        String url = baseUrl;
        server.close();
        server.close();
        assertThrows(IllegalStateException.class, () -> server.client());
        assertThrows(java.io.UncheckedIOException.class, () -> TestHttp.get(url, "/health"));
    }

    /** Reads one response (headers plus Content-Length bytes of body) from a keep-alive connection. */
    private static String readResponse(InputStream in) throws IOException {
        List<Byte> head = new ArrayList<>();
        while (!endsWithBlankLine(head)) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed mid-response: " + head.size() + " bytes");
            }
            head.add((byte) b);
        }
        byte[] raw = new byte[head.size()];
        for (int i = 0; i < raw.length; i++) {
            raw[i] = head.get(i);
        }
        String headers = new String(raw, StandardCharsets.US_ASCII);
        int length = 0;
        for (String line : headers.split("\r\n")) {
            if (line.toLowerCase().startsWith("content-length:")) {
                length = Integer.parseInt(line.substring("content-length:".length()).trim());
            }
        }
        return headers + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    private static boolean endsWithBlankLine(List<Byte> b) {
        int n = b.size();
        return n >= 4 && b.get(n - 4) == '\r' && b.get(n - 3) == '\n' && b.get(n - 2) == '\r' && b.get(n - 1) == '\n';
    }

    private static int readOrTimeout(InputStream in) throws IOException {
        try {
            return in.read();
        } catch (SocketTimeoutException e) {
            return -2;
        }
    }
}

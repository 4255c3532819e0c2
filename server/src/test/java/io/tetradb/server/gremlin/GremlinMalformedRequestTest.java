package io.tetradb.server.gremlin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tetradb.server.ServerConfig;
import io.tetradb.server.TestGremlin;
import io.tetradb.server.TetraDbServer;
import io.tetradb.testing.TestTime;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.Result;
import org.apache.tinkerpop.gremlin.util.message.ResponseMessage;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;
import org.apache.tinkerpop.gremlin.util.ser.GraphBinaryMessageSerializerV1;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a fuzzer sends to the Gremlin port, as raw WebSocket frames: every malformed request is answered with
 * 498 MALFORMED_REQUEST (with its request id when the frame shows one), a GraphBinary length larger than its frame
 * allocates nothing, and the server keeps serving.
 */
class GremlinMalformedRequestTest {
    /** Every frame here is answered: this bound only ends a test whose server hangs. */
    private static final long PATIENCE_SECONDS = TestTime.patience(java.time.Duration.ZERO).toSeconds();

    private static final String GRAPHBINARY = "application/vnd.graphbinary-v1.0";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dataDir;
    static TetraDbServer server;
    static GremlinEndpoint gremlin;

    RawSocket socket;

    @BeforeAll
    static void start() {
        server = new TetraDbServer(ServerConfig.ephemeral(dataDir).withGremlinPort(0)).start();
        gremlin = (GremlinEndpoint) server.endpoint("gremlin");
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void connect() throws Exception {
        socket = new RawSocket(URI.create(gremlin.url()));
    }

    @AfterEach
    void close() {
        socket.ws.abort();
    }

    /** A WebSocket client that keeps each whole message it receives. */
    static final class RawSocket implements WebSocket.Listener {
        final BlockingQueue<Object> messages = new LinkedBlockingQueue<>();
        final WebSocket ws;
        private final StringBuilder text = new StringBuilder();
        private final ByteArrayOutputStream binary = new ByteArrayOutputStream();

        RawSocket(URI uri) throws Exception {
            ws = HttpClient.newHttpClient().newWebSocketBuilder().buildAsync(uri, this)
                    .get(PATIENCE_SECONDS, TimeUnit.SECONDS);
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                messages.add(text.toString());
                text.setLength(0);
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
            byte[] bytes = new byte[data.remaining()];
            data.get(bytes);
            binary.writeBytes(bytes);
            if (last) {
                messages.add(binary.toByteArray());
                binary.reset();
            }
            webSocket.request(1);
            return null;
        }

        Object next() throws InterruptedException {
            Object message = messages.poll(PATIENCE_SECONDS, TimeUnit.SECONDS);
            assertNotNull(message, "no answer: hung");
            return message;
        }
    }

    private JsonNode sendText(String frame) throws Exception {
        socket.ws.sendText(frame, true).get(PATIENCE_SECONDS, TimeUnit.SECONDS);
        Object answer = socket.next();
        return JSON.readTree(answer instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : (String) answer);
    }

    private ResponseMessage sendBinary(byte[] request) throws Exception {
        socket.ws.sendBinary(ByteBuffer.wrap(request), true).get(PATIENCE_SECONDS, TimeUnit.SECONDS);
        byte[] answer = (byte[]) socket.next();
        return new GraphBinaryMessageSerializerV1().deserializeResponse(Unpooled.wrappedBuffer(answer));
    }

    private static void assertMalformed(JsonNode answer, UUID requestId) {
        assertError(answer, requestId, ResponseStatusCode.REQUEST_ERROR_MALFORMED_REQUEST);
    }

    private static void assertError(JsonNode answer, UUID requestId, ResponseStatusCode code) {
        assertEquals(code.getValue(), answer.path("status").path("code").asInt(), answer.toString());
        if (requestId != null) {
            assertEquals(requestId.toString(), answer.path("requestId").asText(), answer.toString());
        }
        assertTrue(!answer.path("status").path("message").asText().contains("\n"), answer.toString());
    }

    private static void stillServing() throws Exception {
        Cluster cluster = TestGremlin.cluster(gremlin.address()).create();
        try {
            Client client = cluster.connect();
            assertEquals(List.of(2), client.submit("1 + 1").all().get().stream().map(Result::getObject).toList());
        } finally {
            cluster.close();
        }
    }

    @Test
    void jsonRequestsWithNullOrMissingFieldsAreAnswered() throws Exception {
        UUID id = UUID.randomUUID();
        String args = "\"args\":{\"gremlin\":\"1 + 1\",\"language\":\"gremlin-groovy\"}";
        assertMalformed(sendText("{\"requestId\":\"" + id + "\",\"op\":\"eval\",\"processor\":null," + args + "}"), id);
        id = UUID.randomUUID();
        assertMalformed(sendText("{\"requestId\":\"" + id + "\",\"op\":null,\"processor\":\"\"," + args + "}"), id);
        id = UUID.randomUUID();
        // no args at all reads as empty args: Gremlin Server's own 499 (the script is missing)
        assertError(sendText("{\"requestId\":\"" + id + "\",\"op\":\"eval\",\"processor\":\"\",\"args\":null}"), id,
                ResponseStatusCode.REQUEST_ERROR_INVALID_REQUEST_ARGUMENTS);
        id = UUID.randomUUID();
        assertMalformed(sendText("{\"requestId\":\"" + id + "\",\"op\":\"eval\",\"processor\":\"\",\"args\":"
                + "{\"gremlin\":\"1\",\"bindings\":\"not a map\"}}"), id);
        assertMalformed(sendText("{\"requestId\":null,\"op\":\"eval\",\"processor\":\"\"," + args + "}"), null);
        assertMalformed(sendText("{\"requestId\":\"not-a-uuid\",\"op\":\"eval\",\"processor\":\"\"," + args + "}"), null);
        assertMalformed(sendText("{\"requestId\":42}"), null);
        assertMalformed(sendText("not json at all"), null);
        assertMalformed(sendText("[]"), null);
        // and a well-formed request on the same connection
        id = UUID.randomUUID();
        JsonNode ok = sendText("{\"requestId\":\"" + id + "\",\"op\":\"eval\",\"processor\":\"\"," + args + "}");
        assertEquals(200, ok.path("status").path("code").asInt(), ok.toString());
        stillServing();
    }

    /**
     * 10,000 nested objects (a 60 KB frame) are refused before Jackson parses them: decoding them on the event loop
     * took it 0.4-1.2 s a frame under load, and a few such frames held every connection's pings past 15 s. Text and
     * binary GraphSON alike; 200 levels (deeper than any driver's request) are still read.
     */
    @Test
    void deeplyNestedGraphsonIsRefusedBeforeItIsParsed() throws Exception {
        String deep = "{\"a\":".repeat(10_000) + "1" + "}".repeat(10_000);
        UUID id = UUID.randomUUID();
        String request = "{\"requestId\":\"" + id + "\",\"op\":\"eval\",\"processor\":\"\",\"args\":{"
                + "\"gremlin\":\"1 + 1\",\"bindings\":" + deep + "}}";
        JsonNode answer = sendText(request);
        assertMalformed(answer, id);
        assertTrue(answer.path("status").path("message").asText().contains("deeper than 256 levels"),
                answer.toString());
        byte[] mime = "application/vnd.gremlin-v3.0+json".getBytes(StandardCharsets.US_ASCII);
        byte[] body = request.getBytes(StandardCharsets.UTF_8);
        byte[] binary = new byte[1 + mime.length + body.length];
        binary[0] = (byte) mime.length;
        System.arraycopy(mime, 0, binary, 1, mime.length);
        System.arraycopy(body, 0, binary, 1 + mime.length, body.length);
        socket.ws.sendBinary(ByteBuffer.wrap(binary), true).get(PATIENCE_SECONDS, TimeUnit.SECONDS);
        Object reply = socket.next();
        answer = JSON.readTree(reply instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : (String) reply);
        assertMalformed(answer, id);
        assertTrue(answer.path("status").path("message").asText().contains("deeper than 256 levels"),
                answer.toString());
        // braces inside strings are not nesting; 200 real levels are an ordinary request
        id = UUID.randomUUID();
        String nested = "{\"a\":".repeat(200) + "\"{{{[[[\"" + "}".repeat(200);
        JsonNode ok = sendText("{\"requestId\":\"" + id + "\",\"op\":\"eval\",\"processor\":\"\",\"args\":{"
                + "\"gremlin\":\"1 + 1\",\"language\":\"gremlin-groovy\",\"bindings\":{\"x\":" + nested + "}}}");
        assertEquals(200, ok.path("status").path("code").asInt(), ok.toString());
        stillServing();
    }

    /** {@code <mime length><mime>} then GraphBinary v1's request: version, id, op, processor, args. */
    private static byte[] graphBinary(UUID id, WriteBody body) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeByte(GRAPHBINARY.length());
        out.writeBytes(GRAPHBINARY);
        out.writeByte(0x81);
        out.writeLong(id.getMostSignificantBits());
        out.writeLong(id.getLeastSignificantBits());
        body.write(out);
        return bytes.toByteArray();
    }

    interface WriteBody {
        void write(DataOutputStream out) throws IOException;
    }

    private static void bareString(DataOutputStream out, String s) throws IOException {
        out.writeInt(s.length());
        out.writeBytes(s);
    }

    @Test
    void graphBinaryLengthsLargerThanTheFrameAreRefusedWithoutAllocating() throws Exception {
        // a huge op string
        UUID id = UUID.randomUUID();
        ResponseMessage answer = sendBinary(graphBinary(id, out -> {
            out.writeInt(Integer.MAX_VALUE - 8);
            out.writeBytes("eval");
        }));
        assertEquals(ResponseStatusCode.REQUEST_ERROR_MALFORMED_REQUEST, answer.getStatus().getCode());
        assertEquals(id, answer.getRequestId());
        assertTrue(answer.getStatus().getMessage().contains("exceeds"), answer.getStatus().getMessage());

        // a huge args map, a huge string inside it, a huge list, a huge predicate argument count
        List<WriteBody> bodies = List.of(
                out -> {
                    bareString(out, "eval");
                    bareString(out, "");
                    out.writeInt(Integer.MAX_VALUE);
                },
                out -> {
                    bareString(out, "eval");
                    bareString(out, "");
                    out.writeInt(1);
                    out.writeByte(0x03);  // String, not null
                    out.writeByte(0x00);
                    bareString(out, "gremlin");
                    out.writeByte(0x03);
                    out.writeByte(0x00);
                    out.writeInt(2_000_000_000);
                    out.writeBytes("g.V()");
                },
                out -> {
                    bareString(out, "eval");
                    bareString(out, "");
                    out.writeInt(1);
                    out.writeByte(0x03);
                    out.writeByte(0x00);
                    bareString(out, "bindings");
                    out.writeByte(0x09);  // List
                    out.writeByte(0x00);
                    out.writeInt(1_500_000_000);
                },
                out -> {
                    bareString(out, "eval");
                    bareString(out, "");
                    out.writeInt(1);
                    out.writeByte(0x03);
                    out.writeByte(0x00);
                    bareString(out, "x");
                    out.writeByte(0x1e);  // P
                    out.writeByte(0x00);
                    bareString(out, "within");
                    out.writeInt(Integer.MAX_VALUE);
                },
                out -> {
                    bareString(out, "eval");
                    bareString(out, "");
                    out.writeInt(-1);
                });
        for (WriteBody body : bodies) {
            UUID each = UUID.randomUUID();
            ResponseMessage refused = sendBinary(graphBinary(each, body));
            assertEquals(ResponseStatusCode.REQUEST_ERROR_MALFORMED_REQUEST, refused.getStatus().getCode(),
                    refused.getStatus().getMessage());
            assertEquals(each, refused.getRequestId());
            // refused by the length check, before anything of that size was allocated
            assertTrue(refused.getStatus().getMessage().contains("length"), refused.getStatus().getMessage());
        }
        stillServing();
    }

    @Test
    void unreadableBinaryFramesAreAnswered() throws Exception {
        for (byte[] frame : new byte[][] {
                {},                                    // empty
                {100, 'a', 'b'},                       // a mime type longer than the frame
                {(byte) -3, 1, 2},                     // a negative mime length
                ("\u0021" + GRAPHBINARY).getBytes(StandardCharsets.US_ASCII),  // mime type, no request
                graphBinaryHeaderWith(new byte[] {0x42, 1, 2, 3})}) {          // not GraphBinary v1
            socket.ws.sendBinary(ByteBuffer.wrap(frame), true).get(PATIENCE_SECONDS, TimeUnit.SECONDS);
            ByteBuf answer = Unpooled.wrappedBuffer((byte[]) socket.next());
            ResponseMessage response = new GraphBinaryMessageSerializerV1().deserializeResponse(answer);
            assertEquals(ResponseStatusCode.REQUEST_ERROR_MALFORMED_REQUEST, response.getStatus().getCode());
        }
        stillServing();
    }

    private static byte[] graphBinaryHeaderWith(byte[] rest) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.write(GRAPHBINARY.length());
        bytes.writeBytes(GRAPHBINARY.getBytes(StandardCharsets.US_ASCII));
        bytes.writeBytes(rest);
        return bytes.toByteArray();
    }
}

package io.tetradb.server.gremlin;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.tetradb.server.ServerConfig;
import io.tetradb.server.TetraDbServer;
import io.tetradb.testing.fuzz.FuzzSettings;
import io.tetradb.testing.fuzz.FuzzTally;
import io.tetradb.testing.fuzz.HttpFuzzer;
import io.tetradb.testing.fuzz.MemoryProbe;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.Result;
import org.apache.tinkerpop.gremlin.util.message.RequestMessage;
import org.apache.tinkerpop.gremlin.util.ser.GraphBinaryMessageSerializerV1;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Gremlin face under hostile input, in two parts: the WebSocket upgrade request itself mutated, and, after a valid
 * upgrade, mutated WebSocket frames (GraphSON text and binary, GraphBinary), frames declaring 2^62 bytes, 10,000
 * levels of JSON, bad UTF-8 and SASL garbage. gremlin-driver must keep working, the canary vertices must read back
 * unchanged, no connection may hang, the heap after GC stays flat. Long form:
 * {@code mvn -pl server verify -Dtest=GremlinFuzzTest -Dtetradb.fuzz.inputs=1000000}.
 */
class GremlinFuzzTest {
    private static final String UPGRADE = "GET /gremlin HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";

    @TempDir
    static Path dataDir;
    static TetraDbServer server;
    static Cluster cluster;
    static Client client;

    @BeforeAll
    static void start() {
        server = new TetraDbServer(ServerConfig.ephemeral(dataDir).withGremlinPort(0)).start();
        InetSocketAddress a = server.endpoint("gremlin").address();
        cluster = Cluster.build(a.getAddress().getHostAddress()).port(a.getPort()).create();
        client = cluster.connect();
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static List<Object> submit(String script) {
        try {
            return client.submit(script).all().get().stream().map(Result::getObject).toList();
        } catch (Exception e) {
            throw new AssertionError("gremlin-driver is no longer served: " + e, e);
        }
    }

    @Test
    void hostileFramesNeitherCrashNorHangNorLeak() throws Exception {
        for (int i = 0; i < 20; i++) {
            submit("g.addV('canary').property('pk','c').property(T.id,'canary" + i + "').property('n'," + i + ")");
        }
        String canaryQuery = "g.V().hasLabel('canary').order().by(T.id).valueMap(true).toList().toString()";
        List<Object> before = submit(canaryQuery);

        FuzzSettings settings = FuzzSettings.fromSystemProperties();
        // the short form keeps to a few hundred upgrades: each costs a WebSocket handshake on a loaded machine
        long perPart = settings.longForm() ? settings.inputs() / 2 : 300;
        FuzzSettings half = new FuzzSettings(perPart, settings.seed(), settings.budget());
        InetSocketAddress target = server.endpoint("gremlin").address();
        Runnable alive = () -> assertEquals(1, submit("g.V('canary0').count().next()").size());
        byte[] upgrade = UPGRADE.getBytes(StandardCharsets.US_ASCII);
        List<byte[]> frames = frames();
        List<byte[]> upgrades = new ArrayList<>();
        for (byte[] frame : frames.subList(0, 3)) {
            byte[] both = new byte[upgrade.length + frame.length];
            System.arraycopy(upgrade, 0, both, 0, upgrade.length);
            System.arraycopy(frame, 0, both, upgrade.length, frame.length);
            upgrades.add(both);
        }
        FuzzTally handshakes = HttpFuzzer.run("gremlin-upgrade", target, upgrades, half, alive);
        FuzzTally framed = HttpFuzzer.run("gremlin-frames", target, upgrade, frames, half, alive);
        long heapAfter = MemoryProbe.heapUsedAfterGc();

        assertTrue(handshakes.hangs().isEmpty(), "hangs: " + handshakes.hangs());
        assertTrue(framed.hangs().isEmpty(), "hangs: " + framed.hangs());
        assertEquals(before, submit(canaryQuery), "the canary vertices are unchanged");
        assertTrue(heapAfter - handshakes.heapBefore() < 64L * 1024 * 1024, "live heap grew by "
                + (heapAfter - handshakes.heapBefore()) / (1024 * 1024) + " MB");
    }

    private static String graphsonRequest(String gremlin) {
        return "{\"requestId\":\"" + UUID.randomUUID() + "\",\"op\":\"eval\",\"processor\":\"\",\"args\":{"
                + "\"gremlin\":\"" + gremlin + "\",\"language\":\"gremlin-groovy\",\"bindings\":{\"x\":1}}}";
    }

    private static byte[] text(String payload) {
        byte[] p = payload.getBytes(StandardCharsets.UTF_8);
        return HttpFuzzer.webSocketFrame(1, p, p.length);
    }

    private static byte[] binaryWithMime(String mime, byte[] body) {
        byte[] m = mime.getBytes(StandardCharsets.US_ASCII);
        byte[] p = new byte[1 + m.length + body.length];
        p[0] = (byte) m.length;
        System.arraycopy(m, 0, p, 1, m.length);
        System.arraycopy(body, 0, p, 1 + m.length, body.length);
        return HttpFuzzer.webSocketFrame(2, p, p.length);
    }

    private static List<byte[]> frames() throws Exception {
        List<byte[]> frames = new ArrayList<>();
        frames.add(text(graphsonRequest("g.V().has('pk','f').count()")));
        frames.add(binaryWithMime("application/vnd.gremlin-v3.0+json",
                graphsonRequest("g.addV('fuzz').property('pk','f').property('s','\\u00e9')")
                        .getBytes(StandardCharsets.UTF_8)));
        ByteBuf graphBinary = new GraphBinaryMessageSerializerV1().serializeRequestAsBinary(RequestMessage
                .build("eval").add("gremlin", "g.V().hasLabel('fuzz').limit(3).valueMap()").create(),
                ByteBufAllocator.DEFAULT);
        byte[] gb = new byte[graphBinary.readableBytes()];
        graphBinary.readBytes(gb);
        graphBinary.release();
        frames.add(HttpFuzzer.webSocketFrame(2, gb, gb.length));
        frames.add(text("{\"requestId\":\"" + UUID.randomUUID() + "\",\"op\":\"eval\",\"args\":{\"gremlin\":\"1\","
                + "\"bindings\":" + HttpFuzzer.deepJson(10_000) + "}}"));
        byte[] bad = graphsonRequest("g.V().count()").getBytes(StandardCharsets.UTF_8);
        bad[bad.length - 60] = (byte) 0xc0;
        bad[bad.length - 59] = (byte) 0xaf;
        frames.add(HttpFuzzer.webSocketFrame(1, bad, bad.length));
        frames.add(HttpFuzzer.webSocketFrame(2, new byte[] {1, 2, 3}, 1L << 62));
        frames.add(HttpFuzzer.webSocketFrame(1, "{".getBytes(StandardCharsets.US_ASCII), 0x7fffffffL));
        frames.add(text("{\"requestId\":\"" + UUID.randomUUID() + "\",\"op\":\"authentication\",\"processor\":\"\","
                + "\"args\":{\"sasl\":\"AGFkbWluAP8A\",\"saslMechanism\":\"PLAIN\"}}"));
        frames.add(HttpFuzzer.webSocketFrame(8, new byte[] {3, (byte) 0xe8}, 2)); // close
        return frames;
    }
}

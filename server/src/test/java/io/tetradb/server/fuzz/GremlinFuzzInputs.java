package io.tetradb.server.fuzz;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.tetradb.testing.fuzz.HttpFuzzer;
import org.apache.tinkerpop.gremlin.util.message.RequestMessage;
import org.apache.tinkerpop.gremlin.util.ser.GraphBinaryMessageSerializerV1;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The Gremlin inputs the fuzz mutates: WebSocket frames after a valid upgrade (GraphSON text and binary, GraphBinary,
 * frames declaring 2^62 bytes, 10,000 levels of JSON, bad UTF-8, SASL garbage, a close), and the upgrade request
 * itself followed by one of the first frames. Shared by {@code gremlin.GremlinFuzzTest} and {@link ProcessFuzzTest}.
 */
public final class GremlinFuzzInputs {
    public static final String UPGRADE = "GET /gremlin HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";

    private GremlinFuzzInputs() {
    }

    public static byte[] upgrade() {
        return UPGRADE.getBytes(StandardCharsets.US_ASCII);
    }

    /** The upgrade request followed at once by each of the first three frames. */
    public static List<byte[]> upgrades() throws Exception {
        byte[] upgrade = upgrade();
        List<byte[]> upgrades = new ArrayList<>();
        for (byte[] frame : frames().subList(0, 3)) {
            byte[] both = new byte[upgrade.length + frame.length];
            System.arraycopy(upgrade, 0, both, 0, upgrade.length);
            System.arraycopy(frame, 0, both, upgrade.length, frame.length);
            upgrades.add(both);
        }
        return upgrades;
    }

    public static List<byte[]> frames() throws Exception {
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
}

package io.tetradb.server.fuzz;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.tetradb.testing.fuzz.HttpFuzzer;
import org.apache.tinkerpop.gremlin.util.message.RequestMessage;
import org.apache.tinkerpop.gremlin.util.ser.GraphBinaryMessageSerializerV1;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

/**
 * Gremlin frames for a server with {@code --gremlin-auth}: SASL PLAIN {@code authentication} requests with the right
 * and wrong passwords of a stored user (each a PBKDF2 check on the server), the Cosmos form
 * ({@code /dbs/DB/colls/COLL} and the key) right and wrong, and SASL garbage: not base64, no NULs, three NULs, an
 * authorization id, 6 KB, an unknown mechanism, none at all; in GraphSON and GraphBinary. A right login makes the
 * later frames on its connection run as that principal, so the fuzz reaches the traversals behind authentication.
 */
final class GremlinAuthInputs {
    private GremlinAuthInputs() {
    }

    static List<byte[]> frames(String user, String password, String cosmosKey) throws Exception {
        List<byte[]> frames = new ArrayList<>(GremlinFuzzInputs.frames());
        String cosmosUser = "/dbs/graphdb/colls/graph";
        frames.add(authentication(plain("", cosmosUser, cosmosKey), "PLAIN"));
        frames.add(authentication(plain("", cosmosUser, cosmosKey), "PLAIN"));
        frames.add(authentication(plain("", user, password), "PLAIN"));
        frames.add(authentication(plain("", user, "wrong-" + password), "PLAIN"));
        frames.add(authentication(plain("", cosmosUser, "d3Jvbmcga2V5"), "PLAIN"));
        frames.add(authentication(plain("", "/dbs/x/colls/y/../../z", cosmosKey), "PLAIN"));
        frames.add(authentication(plain("admin", user, password), "PLAIN"));
        frames.add(authentication(plain("", "nobody", "x"), "PLAIN"));
        frames.add(authentication("%%%not base64%%%", "PLAIN"));
        frames.add(authentication(b64("no nul at all"), "PLAIN"));
        frames.add(authentication(b64("a\0b\0c\0d"), "PLAIN"));
        frames.add(authentication(b64("\0" + user + "\0" + "p".repeat(6000)), "PLAIN"));
        frames.add(authentication(plain("", user, password), "GSSAPI"));
        frames.add(text("{\"requestId\":\"" + UUID.randomUUID() + "\",\"op\":\"authentication\",\"processor\":\"\","
                + "\"args\":{}}"));
        ByteBuf binary = new GraphBinaryMessageSerializerV1().serializeRequestAsBinary(RequestMessage
                .build("authentication").add("sasl", plain("", cosmosUser, cosmosKey)).add("saslMechanism", "PLAIN")
                .create(), ByteBufAllocator.DEFAULT);
        byte[] gb = new byte[binary.readableBytes()];
        binary.readBytes(gb);
        binary.release();
        frames.add(HttpFuzzer.webSocketFrame(2, gb, gb.length));
        return frames;
    }

    /** The upgrade request followed at once by a login (Cosmos form) or by a request before any login. */
    static List<byte[]> upgrades(String cosmosKey) throws Exception {
        byte[] upgrade = GremlinFuzzInputs.upgrade();
        List<byte[]> upgrades = new ArrayList<>(GremlinFuzzInputs.upgrades());
        for (byte[] frame : List.of(authentication(plain("", "/dbs/graphdb/colls/graph", cosmosKey), "PLAIN"),
                authentication("%%%", "PLAIN"))) {
            byte[] both = new byte[upgrade.length + frame.length];
            System.arraycopy(upgrade, 0, both, 0, upgrade.length);
            System.arraycopy(frame, 0, both, upgrade.length, frame.length);
            upgrades.add(both);
        }
        return upgrades;
    }

    private static byte[] authentication(String sasl, String mechanism) {
        return text("{\"requestId\":\"" + UUID.randomUUID() + "\",\"op\":\"authentication\",\"processor\":\"\","
                + "\"args\":{\"sasl\":\"" + sasl + "\",\"saslMechanism\":\"" + mechanism + "\"}}");
    }

    private static String plain(String authzid, String user, String password) {
        return b64(authzid + "\0" + user + "\0" + password);
    }

    private static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] text(String payload) {
        byte[] p = payload.getBytes(StandardCharsets.UTF_8);
        return HttpFuzzer.webSocketFrame(1, p, p.length);
    }
}

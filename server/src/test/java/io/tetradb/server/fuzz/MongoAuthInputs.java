package io.tetradb.server.fuzz;

import org.bson.BsonBinary;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.RawBsonDocument;

import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Authentication handshakes for a Mongo face that has users: SCRAM-SHA-256 conversations started for a real user and
 * finished with a wrong proof (or, one time in three, the right one, so that later inputs on the connection run as
 * that user and reach the commands behind authentication), malformed and truncated SCRAM messages, SCRAM-SHA-1,
 * PLAIN and unknown mechanisms, {@code speculativeAuthenticate}, and commands sent before authenticating.
 * <p>
 * The conversation is stateful: {@link MongoWireFuzzer} keeps the server's first message of the connection's last
 * {@code saslStart} ({@link #SASL_START_ID}) and builds the client's final message from it when the
 * {@link #CLIENT_FINAL} seed is drawn.
 */
final class MongoAuthInputs {
    static final int SASL_START_ID = 0x7361736c;
    /** A marker seed: replaced by a client-final message for the connection's current conversation. */
    static final byte[] CLIENT_FINAL = new byte[] {'f', 'i', 'n', 'a', 'l'};
    private static final String CLIENT_NONCE = "fuzzfuzzfuzzfuzzfuzzfuzz";

    private final String user;
    private final String password;
    /** SaltedPassword per salt and iteration count: the client's PBKDF2, once per run. */
    private final Map<String, byte[]> salted = new ConcurrentHashMap<>();

    MongoAuthInputs(String user, String password) {
        this.user = user;
        this.password = password;
    }

    List<byte[]> seeds() {
        List<byte[]> seeds = new ArrayList<>(MongoFuzzInputs.seeds());
        int id = 100;
        seeds.add(saslStart(SASL_START_ID, "SCRAM-SHA-256", clientFirst(user)));
        seeds.add(saslStart(SASL_START_ID, "SCRAM-SHA-256", clientFirst(user)));
        seeds.add(CLIENT_FINAL);
        seeds.add(CLIENT_FINAL);
        seeds.add(saslStart(id++, "SCRAM-SHA-256", clientFirst("nobody")));
        seeds.add(saslStart(id++, "SCRAM-SHA-1", clientFirst(user)));
        seeds.add(saslStart(id++, "PLAIN", "\0" + user + "\0wrong"));
        seeds.add(saslStart(id++, "GSSAPI", "x"));
        seeds.add(saslStart(id++, "SCRAM-SHA-256", ""));
        seeds.add(saslStart(id++, "SCRAM-SHA-256", "y,,n=" + user + ",r=" + CLIENT_NONCE));
        seeds.add(saslStart(id++, "SCRAM-SHA-256", "p=tls-server-end-point,,n=" + user + ",r=" + CLIENT_NONCE));
        seeds.add(saslStart(id++, "SCRAM-SHA-256", "n,a=admin,n=" + user + ",r=" + CLIENT_NONCE));
        seeds.add(saslStart(id++, "SCRAM-SHA-256", "n,,n=fu=ZZzer,r=" + CLIENT_NONCE));
        seeds.add(saslStart(id++, "SCRAM-SHA-256", "n,,n=" + user + ",r="));
        seeds.add(saslStart(id++, "SCRAM-SHA-256", "n,,n=" + "u".repeat(100_000) + ",r=" + CLIENT_NONCE));
        seeds.add(saslContinue(id++, 1, "c=biws,r=" + CLIENT_NONCE + "xyz,p=" + Base64.getEncoder()
                .encodeToString(new byte[32])));
        seeds.add(saslContinue(id++, Integer.MAX_VALUE, "c=biws"));
        seeds.add(saslContinue(id++, 1, ""));
        seeds.add(MongoFuzzInputs.msg(id++, new BsonDocument("hello", new BsonInt32(1))
                .append("speculativeAuthenticate", new BsonDocument("saslStart", new BsonInt32(1))
                        .append("mechanism", new BsonString("SCRAM-SHA-256"))
                        .append("payload", new BsonBinary(utf8(clientFirst(user))))
                        .append("db", new BsonString("admin")))
                .append("$db", new BsonString("admin"))));
        seeds.add(MongoFuzzInputs.msg(id++, new BsonDocument("createUser", new BsonString("intruder"))
                .append("pwd", new BsonString("x")).append("roles", new org.bson.BsonArray(List.of(
                        new BsonString("root")))).append("$db", new BsonString("admin"))));
        seeds.add(MongoFuzzInputs.msg(id++, new BsonDocument("usersInfo", new BsonInt32(1))
                .append("$db", new BsonString("admin"))));
        seeds.add(MongoFuzzInputs.msg(id, new BsonDocument("logout", new BsonInt32(1))
                .append("$db", new BsonString("admin"))));
        return seeds;
    }

    /**
     * The client-final message for the server-first message {@code serverFirst} of conversation
     * {@code conversationId}: with the right proof when {@code right}, else with a wrong one.
     */
    byte[] clientFinal(int requestId, int conversationId, String serverFirst, boolean right, Random random) {
        Map<String, String> fields = new java.util.HashMap<>();
        for (String part : serverFirst.split(",")) {
            if (part.length() > 2 && part.charAt(1) == '=') {
                fields.put(part.substring(0, 1), part.substring(2));
            }
        }
        String withoutProof = "c=biws,r=" + fields.getOrDefault("r", CLIENT_NONCE);
        byte[] proof = new byte[32];
        if (right && fields.containsKey("s") && fields.containsKey("i")) {
            try {
                proof = proof(fields.get("s"), Integer.parseInt(fields.get("i")),
                        "n=" + user + ",r=" + CLIENT_NONCE + "," + serverFirst + "," + withoutProof);
            } catch (RuntimeException | GeneralSecurityException e) {
                random.nextBytes(proof);
            }
        } else {
            random.nextBytes(proof);
        }
        return saslContinue(requestId, conversationId, withoutProof + ",p=" + Base64.getEncoder().encodeToString(proof));
    }

    /** One conversation as the fuzz builds it, with the right proof, then a {@code find}: whether it is served. */
    boolean logsIn(java.net.InetSocketAddress target) throws java.io.IOException {
        try (java.net.Socket s = new java.net.Socket()) {
            s.connect(target, 15_000);
            s.setSoTimeout(15_000);
            java.io.DataInputStream in = new java.io.DataInputStream(s.getInputStream());
            s.getOutputStream().write(saslStart(SASL_START_ID, "SCRAM-SHA-256", clientFirst(user)));
            Object[] started = serverFirst(readReply(in));
            if (started == null) {
                return false;
            }
            s.getOutputStream().write(clientFinal(2, (Integer) started[0], (String) started[1], true, new Random(1)));
            readReply(in);
            s.getOutputStream().write(MongoFuzzInputs.msg(3, new BsonDocument("find", new BsonString("c"))
                    .append("$db", new BsonString("canary"))));
            byte[] reply = readReply(in);
            RawBsonDocument doc = new RawBsonDocument(reply, 21, reply.length - 21);
            return doc.getNumber("ok").doubleValue() == 1.0;
        }
    }

    private static byte[] readReply(java.io.DataInputStream in) throws java.io.IOException {
        byte[] header = new byte[4];
        in.readFully(header);
        int length = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).getInt();
        byte[] reply = java.util.Arrays.copyOf(header, length);
        in.readFully(reply, 4, length - 4);
        return reply;
    }

    /** RFC 5802's ClientProof: ClientKey XOR HMAC(StoredKey, AuthMessage). */
    private byte[] proof(String salt, int iterations, String authMessage) throws GeneralSecurityException {
        if (iterations < 1 || iterations > 100_000) {
            throw new GeneralSecurityException("iteration count out of range");
        }
        byte[] saltedPassword = salted.computeIfAbsent(salt + "/" + iterations, k -> {
            try {
                return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(new PBEKeySpec(
                        password.toCharArray(), Base64.getDecoder().decode(salt), iterations, 256)).getEncoded();
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        });
        byte[] clientKey = hmac(saltedPassword, "Client Key");
        byte[] signature = hmac(MessageDigest.getInstance("SHA-256").digest(clientKey), authMessage);
        byte[] proof = new byte[clientKey.length];
        for (int i = 0; i < proof.length; i++) {
            proof[i] = (byte) (clientKey[i] ^ signature[i]);
        }
        return proof;
    }

    /** From a reply to {@link #SASL_START_ID}'s OP_MSG: {conversationId, server-first message}, or null. */
    static Object[] serverFirst(byte[] reply) {
        try {
            int length = ByteBuffer.wrap(reply).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
            if (length != reply.length || reply.length < 26 || reply[20] != 0) {
                return null;
            }
            RawBsonDocument doc = new RawBsonDocument(reply, 21, reply.length - 21);
            if (!doc.containsKey("payload") || !doc.containsKey("conversationId")) {
                return null;
            }
            return new Object[] {doc.getInt32("conversationId").getValue(),
                    new String(doc.getBinary("payload").getData(), StandardCharsets.UTF_8)};
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static byte[] hmac(byte[] key, String text) throws GeneralSecurityException {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String clientFirst(String user) {
        return "n,,n=" + user + ",r=" + CLIENT_NONCE;
    }

    private static byte[] saslStart(int id, String mechanism, String payload) {
        return MongoFuzzInputs.msg(id, new BsonDocument("saslStart", new BsonInt32(1))
                .append("mechanism", new BsonString(mechanism)).append("payload", new BsonBinary(utf8(payload)))
                .append("options", new BsonDocument("skipEmptyExchange", BsonBoolean.TRUE))
                .append("$db", new BsonString("admin")));
    }

    private static byte[] saslContinue(int id, int conversationId, String payload) {
        return MongoFuzzInputs.msg(id, new BsonDocument("saslContinue", new BsonInt32(1))
                .append("conversationId", new BsonInt32(conversationId))
                .append("payload", new BsonBinary(utf8(payload))).append("$db", new BsonString("admin")));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}

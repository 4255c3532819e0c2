package io.tetradb.mongo.auth;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * The server side of one SCRAM-SHA-256 exchange (RFC 5802 / 7677): client-first → server-first (nonce, salt,
 * iterations), client-final → proof checked, server-final (server signature). Any deviation fails with
 * AuthenticationFailed (18) without saying which part was wrong.
 */
public final class ScramConversation {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final UserDirectory users;
    private final String database;
    private String user;
    private MongoUsers.Credential credential;
    private String clientFirstBare;
    private String serverFirst;
    private String nonce;
    private boolean complete;

    /** A conversation authenticating a user of {@code database} (the client's authSource). */
    public ScramConversation(UserDirectory users, String database) {
        this.users = users;
        this.database = database;
    }

    public static MongoError failed() {
        return new MongoError(ErrorCode.AUTHENTICATION_FAILED, "Authentication failed.");
    }

    /** The server-first message for the client-first message. */
    public byte[] start(byte[] clientFirst) {
        String message = new String(clientFirst, StandardCharsets.UTF_8);
        if (!message.startsWith("n,")) {
            throw failed(); // channel binding is not offered
        }
        int bare = message.indexOf(',', 2);
        if (bare < 0) {
            throw failed();
        }
        clientFirstBare = message.substring(bare + 1);
        Map<String, String> attrs = attributes(clientFirstBare);
        String name = attrs.get("n");
        String clientNonce = attrs.get("r");
        if (name == null || clientNonce == null || clientNonce.isEmpty()) {
            throw failed();
        }
        user = name.replace("=2C", ",").replace("=3D", "=");
        credential = users.credential(database, user);
        byte[] serverNonce = new byte[24];
        RANDOM.nextBytes(serverNonce);
        nonce = clientNonce + Base64.getEncoder().encodeToString(serverNonce);
        // an unknown user gets a well-formed answer too (a made-up salt), and fails at the proof
        byte[] salt = credential != null ? credential.salt() : MongoUsers.sha256(user.getBytes(StandardCharsets.UTF_8));
        int iterations = credential != null ? credential.iterations() : MongoUsers.ITERATIONS;
        serverFirst = "r=" + nonce + ",s=" + Base64.getEncoder().encodeToString(salt) + ",i=" + iterations;
        return serverFirst.getBytes(StandardCharsets.UTF_8);
    }

    /** The server-final message for the client-final message, once the proof is right. */
    public byte[] finish(byte[] clientFinal) {
        if (serverFirst == null || complete) {
            throw failed();
        }
        String message = new String(clientFinal, StandardCharsets.UTF_8);
        int proofAt = message.lastIndexOf(",p=");
        if (proofAt < 0) {
            throw failed();
        }
        String withoutProof = message.substring(0, proofAt);
        Map<String, String> attrs = attributes(message);
        if (!nonce.equals(attrs.get("r")) || !"biws".equals(attrs.get("c")) || credential == null) {
            throw failed();
        }
        byte[] proof;
        try {
            proof = Base64.getDecoder().decode(attrs.get("p"));
        } catch (IllegalArgumentException e) {
            throw failed();
        }
        String authMessage = clientFirstBare + "," + serverFirst + "," + withoutProof;
        byte[] clientSignature = MongoUsers.hmac(credential.storedKey(), authMessage);
        if (proof.length != clientSignature.length) {
            throw failed();
        }
        byte[] clientKey = new byte[proof.length];
        for (int i = 0; i < proof.length; i++) {
            clientKey[i] = (byte) (proof[i] ^ clientSignature[i]);
        }
        if (!MessageDigest.isEqual(MongoUsers.sha256(clientKey), credential.storedKey())) {
            throw failed();
        }
        complete = true;
        byte[] serverSignature = MongoUsers.hmac(credential.serverKey(), authMessage);
        return ("v=" + Base64.getEncoder().encodeToString(serverSignature)).getBytes(StandardCharsets.UTF_8);
    }

    public boolean complete() {
        return complete;
    }

    public String user() {
        return user;
    }

    /** The database the user was authenticated against. */
    public String database() {
        return database;
    }

    private static Map<String, String> attributes(String message) {
        Map<String, String> out = new HashMap<>();
        for (String part : message.split(",")) {
            if (part.length() >= 2 && part.charAt(1) == '=') {
                out.put(part.substring(0, 1), part.substring(2));
            }
        }
        return out;
    }
}

package io.tetradb.mongo.auth;

import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.text.Normalizer;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * The users the Mongo face is started with (its configuration; users created with {@code createUser} are kept in
 * the store, see {@link UserDirectory}), kept as SCRAM-SHA-256 credentials (salt, iteration count, stored key, server
 * key: RFC 5802 / 7677), never as passwords. Empty: no authentication (for loopback use). A user authenticates
 * against any database name (the face has one user list, not one per database).
 */
public final class MongoUsers {
    /** MongoDB's default SCRAM-SHA-256 iteration count. */
    static final int ITERATIONS = 15_000;

    record Credential(byte[] salt, int iterations, byte[] storedKey, byte[] serverKey) {
    }

    private final Map<String, Credential> users;

    private MongoUsers(Map<String, Credential> users) {
        this.users = Collections.unmodifiableMap(users);
    }

    public static MongoUsers none() {
        return new MongoUsers(Map.of());
    }

    /** Users from names and passwords (the passwords are not kept). */
    public static MongoUsers of(Map<String, String> passwords) {
        Map<String, Credential> out = new HashMap<>();
        passwords.forEach((user, password) -> out.put(user, derive(password)));
        return new MongoUsers(out);
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    /** A new credential for {@code password}: a fresh 28-byte salt (MongoDB's length), MongoDB's iteration count. */
    static Credential derive(String password) {
        byte[] salt = new byte[28];
        RANDOM.nextBytes(salt);
        byte[] salted = saltedPassword(password, salt, ITERATIONS);
        return new Credential(salt, ITERATIONS, sha256(hmac(salted, "Client Key")), hmac(salted, "Server Key"));
    }

    public boolean isEmpty() {
        return users.isEmpty();
    }

    Credential credential(String user) {
        return users.get(user);
    }

    /** PBKDF2-HMAC-SHA-256 of the password (normalised as SASLprep does for the common cases: NFKC). */
    static byte[] saltedPassword(String password, byte[] salt, int iterations) {
        try {
            String prepared = Normalizer.normalize(password, Normalizer.Form.NFKC);
            PBEKeySpec spec = new PBEKeySpec(prepared.toCharArray(), salt, iterations, 256);
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("PBKDF2WithHmacSHA256 is not available", e);
        }
    }

    static byte[] hmac(byte[] key, String message) {
        return hmac(key, message.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] hmac(byte[] key, byte[] message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(message);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}

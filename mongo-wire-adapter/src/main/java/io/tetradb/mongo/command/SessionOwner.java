package io.tetradb.mongo.command;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The user a logical session belongs to, as mongod keeps it: a session is its {@code lsid.id} together with the
 * {@code uid} of the user that started it, the SHA-256 of the user's name {@code user@db} (of the empty string when
 * nobody is authenticated). {@code killAllSessions: [{user, db}]} and {@code killAllSessionsByPattern: [{uid}]}
 * select sessions by it.
 *
 * @param name {@code user@db}, or the empty string for a connection without authentication
 */
public record SessionOwner(String name) {
    public static final SessionOwner UNAUTHENTICATED = new SessionOwner("");

    /** The owner for an authenticated {@code user} of {@code db}; nobody when {@code user} is null. */
    public static SessionOwner of(String user, String db) {
        return user == null ? UNAUTHENTICATED : new SessionOwner(user + "@" + db);
    }

    /** mongod's {@code uid}: SHA-256 of {@code user@db}. */
    public byte[] uid() {
        try {
            return MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}

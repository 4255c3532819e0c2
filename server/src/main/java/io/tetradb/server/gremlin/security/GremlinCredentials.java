package io.tetradb.server.gremlin.security;

import io.tetradb.mongo.auth.StoredUserCheck;
import io.tetradb.mongo.auth.StoredUserCheck.Role;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks the user name and password a Gremlin client sends. {@code /dbs/{db}/colls/{coll}} with a Cosmos key is the
 * Cosmos DB Gremlin API's form (its drivers' settings work unchanged); any other name is a user of the server,
 * {@code name} for a user of the {@code admin} database or {@code name@db} for one of another database.
 */
public final class GremlinCredentials {
    private static final Pattern COSMOS_USER = Pattern.compile("/dbs/([^/]+)/colls/([^/]+)");
    private final StoredUserCheck users;
    /** The Cosmos keys in force, read per login (they may be rotated while the server runs). */
    private final java.util.function.Supplier<String> masterKey;
    private final java.util.function.Supplier<String> readOnlyKey;

    /**
     * @param users       the server's stored users
     * @param masterKey   the Cosmos master key as configured (base64 text)
     * @param readOnlyKey the Cosmos read-only key, or null
     */
    public GremlinCredentials(StoredUserCheck users, String masterKey, String readOnlyKey) {
        this(users, () -> masterKey, () -> readOnlyKey);
    }

    /** As above, with the keys in force at each login. */
    public GremlinCredentials(StoredUserCheck users, java.util.function.Supplier<String> masterKey,
                              java.util.function.Supplier<String> readOnlyKey) {
        this.users = users;
        this.masterKey = masterKey;
        this.readOnlyKey = readOnlyKey;
    }

    /** The principal, or null when the name or the password is wrong. */
    GremlinPrincipal check(String user, String password) {
        if (user == null || password == null || user.isEmpty()) {
            return null;
        }
        Matcher cosmos = COSMOS_USER.matcher(user);
        if (cosmos.matches()) {
            byte[] given = password.getBytes(StandardCharsets.UTF_8);
            if (MessageDigest.isEqual(given, masterKey.get().getBytes(StandardCharsets.UTF_8))) {
                return new GremlinPrincipal.CosmosKey(cosmos.group(1), cosmos.group(2), false);
            }
            String readOnly = readOnlyKey.get();
            if (readOnly != null && MessageDigest.isEqual(given, readOnly.getBytes(StandardCharsets.UTF_8))) {
                return new GremlinPrincipal.CosmosKey(cosmos.group(1), cosmos.group(2), true);
            }
            return null;
        }
        int at = user.lastIndexOf('@');
        String name = at < 0 ? user : user.substring(0, at);
        String db = at < 0 ? "admin" : user.substring(at + 1);
        if (name.isEmpty() || db.isEmpty()) {
            return null;
        }
        List<Role> roles = users.check(db, name, password);
        return roles == null ? null : new GremlinPrincipal.StoredUser(db + "." + name, roles);
    }
}

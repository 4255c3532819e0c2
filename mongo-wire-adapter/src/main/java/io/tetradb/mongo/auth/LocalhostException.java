package io.tetradb.mongo.auth;

import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.util.List;
import java.util.Locale;

/**
 * MongoDB's localhost exception, for a face that requires credentials (bound beyond loopback) while no user exists
 * (none yet, or the last one dropped): a connection from a loopback address gets mongod's bootstrap privileges only —
 * {@code createUser} and {@code grantRole} on the admin database, so it may create the first user with admin roles;
 * anything else is 13 "not authorized on DB to execute command …". A connection from elsewhere gets nothing before
 * it authenticates (13 "Command NAME requires authentication"), as mongod with authorization enabled answers it.
 * The first user closes the exception for every connection (the creating one must then authenticate too).
 */
public final class LocalhostException {
    private LocalhostException() {
    }

    /**
     * Why an unauthenticated connection may not run {@code name} on {@code database} under the exception, or null
     * when it may. {@code open}: the command is one every connection may run before authenticating.
     */
    public static String refusal(boolean loopbackPeer, boolean open, String database, String name,
                                 BsonDocument command) {
        if (open) {
            return null;
        }
        if (!loopbackPeer) {
            return "Command " + name + " requires authentication";
        }
        if (name.toLowerCase(Locale.ROOT).equals("createuser") && database.equals(UserDirectory.DATABASE)) {
            return notGrantable(command.get("roles"));
        }
        if (name.toLowerCase(Locale.ROOT).equals("listdatabases")) {
            return "not authorized on admin to execute command { listDatabases: 1 }"; // no database names
        }
        // no privilege at all beyond bootstrapping: what a user without roles is told
        return Privileges.refusal(List.of(), null, null, database, name, command);
    }

    /** The first role of {@code roles} outside the admin database (mongod grants only admin's roles here), or null. */
    private static String notGrantable(BsonValue roles) {
        if (roles == null || !roles.isArray()) {
            return null; // the command itself answers a missing or mistyped roles field
        }
        for (BsonValue r : roles.asArray()) {
            if (r instanceof BsonDocument d && d.get("db") instanceof BsonString db
                    && !db.getValue().equals(UserDirectory.DATABASE)) {
                String role = d.get("role") instanceof BsonString s ? s.getValue() : String.valueOf(d.get("role"));
                return "Not authorized to grant role: " + role + "@" + db.getValue();
            }
        }
        return null;
    }
}

package io.tetradb.mongo.auth;

import io.tetradb.core.store.CoreStore;
import io.tetradb.mongo.store.MongoCatalog;
import io.tetradb.mongo.store.MongoCollection;
import io.tetradb.mongo.store.StoredDoc;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks a user name and a plain-text password against the users kept in {@code admin.system.users} (made with the
 * Mongo face's {@code createUser}), for the faces whose protocols send a password rather than a SCRAM proof
 * (Gremlin's SASL PLAIN). The stored document is read on every check, so a user created, changed or dropped through
 * the Mongo face counts at once; the password is checked against the SCRAM-SHA-256 stored key, never kept.
 */
public final class StoredUserCheck {
    private final MongoCatalog catalog;

    public StoredUserCheck(CoreStore store) {
        this.catalog = new MongoCatalog(store);
    }

    /** A role granted on a database (or on every database, for the *AnyDatabase roles and root). */
    public record Role(String role, String db) {
    }

    /** The roles of {@code db}'s {@code user} when {@code password} is theirs; null otherwise (unknown or wrong). */
    public List<Role> check(String db, String user, String password) {
        MongoCollection users = catalog.collection(UserDirectory.DATABASE, UserDirectory.COLLECTION);
        if (users == null) {
            return null;
        }
        StoredDoc found = users.findById(new BsonString(db + "." + user), new double[1]);
        if (found == null) {
            return null;
        }
        BsonDocument doc = found.doc();
        MongoUsers.Credential c = UserDirectory.credentialOf(doc);
        if (c == null) {
            return null;
        }
        byte[] salted = MongoUsers.saltedPassword(password, c.salt(), c.iterations());
        byte[] storedKey = MongoUsers.sha256(MongoUsers.hmac(salted, "Client Key"));
        if (!MessageDigest.isEqual(storedKey, c.storedKey())) {
            return null;
        }
        List<Role> roles = new ArrayList<>();
        if (doc.get("roles") != null && doc.get("roles").isArray()) {
            for (BsonValue r : doc.getArray("roles")) {
                if (r.isDocument() && r.asDocument().get("role") instanceof BsonString role) {
                    BsonValue on = r.asDocument().get("db");
                    roles.add(new Role(role.getValue(), on instanceof BsonString s ? s.getValue() : db));
                }
            }
        }
        return roles;
    }
}

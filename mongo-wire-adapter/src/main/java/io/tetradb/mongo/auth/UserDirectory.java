package io.tetradb.mongo.auth;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.store.DocStream;
import io.tetradb.mongo.store.MongoCatalog;
import io.tetradb.mongo.store.MongoCollection;
import io.tetradb.mongo.store.StoredDoc;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every user the face knows: the ones it was started with ({@link MongoUsers}, valid for any authSource) and the ones
 * created with {@code createUser}, kept as MongoDB keeps them — one document per user in {@code admin.system.users}
 * ({@code _id: "db.user"}, {@code userId}, {@code user}, {@code db}, {@code credentials.SCRAM-SHA-256} with the salt,
 * iteration count, stored key and server key, never the password; {@code roles}; {@code customData}). The documents
 * are read once at start and then kept in memory beside the store, so authentication never queries the store; every
 * change is written to the store first. Changes are serialised (one writer at a time).
 */
public final class UserDirectory {
    public static final String DATABASE = "admin";
    public static final String COLLECTION = "system.users";
    public static final String MECHANISM = "SCRAM-SHA-256";

    private final MongoUsers configured;
    private final MongoCatalog catalog;
    /** The stored users' documents by {@code _id} ("db.user"). */
    private final Map<String, BsonDocument> stored = new ConcurrentHashMap<>();

    public UserDirectory(MongoUsers configured, MongoCatalog catalog) {
        this.configured = configured;
        this.catalog = catalog;
        reload();
    }

    /** Reads the stored users again (after admin.system.users or the admin database was dropped or renamed). */
    public synchronized void reload() {
        Map<String, BsonDocument> found = new java.util.HashMap<>();
        MongoCollection users = catalog.collection(DATABASE, COLLECTION);
        if (users != null) {
            for (DocStream all = users.candidates(new BsonDocument()); all.hasNext(); ) {
                BsonDocument user = all.next().doc();
                if (user.get("_id") instanceof BsonString id && credentialOf(user) != null) {
                    found.put(id.getValue(), user);
                }
            }
        }
        stored.keySet().retainAll(found.keySet());
        stored.putAll(found);
    }

    /** No user at all: connections need not authenticate. */
    public boolean isEmpty() {
        return stored.isEmpty() && configured.isEmpty();
    }

    /** The credential of {@code user} of {@code db}, or null: a stored user first, then a configured one. */
    MongoUsers.Credential credential(String db, String user) {
        BsonDocument doc = stored.get(id(db, user));
        if (doc != null) {
            return credentialOf(doc);
        }
        return configured.credential(user);
    }

    /**
     * What {@code db}'s {@code user} may do: a stored user's roles; a user the face was started with is root (it is
     * the operator's own account); nobody else has any.
     */
    public java.util.List<Privileges.Grant> grants(String db, String user) {
        BsonDocument doc = stored.get(id(db, user));
        if (doc != null) {
            return Privileges.grants(doc);
        }
        return configured.credential(user) != null ? java.util.List.of(new Privileges.Grant("root", DATABASE))
                : java.util.List.of();
    }

    /** Whether {@code user} of {@code db} can authenticate: a stored user, or one the face was started with. */
    public boolean exists(String db, String user) {
        return stored.containsKey(id(db, user)) || configured.credential(user) != null;
    }

    /** A stored user's document (credentials included), or null. */
    public BsonDocument get(String db, String user) {
        BsonDocument doc = stored.get(id(db, user));
        return doc == null ? null : doc.clone();
    }

    /** The stored users (of {@code db}, or of every database when null), ordered by user name then database. */
    public List<BsonDocument> list(String db) {
        List<BsonDocument> out = new ArrayList<>();
        for (BsonDocument d : stored.values()) {
            if (db == null || db.equals(d.getString("db").getValue())) {
                out.add(d.clone());
            }
        }
        out.sort(Comparator.comparing((BsonDocument d) -> d.getString("user").getValue())
                .thenComparing(d -> d.getString("db").getValue()));
        return out;
    }

    /** Creates a user; 51003 if it exists. {@code roles}: {@code {role, db}} documents. */
    public synchronized void create(String db, String user, String password, BsonArray roles, BsonDocument customData) {
        String id = id(db, user);
        if (stored.containsKey(id)) {
            throw new MongoError(ErrorCode.USER_ALREADY_EXISTS, "User \"" + user + "@" + db + "\" already exists");
        }
        BsonDocument doc = new BsonDocument("_id", new BsonString(id))
                .append("userId", new BsonBinary(UUID.randomUUID()))
                .append("user", new BsonString(user))
                .append("db", new BsonString(db))
                .append("credentials", credentialsOf(MongoUsers.derive(password)));
        if (customData != null) {
            doc.append("customData", customData);
        }
        doc.append("roles", roles);
        collection().insert(doc);
        stored.put(id, doc);
    }

    /** Changes what is given (a null argument stays as it is); 11 UserNotFound if there is no such user. */
    public synchronized void update(String db, String user, String password, BsonArray roles,
                                    BsonDocument customData) {
        BsonDocument doc = existing(db, user).clone();
        if (password != null) {
            doc.put("credentials", credentialsOf(MongoUsers.derive(password)));
        }
        if (customData != null) {
            doc.put("customData", customData);
        }
        if (roles != null) {
            doc.put("roles", roles);
        }
        write(doc);
    }

    /** The user's roles with {@code add} added (each once) and {@code remove} removed. */
    public synchronized void changeRoles(String db, String user, BsonArray add, BsonArray remove) {
        BsonDocument doc = existing(db, user).clone();
        BsonArray roles = doc.getArray("roles", new BsonArray()).clone();
        for (BsonValue r : add) {
            if (!roles.contains(r)) {
                roles.add(r);
            }
        }
        roles.removeIf(remove::contains);
        doc.put("roles", roles);
        write(doc);
    }

    /** Drops a user; 11 UserNotFound if there is no such user. */
    public synchronized void drop(String db, String user) {
        existing(db, user);
        delete(id(db, user));
    }

    /** Drops every user of {@code db}; how many there were. */
    public synchronized int dropAll(String db) {
        int n = 0;
        for (BsonDocument d : list(db)) {
            delete(d.getString("_id").getValue());
            n++;
        }
        return n;
    }

    private BsonDocument existing(String db, String user) {
        BsonDocument doc = stored.get(id(db, user));
        if (doc == null) {
            throw new MongoError(ErrorCode.USER_NOT_FOUND, "Could not find user \"" + user + "\" for db \"" + db
                    + "\"");
        }
        return doc;
    }

    private void write(BsonDocument doc) {
        String id = doc.getString("_id").getValue();
        MongoCollection users = collection();
        double[] charge = new double[1];
        for (int attempt = 0; ; attempt++) {
            StoredDoc old = users.findById(new BsonString(id), charge);
            if (old == null) {
                users.insert(doc);
                break;
            }
            if (users.replace(old, doc, charge)) {
                break;
            }
            if (attempt > 10) {
                throw new MongoError(ErrorCode.WRITE_CONFLICT, "user " + id + " is being changed by another write");
            }
        }
        stored.put(id, doc);
    }

    private void delete(String id) {
        MongoCollection users = collection();
        double[] charge = new double[1];
        for (int attempt = 0; ; attempt++) {
            StoredDoc old = users.findById(new BsonString(id), charge);
            if (old == null || users.delete(old, charge)) {
                break;
            }
            if (attempt > 10) {
                throw new MongoError(ErrorCode.WRITE_CONFLICT, "user " + id + " is being changed by another write");
            }
        }
        stored.remove(id);
    }

    private MongoCollection collection() {
        return catalog.createIfAbsent(DATABASE, COLLECTION);
    }

    private static String id(String db, String user) {
        return db + "." + user;
    }

    /** MongoDB's {@code credentials} field: base64 salt and keys, the iteration count. */
    private static BsonDocument credentialsOf(MongoUsers.Credential c) {
        Base64.Encoder b64 = Base64.getEncoder();
        return new BsonDocument(MECHANISM, new BsonDocument("iterationCount", new BsonInt32(c.iterations()))
                .append("salt", new BsonString(b64.encodeToString(c.salt())))
                .append("storedKey", new BsonString(b64.encodeToString(c.storedKey())))
                .append("serverKey", new BsonString(b64.encodeToString(c.serverKey()))));
    }

    static MongoUsers.Credential credentialOf(BsonDocument user) {
        try {
            BsonDocument c = user.getDocument("credentials").getDocument(MECHANISM);
            Base64.Decoder b64 = Base64.getDecoder();
            return new MongoUsers.Credential(b64.decode(c.getString("salt").getValue()),
                    c.getNumber("iterationCount").intValue(), b64.decode(c.getString("storedKey").getValue()),
                    b64.decode(c.getString("serverKey").getValue()));
        } catch (RuntimeException notScramSha256) {
            return null;
        }
    }
}

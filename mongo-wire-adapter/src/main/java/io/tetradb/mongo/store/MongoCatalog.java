package io.tetradb.mongo.store;

import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.store.ContainerDefinition;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.CoreStore;
import io.tetradb.core.store.DatabaseDefinition;
import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.Limits;
import io.tetradb.mongo.command.MongoError;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Databases and collections of the Mongo face: a Mongo database is a core database, a collection a core container
 * whose partition key path is {@code /~pk}. No stored document has that property (see
 * {@link io.tetradb.mongo.bson.DocumentMapper}: user names starting with {@code ~} are escaped), so every document of
 * an unsharded collection lives in the one logical partition "none" — Cosmos DB's Mongo API behaviour, and the
 * reason a collection's {@code _id}s are unique and ordered in one key range. Collections and databases are created
 * implicitly by the first write, as in MongoDB.
 */
public final class MongoCatalog {
    public static final String PARTITION_KEY_PATH = "/~pk";
    /** Index definitions of a database's collections live in this collection, as in MongoDB before 3.0. */
    public static final String INDEXES = "system.indexes";

    /** A new collection indexes {@code _id} only; createIndexes adds its fields (see {@link IndexPolicies}). */
    private static com.fasterxml.jackson.databind.JsonNode initialPolicy(String collection) {
        return collection.startsWith("system.") ? IndexPolicies.everything() : IndexPolicies.of(List.of());
    }

    private final CoreStore store;
    private final Map<String, MongoCollection> open = new ConcurrentHashMap<>();
    /** Containers {@link LegacyUpgrade} has run on (or runs on now) in this process. */
    private final java.util.Set<ContainerStore> upgraded = java.util.Collections.newSetFromMap(
            new java.util.concurrent.ConcurrentHashMap<>());
    private final CollectionOptions options = new CollectionOptions(this);

    /** Point finds' documents, current while their partition's write stamp is (see {@link PointReplyCache}). */
    private final PointReplyCache replies;

    public MongoCatalog(CoreStore store) {
        this.store = store;
        this.replies = PointReplyCache.fromSystemProperty(store.onSharedEngine());
        MongoUniqueIndexes.register(store); // the core computes unique indexes' keys with this face's rules
    }

    /** Collections' options (validators). */
    public CollectionOptions options() {
        return options;
    }

    public CoreStore store() {
        return store;
    }

    /**
     * True when the collection has been opened in this process (its one-time conversions ran): a point read of it
     * is then a bounded RocksDB read, which may run on an event loop (mongo-net).
     */
    public boolean isOpen(String db, String name) {
        return open.containsKey(db + "." + name);
    }

    /** The collection, or null when it does not exist. */
    public MongoCollection collection(String db, String name) {
        String key = db + "." + name; // built once per lookup: every command of a collection comes here
        MongoCollection known = open.get(key);
        if (known == null) { // names of a collection opened before were checked then
            checkNames(db, name);
        }
        try {
            ContainerStore c = store.container(db, name);
            return known != null && known.container() == c ? known : wrap(db, name, c);
        } catch (StoreException e) {
            if (e.status() == Status.NOT_FOUND) {
                return null;
            }
            throw e;
        }
    }

    /** The collection, created (with its database) if it does not exist. */
    public MongoCollection createIfAbsent(String db, String name) {
        MongoCollection existing = collection(db, name);
        if (existing != null) {
            return existing;
        }
        create(db, name, false);
        return collection(db, name);
    }

    /** Creates a collection; NamespaceExists (48) if it exists and {@code failIfExists}. */
    public void create(String db, String name, boolean failIfExists) {
        create(db, name, failIfExists, null);
    }

    /** As {@link #create(String, String, boolean)} with the collection's own throughput (RU/s; null: none). */
    public void create(String db, String name, boolean failIfExists, Integer throughput) {
        checkNames(db, name);
        try {
            store.createDatabase(db, null);
        } catch (StoreException e) {
            if (e.status() != Status.CONFLICT) {
                throw e;
            }
        }
        try {
            store.createContainer(db, name, PartitionKeyDefinition.of(PARTITION_KEY_PATH),
                    initialPolicy(name), null, throughput, null, Limits.MAX_STORED_ITEM_BYTES);
            keepChanges(db, name);
        } catch (StoreException e) {
            if (e.status() != Status.CONFLICT) {
                throw e;
            }
            if (failIfExists) {
                throw new MongoError(ErrorCode.NAMESPACE_EXISTS, "Collection " + db + "." + name + " already exists.");
            }
        }
    }

    /**
     * Makes {@code field} the shard key of a collection: its container's partition key becomes {@code /field}, so each
     * shard key value is a logical partition (Cosmos DB's Mongo API). A collection that already holds documents
     * cannot be sharded (its documents would have to move); an empty one is created again.
     */
    public void shard(String db, String name, String field) {
        shard(db, name, field, null);
    }

    /** As {@link #shard(String, String, String)}, creating the collection with its own throughput (null: none). */
    public void shard(String db, String name, String field, Integer throughput) {
        checkNames(db, name);
        if (!field.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new MongoError(ErrorCode.BAD_VALUE, "the shard key must be one top-level field with a plain name, "
                    + "not '" + field + "'");
        }
        String path = "/" + io.tetradb.mongo.bson.DocumentMapper.storedName(field);
        MongoCollection existing = collection(db, name);
        if (existing != null) {
            if (path.equals(existing.container().definition().partitionKey().paths().get(0))) {
                return;
            }
            DocStream any = existing.candidates(new org.bson.BsonDocument());
            if (any.hasNext()) {
                throw new MongoError(ErrorCode.ILLEGAL_OPERATION, "collection " + db + "." + name + " already has "
                        + "documents: shard it before inserting");
            }
            drop(db, name);
        }
        try {
            store.createDatabase(db, null);
        } catch (StoreException e) {
            if (e.status() != Status.CONFLICT) {
                throw e;
            }
        }
        store.createContainer(db, name, PartitionKeyDefinition.of(path), initialPolicy(name), null, throughput, null,
                Limits.MAX_STORED_ITEM_BYTES);
        keepChanges(db, name);
    }

    /** A user collection's feed keeps every change with its images, for change streams (see FeedAdapter). */
    private void keepChanges(String db, String name) {
        if (!name.startsWith("system.")) {
            io.tetradb.mongo.changestream.FeedAdapter.keepAllVersions(store.container(db, name));
        }
    }

    /** Drops a collection; false if it did not exist. */
    public boolean drop(String db, String name) {
        checkNames(db, name);
        open.remove(db + "." + name);
        try {
            store.deleteContainer(db, name);
            if (!name.startsWith("system.")) {
                options.forget(db, name);
            }
            return true;
        } catch (StoreException e) {
            if (e.status() == Status.NOT_FOUND) {
                return false;
            }
            throw e;
        }
    }

    public boolean dropDatabase(String db) {
        open.keySet().removeIf(k -> k.startsWith(db + "."));
        try {
            store.deleteDatabase(db);
            return true;
        } catch (StoreException e) {
            if (e.status() == Status.NOT_FOUND) {
                return false;
            }
            throw e;
        }
    }

    public List<String> databases() {
        List<String> out = new ArrayList<>();
        for (DatabaseDefinition d : store.listDatabases()) {
            out.add(d.id());
        }
        return out;
    }

    /**
     * Whether a database exists as MongoDB sees it: it holds a collection (a user one, or a system collection a client
     * writes such as admin.system.users), not only this face's own {@link #INDEXES}; a database whose last collection
     * was dropped does not exist.
     */
    public boolean hasCollections(String db) {
        try {
            // this face's own catalogs (indexes, collection options) outlive the collections they describe
            return store.listContainers(db).stream()
                    .anyMatch(c -> !c.id().equals(INDEXES) && !c.id().equals(CollectionOptions.NAMESPACES));
        } catch (StoreException e) {
            if (e.status() == Status.NOT_FOUND) {
                return false;
            }
            throw e;
        }
    }

    /** The user collections of a database (system collections left out); empty if the database does not exist. */
    public List<ContainerDefinition> collections(String db) {
        try {
            return store.listContainers(db).stream().filter(c -> !c.id().startsWith("system.")).toList();
        } catch (StoreException e) {
            if (e.status() == Status.NOT_FOUND) {
                return List.of();
            }
            throw e;
        }
    }

    private MongoCollection wrap(String db, String name, ContainerStore c) {
        MongoCollection m = open.get(db + "." + name);
        if (m == null || m.container() != c) {
            m = new MongoCollection(db, name, c, replies);
            open.put(db + "." + name, m);
            if (upgraded.add(c)) {
                LegacyUpgrade.run(this, m); // documents of the earlier shape become typed values, once
                ItemIdUpgrade.run(this, m); // documents under the earlier id encoding move to their id, once
            }
        }
        return m;
    }

    private static final java.util.regex.Pattern BAD_DB_NAME = java.util.regex.Pattern.compile("[/\\\\. \"$*<>:|?#\\x00]");

    static void checkNames(String db, String name) {
        if (db == null || db.isEmpty() || db.length() > 64 || BAD_DB_NAME.matcher(db).find()) {
            throw new MongoError(ErrorCode.INVALID_NAMESPACE, "Invalid database name: '" + db + "'");
        }
        if (name == null || name.isEmpty() || name.contains("$") || name.contains("\0") || name.startsWith(".")
                || name.length() > 255) {
            throw new MongoError(ErrorCode.INVALID_NAMESPACE, "Invalid collection name: '" + name + "'");
        }
        for (char c : new char[]{'/', '\\', '?', '#'}) {
            if (name.indexOf(c) >= 0) {
                throw new MongoError(ErrorCode.INVALID_NAMESPACE, "Invalid collection name: '" + name
                        + "': this server's collection names cannot contain / \\ ? or #");
            }
        }
    }
}

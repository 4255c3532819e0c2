package io.tetradb.mongo.command;

import io.tetradb.core.store.ContainerDefinition;
import io.tetradb.core.store.PartitionStatistics;
import io.tetradb.mongo.query.FilterMatcher;
import io.tetradb.mongo.store.IndexCatalog;
import io.tetradb.mongo.store.MongoCatalog;
import io.tetradb.mongo.store.MongoCollection;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;

import java.util.ArrayList;
import java.util.List;

/** listDatabases, listCollections, create, drop, dropDatabase, collStats, dbStats. */
final class DatabaseCommands {
    private final MongoCatalog catalog;
    private final IndexCatalog indexes;

    DatabaseCommands(MongoCatalog catalog, IndexCatalog indexes) {
        this.catalog = catalog;
        this.indexes = indexes;
    }

    private Runnable usersChanged = () -> {
    };

    /** Which databases listDatabases shows a connection (null: all); see AuthCommands#listedDatabases. */
    private java.util.function.BiFunction<CommandContext, BsonDocument, java.util.function.Predicate<String>> listed =
            (ctx, cmd) -> null;

    void listedDatabases(java.util.function.BiFunction<CommandContext, BsonDocument,
            java.util.function.Predicate<String>> rule) {
        this.listed = rule;
    }

    /** What to run when admin.system.users may have gone (a drop, a rename, admin's dropDatabase). */
    void onUsersChanged(Runnable action) {
        this.usersChanged = action;
    }

    private void touched(String db, String collection) {
        if (db.equals(io.tetradb.mongo.auth.UserDirectory.DATABASE)
                && (collection == null || collection.equals(io.tetradb.mongo.auth.UserDirectory.COLLECTION))) {
            usersChanged.run();
        }
    }

    void register(CommandDispatcher d) {
        d.register("listDatabases", this::listDatabases);
        d.register("listCollections", this::listCollections);
        d.register("create", this::create);
        d.register("drop", this::drop);
        d.register("dropDatabase", this::dropDatabase);
        d.register("collStats", this::collStats);
        d.register("dbStats", this::dbStats);
        d.register("validate", new CollectionValidation(catalog, indexes)::validate);
        d.register("shardCollection", this::shardCollection);
        d.register("renameCollection", this::renameCollection);
        d.register("enableSharding", (ctx, cmd) -> Replies.ok());
    }

    /**
     * {@code {shardCollection: "db.coll", key: {field: "hashed"}}} on admin: the field becomes the partition key of the
     * collection's container. Answered as Cosmos DB's Mongo API answers it.
     */
    private BsonDocument shardCollection(CommandContext ctx, BsonDocument cmd) {
        String ns = Args.string(cmd, "shardCollection");
        int dot = ns.indexOf('.');
        if (dot <= 0 || dot == ns.length() - 1) {
            throw new MongoError(ErrorCode.INVALID_NAMESPACE, "shardCollection needs 'db.collection', not '" + ns + "'");
        }
        BsonDocument key = Args.document(cmd, "key");
        if (key.size() != 1) {
            throw new MongoError(ErrorCode.BAD_VALUE, "the shard key must have exactly one field (Cosmos DB's rule)");
        }
        io.tetradb.mongo.store.MongoCollection existing = catalog.collection(ns.substring(0, dot),
                ns.substring(dot + 1));
        if (existing != null) { // MongoDB's rule: a unique index must start with the shard key to stay enforceable
            for (BsonDocument unique : indexes.uniqueKeys(existing)) {
                if (!unique.getDocument("key").getFirstKey().equals(key.getFirstKey())) {
                    throw new MongoError(ErrorCode.INVALID_OPTIONS, "can't shard collection '" + ns + "' with unique "
                            + "index on " + io.tetradb.mongo.bson.BsonText.of(unique.getDocument("key"))
                            + " and proposed shard key " + io.tetradb.mongo.bson.BsonText.of(key)
                            + ". Uniqueness can't be maintained unless shard key is a prefix");
                }
            }
        }
        catalog.shard(ns.substring(0, dot), ns.substring(dot + 1), key.getFirstKey());
        return new BsonDocument("_t", new BsonString("ShardCollectionResponse")).append("ok", new org.bson.BsonDouble(1))
                .append("collectionsharded", new BsonString(ns));
    }

    private BsonDocument listDatabases(CommandContext ctx, BsonDocument cmd) {
        boolean nameOnly = Args.bool(cmd, "nameOnly", false);
        FilterMatcher filter = FilterMatcher.compile(Args.document(cmd, "filter"));
        java.util.function.Predicate<String> visible = listed.apply(ctx, cmd);
        BsonArray dbs = new BsonArray();
        long total = 0;
        for (String db : catalog.databases()) {
            if (!catalog.hasCollections(db)) {
                continue; // MongoDB: a database is gone with its last collection
            }
            if (visible != null && !visible.test(db)) {
                continue; // authorizedDatabases: only those the user holds a role on
            }
            long size = sizeOf(db);
            BsonDocument d = new BsonDocument("name", new BsonString(db));
            if (!nameOnly) {
                d.append("sizeOnDisk", new BsonInt64(size)).append("empty", BsonBoolean.valueOf(size == 0));
            }
            if (filter.test(d)) {
                dbs.add(d);
                total += size;
            }
        }
        BsonDocument reply = new BsonDocument("databases", dbs);
        if (!nameOnly) {
            reply.append("totalSize", new BsonInt64(total)).append("totalSizeMb", new BsonInt64(total / (1024 * 1024)));
        }
        return Replies.ok(reply);
    }

    private long sizeOf(String db) {
        long bytes = 0;
        for (PartitionStatistics p : catalog.store().partitionStatistics()) {
            if (p.database().equals(db)) {
                bytes += bytes(p);
            }
        }
        return bytes;
    }

    private static long bytes(PartitionStatistics p) {
        return p.physicalPartitions().stream().mapToLong(PartitionStatistics.Physical::bytes).sum();
    }

    private static long items(PartitionStatistics p) {
        return p.physicalPartitions().stream().mapToLong(PartitionStatistics.Physical::itemCount).sum();
    }

    private BsonDocument listCollections(CommandContext ctx, BsonDocument cmd) {
        boolean nameOnly = Args.bool(cmd, "nameOnly", false);
        FilterMatcher filter = FilterMatcher.compile(Args.document(cmd, "filter"));
        List<BsonDocument> out = new ArrayList<>();
        for (ContainerDefinition c : catalog.collections(ctx.database())) {
            BsonDocument d = new BsonDocument("name", new BsonString(c.id()))
                    .append("type", new BsonString("collection"));
            if (!nameOnly) {
                MongoCollection coll = catalog.collection(ctx.database(), c.id());
                d.append("options", coll == null ? new BsonDocument() : catalog.options().of(coll))
                        .append("info", new BsonDocument("readOnly", BsonBoolean.FALSE))
                        .append("idIndex", new BsonDocument("v", new BsonInt32(2))
                                .append("key", new BsonDocument("_id", new BsonInt32(1)))
                                .append("name", new BsonString("_id_")));
            }
            if (filter.test(d)) {
                out.add(nameOnly ? new BsonDocument("name", d.get("name")).append("type", d.get("type")) : d);
            }
        }
        return Replies.cursor("firstBatch", 0, ctx.database() + ".$cmd.listCollections", out);
    }

    private BsonDocument create(CommandContext ctx, BsonDocument cmd) {
        String name = Args.string(cmd, "create");
        for (String option : cmd.keySet()) {
            boolean off = cmd.get(option).isBoolean() && !cmd.getBoolean(option).getValue();
            if (!off && List.of("capped", "timeseries", "viewOn", "pipeline", "clusteredIndex", "collation",
                    "expireAfterSeconds", "encryptedFields").contains(option)) {
                throw new MongoError(ErrorCode.NOT_IMPLEMENTED, "create with '" + option + "' is not supported");
            }
        }
        CollectionOptionsCommands.checkCreateFields(cmd);
        BsonDocument options = CollectionOptionsCommands.validationOptions(ctx.database() + "." + name, cmd);
        if (cmd.containsKey(io.tetradb.mongo.changestream.PrePostImages.OPTION)) {
            options.append(io.tetradb.mongo.changestream.PrePostImages.OPTION, io.tetradb.mongo.changestream
                    .PrePostImages.checked("create", cmd.get(io.tetradb.mongo.changestream.PrePostImages.OPTION)));
        }
        catalog.create(ctx.database(), name, true);
        if (!options.isEmpty()) {
            catalog.options().set(catalog.collection(ctx.database(), name), options);
        }
        return Replies.ok();
    }

    private BsonDocument drop(CommandContext ctx, BsonDocument cmd) {
        String name = Args.string(cmd, "drop");
        if (!catalog.drop(ctx.database(), name)) {
            // MongoDB 7.0 answers ok for a missing collection
            return Replies.ok(new BsonDocument("ns", new BsonString(ctx.database() + "." + name)));
        }
        indexes.dropAll(ctx.database(), name);
        touched(ctx.database(), name);
        return Replies.ok(new BsonDocument("ns", new BsonString(ctx.database() + "." + name))
                .append("nIndexesWas", new BsonInt32(1)));
    }

    /**
     * {@code {renameCollection: "db.a", to: "db.b", dropTarget}}: the core has no rename, so the documents are copied
     * into the new collection (in core batches), the index definitions follow, and the old collection is dropped.
     * Not atomic: a crash in between leaves both collections (nothing is lost).
     */
    private BsonDocument renameCollection(CommandContext ctx, BsonDocument cmd) {
        String[] from = namespace(Args.string(cmd, "renameCollection"));
        String[] to = namespace(Args.string(cmd, "to"));
        boolean dropTarget = Args.bool(cmd, "dropTarget", false);
        MongoCollection source = catalog.collection(from[0], from[1]);
        if (source == null) {
            throw new MongoError(ErrorCode.NAMESPACE_NOT_FOUND, "Source collection " + from[0] + "." + from[1]
                    + " does not exist");
        }
        if (from[0].equals(to[0]) && from[1].equals(to[1])) {
            throw new MongoError(ErrorCode.ILLEGAL_OPERATION, "Can't rename a collection to itself");
        }
        if (catalog.collection(to[0], to[1]) != null) {
            if (!dropTarget) {
                throw new MongoError(ErrorCode.NAMESPACE_EXISTS, "target namespace exists");
            }
            catalog.drop(to[0], to[1]);
            indexes.dropAll(to[0], to[1]);
        }
        if (source.shardField() != null) {
            catalog.shard(to[0], to[1], source.shardField());
        } else {
            catalog.create(to[0], to[1], true);
        }
        MongoCollection target = catalog.collection(to[0], to[1]);
        io.tetradb.mongo.store.DocStream all = source.candidates(new BsonDocument());
        List<BsonDocument> chunk = new ArrayList<>();
        double[] charge = new double[1];
        while (all.hasNext()) {
            chunk.add(all.next().doc());
            if (chunk.size() == 100 || !all.hasNext()) {
                for (RuntimeException e : target.insertAll(chunk, true, charge)) {
                    if (e != null) {
                        throw MongoErrors.of(e);
                    }
                }
                chunk.clear();
            }
        }
        BsonDocument options = catalog.options().of(source);
        if (!options.isEmpty()) {
            catalog.options().set(target, options); // the validator moves along
        }
        for (BsonDocument spec : indexes.list(source)) {
            if (!spec.getString("name").getValue().equals("_id_")) {
                indexes.create(target, spec);
            }
        }
        catalog.drop(from[0], from[1]);
        indexes.dropAll(from[0], from[1]);
        touched(from[0], from[1]);
        touched(to[0], to[1]);
        ctx.charge(charge[0] + all.takeRequestCharge());
        return Replies.ok();
    }

    private static String[] namespace(String ns) {
        int dot = ns.indexOf('.');
        if (dot <= 0 || dot == ns.length() - 1) {
            throw new MongoError(ErrorCode.INVALID_NAMESPACE, "Invalid namespace specified '" + ns + "'");
        }
        return new String[]{ns.substring(0, dot), ns.substring(dot + 1)};
    }

    private BsonDocument dropDatabase(CommandContext ctx, BsonDocument cmd) {
        catalog.dropDatabase(ctx.database());
        touched(ctx.database(), null);
        return Replies.ok(new BsonDocument("dropped", new BsonString(ctx.database())));
    }

    /**
     * {@code collStats}: as MongoDB 7.0, a collection that does not exist answers ok with zero counts (the command
     * ignores NamespaceNotFound); numbers are typed as mongod's {@code appendNumber} types them.
     */
    private BsonDocument collStats(CommandContext ctx, BsonDocument cmd) {
        String name = Args.string(cmd, "collStats");
        long scale = scale(cmd);
        if (catalog.collection(ctx.database(), name) == null) {
            return Replies.ok(new BsonDocument("ns", new BsonString(ctx.database() + "." + name))
                    .append("size", new BsonInt32(0)).append("count", new BsonInt32(0))
                    .append("numOrphanDocs", new BsonInt32(0)).append("storageSize", new BsonInt32(0))
                    .append("totalSize", new BsonInt32(0)).append("nindexes", new BsonInt32(0))
                    .append("totalIndexSize", new BsonInt32(0)).append("indexDetails", new BsonDocument())
                    .append("indexSizes", new BsonDocument()).append("scaleFactor", new BsonInt32((int) scale)));
        }
        return Replies.ok(storageStats(ctx.database(), name, scale));
    }

    private static long scale(BsonDocument cmd) {
        long scale = Args.number(cmd, "scale", 1);
        if (scale <= 0 || scale > (1L << 50)) {
            throw new MongoError(ErrorCode.BAD_VALUE,
                    "Scale factor must be greater than zero and less than or equal to 2^50");
        }
        return scale;
    }

    /** mongod's {@code appendNumber} of a 64-bit count: an int while it is well inside the int range. */
    static org.bson.BsonNumber number(long v) {
        return v > -(1L << 30) && v < (1L << 30) ? new BsonInt32((int) v) : new BsonInt64(v);
    }

    /** {@link #storageStats(String, String, long)} unscaled ({@code $collStats}' storageStats). */
    BsonDocument storageStats(String db, String name) {
        return storageStats(db, name, 1);
    }

    /**
     * A collection's sizes from the core's partition statistics (the logical bytes of its items, index entries
     * included, so the indexes have no separate size): MongoDB 7.0's {@code size, count, avgObjSize, numOrphanDocs,
     * storageSize, freeStorageSize, capped, nindexes, indexDetails, indexBuilds, totalIndexSize, indexSizes,
     * totalSize, scaleFactor}. NamespaceNotFound (26) if the collection does not exist.
     */
    BsonDocument storageStats(String db, String name, long scale) {
        MongoCollection coll = catalog.collection(db, name);
        if (coll == null) {
            throw new MongoError(ErrorCode.NAMESPACE_NOT_FOUND, "Collection [" + db + "." + name + "] not found.");
        }
        long count = 0;
        long bytes = 0;
        for (PartitionStatistics p : catalog.store().partitionStatistics()) {
            if (p.database().equals(db) && p.container().equals(name)) {
                count += items(p);
                bytes += bytes(p);
            }
        }
        BsonDocument indexSizes = new BsonDocument();
        BsonDocument indexDetails = new BsonDocument();
        for (BsonDocument spec : indexes.list(coll)) {
            indexSizes.append(spec.getString("name").getValue(), new BsonInt32(0));
            indexDetails.append(spec.getString("name").getValue(), new BsonDocument());
        }
        BsonDocument out = new BsonDocument("ns", new BsonString(coll.namespace()))
                .append("size", number(bytes / scale)).append("count", number(count));
        if (count > 0) {
            out.append("avgObjSize", new BsonInt32((int) (bytes / count)));
        }
        return out.append("numOrphanDocs", new BsonInt32(0))
                .append("storageSize", number(bytes / scale)).append("freeStorageSize", new BsonInt32(0))
                .append("capped", BsonBoolean.FALSE)
                .append("nindexes", new BsonInt32(indexSizes.size())).append("indexDetails", indexDetails)
                .append("indexBuilds", new BsonArray())
                .append("totalIndexSize", new BsonInt32(0)).append("indexSizes", indexSizes)
                .append("totalSize", number(bytes / scale)).append("scaleFactor", new BsonInt32((int) scale));
    }

    /**
     * {@code dbStats} typed as MongoDB 7.0 types it (counts as longs, sizes as doubles), over the database's
     * collections only: neither this face's own index catalog ({@code system.indexes}) nor other system collections
     * count as collections or objects.
     */
    private BsonDocument dbStats(CommandContext ctx, BsonDocument cmd) {
        long scale = scale(cmd);
        java.util.Set<String> collections = new java.util.HashSet<>();
        long nIndexes = 0;
        for (ContainerDefinition c : catalog.collections(ctx.database())) {
            collections.add(c.id());
            MongoCollection coll = catalog.collection(ctx.database(), c.id());
            nIndexes += coll == null ? 0 : indexes.list(coll).size();
        }
        long objects = 0;
        long bytes = 0;
        for (PartitionStatistics p : catalog.store().partitionStatistics()) {
            if (p.database().equals(ctx.database()) && collections.contains(p.container())) {
                objects += items(p);
                bytes += bytes(p);
            }
        }
        double size = (double) bytes / scale;
        BsonDocument reply = new BsonDocument("db", new BsonString(ctx.database()))
                .append("collections", new BsonInt64(collections.size()))
                .append("views", new BsonInt64(0))
                .append("objects", new BsonInt64(objects))
                .append("avgObjSize", new org.bson.BsonDouble(objects == 0 ? 0 : (double) bytes / objects))
                .append("dataSize", new org.bson.BsonDouble(size))
                .append("storageSize", new org.bson.BsonDouble(size))
                .append("indexes", new BsonInt64(nIndexes))
                .append("indexSize", new org.bson.BsonDouble(0))
                .append("totalSize", new org.bson.BsonDouble(size))
                .append("scaleFactor", new BsonInt64(scale));
        try {
            // the file system holding the data directory, as mongod reports its dbPath's
            java.nio.file.FileStore fs = java.nio.file.Files.getFileStore(catalog.store().config().dataDirectory());
            reply.append("fsUsedSize", new org.bson.BsonDouble((double) (fs.getTotalSpace() - fs.getUnallocatedSpace())
                    / scale)).append("fsTotalSize", new org.bson.BsonDouble((double) fs.getTotalSpace() / scale));
        } catch (java.io.IOException | RuntimeException unknown) {
            // an in-memory or unreadable location: left out, as mongod leaves them out for an in-memory engine
        }
        return Replies.ok(reply);
    }
}

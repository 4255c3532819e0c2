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

    void register(CommandDispatcher d) {
        d.register("listDatabases", this::listDatabases);
        d.register("listCollections", this::listCollections);
        d.register("create", this::create);
        d.register("drop", this::drop);
        d.register("dropDatabase", this::dropDatabase);
        d.register("collStats", this::collStats);
        d.register("dbStats", this::dbStats);
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
        catalog.shard(ns.substring(0, dot), ns.substring(dot + 1), key.getFirstKey());
        return new BsonDocument("_t", new BsonString("ShardCollectionResponse")).append("ok", new org.bson.BsonDouble(1))
                .append("collectionsharded", new BsonString(ns));
    }

    private BsonDocument listDatabases(CommandContext ctx, BsonDocument cmd) {
        boolean nameOnly = Args.bool(cmd, "nameOnly", false);
        FilterMatcher filter = FilterMatcher.compile(Args.document(cmd, "filter"));
        BsonArray dbs = new BsonArray();
        long total = 0;
        for (String db : catalog.databases()) {
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
            reply.append("totalSize", new BsonInt64(total));
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
                    "expireAfterSeconds", "changeStreamPreAndPostImages", "encryptedFields").contains(option)) {
                throw new MongoError(ErrorCode.NOT_IMPLEMENTED, "create with '" + option + "' is not supported");
            }
        }
        CollectionOptionsCommands.checkCreateFields(cmd);
        BsonDocument options = CollectionOptionsCommands.validationOptions(ctx.database() + "." + name, cmd);
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
        return Replies.ok(new BsonDocument("dropped", new BsonString(ctx.database())));
    }

    private BsonDocument collStats(CommandContext ctx, BsonDocument cmd) {
        String name = Args.string(cmd, "collStats");
        return Replies.ok(storageStats(ctx.database(), name).append("capped", BsonBoolean.FALSE));
    }

    /**
     * A collection's sizes from the core's partition statistics (the logical bytes of its items, index entries
     * included): {@code ns, count, size, avgObjSize, storageSize, nindexes, totalIndexSize, indexSizes}.
     */
    BsonDocument storageStats(String db, String name) {
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
        for (BsonDocument spec : indexes.list(coll)) {
            indexSizes.append(spec.getString("name").getValue(), new BsonInt64(0));
        }
        return new BsonDocument("ns", new BsonString(coll.namespace()))
                .append("count", new BsonInt64(count)).append("size", new BsonInt64(bytes))
                .append("avgObjSize", new BsonInt64(count == 0 ? 0 : bytes / count))
                .append("storageSize", new BsonInt64(bytes)).append("nindexes", new BsonInt32(indexSizes.size()))
                .append("totalIndexSize", new BsonInt64(0)).append("indexSizes", indexSizes);
    }

    private BsonDocument dbStats(CommandContext ctx, BsonDocument cmd) {
        long objects = 0;
        long bytes = 0;
        for (PartitionStatistics p : catalog.store().partitionStatistics()) {
            if (p.database().equals(ctx.database())) {
                objects += items(p);
                bytes += bytes(p);
            }
        }
        return Replies.ok(new BsonDocument("db", new BsonString(ctx.database()))
                .append("collections", new BsonInt32(catalog.collections(ctx.database()).size()))
                .append("objects", new BsonInt64(objects)).append("dataSize", new BsonInt64(bytes))
                .append("storageSize", new BsonInt64(bytes)));
    }
}

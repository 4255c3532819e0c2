package io.tetradb.mongo.command;

import io.tetradb.mongo.store.IndexCatalog;
import io.tetradb.mongo.store.MongoCatalog;
import io.tetradb.mongo.store.MongoCollection;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.util.List;

/** createIndexes, listIndexes, dropIndexes over {@link IndexCatalog}. */
final class IndexCommands {
    private final MongoCatalog catalog;
    private final IndexCatalog indexes;

    IndexCommands(MongoCatalog catalog, IndexCatalog indexes) {
        this.catalog = catalog;
        this.indexes = indexes;
    }

    void register(CommandDispatcher d) {
        d.register("createIndexes", this::createIndexes);
        d.register("listIndexes", this::listIndexes);
        d.registerAnyCase("dropIndexes", this::dropIndexes);
        d.register("deleteIndexes", this::dropIndexes);
    }

    private BsonDocument createIndexes(CommandContext ctx, BsonDocument cmd) {
        String name = Args.string(cmd, "createIndexes");
        BsonValue specs = cmd.get("indexes");
        if (specs == null || !specs.isArray() || specs.asArray().isEmpty()) {
            throw new MongoError(ErrorCode.BAD_VALUE, "createIndexes needs a non-empty 'indexes' array");
        }
        boolean existed = catalog.collection(ctx.database(), name) != null;
        MongoCollection coll = catalog.createIfAbsent(ctx.database(), name);
        int before = indexes.list(coll).size();
        for (BsonValue s : specs.asArray()) {
            BsonDocument spec = s.asDocument().clone();
            if (!spec.containsKey("name") && spec.get("key") != null && spec.get("key").isDocument()) {
                spec.put("name", new BsonString(IndexCatalog.indexName(spec.getDocument("key"))));
            }
            indexes.create(coll, spec);
        }
        int after = indexes.list(coll).size();
        BsonDocument reply = new BsonDocument("numIndexesBefore", new BsonInt32(before))
                .append("numIndexesAfter", new BsonInt32(after))
                .append("createdCollectionAutomatically", org.bson.BsonBoolean.valueOf(!existed));
        if (before == after) {
            reply.append("note", new BsonString("all indexes already exist"));
        }
        return Replies.ok(reply);
    }

    private BsonDocument listIndexes(CommandContext ctx, BsonDocument cmd) {
        String name = Args.string(cmd, "listIndexes");
        MongoCollection coll = catalog.collection(ctx.database(), name);
        if (coll == null) {
            throw new MongoError(ErrorCode.NAMESPACE_NOT_FOUND, "ns does not exist: " + ctx.database() + "." + name);
        }
        List<BsonDocument> list = indexes.list(coll);
        return Replies.cursor("firstBatch", 0, coll.namespace(), list);
    }

    private BsonDocument dropIndexes(CommandContext ctx, BsonDocument cmd) {
        String name = cmd.getString(cmd.getFirstKey()).getValue();
        MongoCollection coll = catalog.collection(ctx.database(), name);
        if (coll == null) {
            throw new MongoError(ErrorCode.NAMESPACE_NOT_FOUND, "ns not found " + ctx.database() + "." + name);
        }
        int before = indexes.list(coll).size();
        BsonValue which = cmd.get("index");
        if (which == null) {
            throw new MongoError(ErrorCode.BAD_VALUE, "dropIndexes needs 'index'");
        }
        if (which.isString() && which.asString().getValue().equals("*")) {
            for (BsonDocument spec : indexes.list(coll)) {
                if (!spec.getString("name").getValue().equals("_id_")) {
                    indexes.drop(coll, spec.getString("name").getValue());
                }
            }
        } else if (which.isString()) {
            indexes.drop(coll, which.asString().getValue());
        } else if (which.isArray()) {
            for (BsonValue v : which.asArray()) {
                indexes.drop(coll, v.asString().getValue());
            }
        } else if (which.isDocument()) {
            String found = null;
            for (BsonDocument spec : indexes.list(coll)) {
                if (spec.get("key").equals(which)) {
                    found = spec.getString("name").getValue();
                }
            }
            if (found == null) {
                throw new MongoError(ErrorCode.INDEX_NOT_FOUND, "can't find index with key: " + which.asDocument()
                        .toJson());
            }
            indexes.drop(coll, found);
        }
        return Replies.ok(new BsonDocument("nIndexesWas", new BsonInt32(before)));
    }
}

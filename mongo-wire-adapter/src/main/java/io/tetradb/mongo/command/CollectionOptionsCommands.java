package io.tetradb.mongo.command;

import io.tetradb.mongo.store.MongoCatalog;
import io.tetradb.mongo.store.MongoCollection;
import io.tetradb.mongo.validation.DocumentValidator;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.List;

/** {@code collMod}: changes a collection's validator, validationLevel and validationAction, and a TTL index. */
final class CollectionOptionsCommands {
    static final List<String> VALIDATION = List.of("validator", "validationLevel", "validationAction");
    /** Fields drivers add to every command. */
    private static final java.util.Set<String> GENERIC_ARGUMENTS = java.util.Set.of("$db", "lsid", "$clusterTime",
            "txnNumber", "autocommit", "startTransaction", "writeConcern", "readConcern", "$readPreference", "comment",
            "maxTimeMS", "apiVersion", "apiStrict", "apiDeprecationErrors", "$client", "$audit", "maxTimeMSOpOnly",
            "mayBypassWriteBlocking", "$configTime", "$topologyTime", "clientOperationKey", "$queryOptions",
            "readPreference");

    private final MongoCatalog catalog;

    private final io.tetradb.mongo.store.IndexCatalog indexes;

    CollectionOptionsCommands(MongoCatalog catalog, io.tetradb.mongo.store.IndexCatalog indexes) {
        this.catalog = catalog;
        this.indexes = indexes;
    }

    void register(CommandDispatcher d) {
        d.register("collMod", this::collMod);
    }

    /** The fields MongoDB 7.0's {@code create} knows (the ones this server cannot honour are refused by name). */
    private static final java.util.Set<String> CREATE_FIELDS = java.util.Set.of("create", "capped", "autoIndexId",
            "size", "max", "storageEngine", "validator", "validationLevel", "validationAction", "indexOptionDefaults",
            "viewOn", "pipeline", "collation", "timeseries", "clusteredIndex", "expireAfterSeconds",
            "changeStreamPreAndPostImages", "encryptedFields", "idIndex", "flags", "temp", "recordPreImages");

    /** 40415 for a field {@code create} does not know, as MongoDB's command parser answers. */
    static void checkCreateFields(BsonDocument cmd) {
        for (String field : cmd.keySet()) {
            if (!CREATE_FIELDS.contains(field) && !GENERIC_ARGUMENTS.contains(field)) {
                throw new MongoError(ErrorCode.IDL_UNKNOWN_FIELD, "BSON field 'create." + field + "' is an unknown "
                        + "field.");
            }
        }
    }

    /** The validation options of a {@code create} command, checked (a bad validator is refused before creating). */
    static BsonDocument validationOptions(String namespace, BsonDocument cmd) {
        BsonDocument options = new BsonDocument();
        for (String name : VALIDATION) {
            if (cmd.containsKey(name)) {
                options.append(name, cmd.get(name));
            }
        }
        DocumentValidator.of(namespace, options);
        return options;
    }

    private BsonDocument collMod(CommandContext ctx, BsonDocument cmd) {
        String name = Args.string(cmd, "collMod");
        MongoCollection coll = catalog.collection(ctx.database(), name);
        if (coll == null) {
            throw new MongoError(ErrorCode.NAMESPACE_NOT_FOUND, "ns does not exist: " + ctx.database() + "." + name);
        }
        BsonDocument options = catalog.options().of(coll);
        BsonDocument ttlReply = new BsonDocument();
        for (String field : cmd.keySet()) {
            BsonValue v = cmd.get(field);
            if (field.equals("collMod") || GENERIC_ARGUMENTS.contains(field)) {
                continue;
            }
            if (field.equals("index")) { // a TTL index's expireAfterSeconds
                if (!v.isDocument()) {
                    throw new MongoError(ErrorCode.TYPE_MISMATCH, "BSON field 'collMod.index' is the wrong type '"
                            + io.tetradb.mongo.bson.BsonTypeNames.name(v) + "', expected type 'object'");
                }
                ttlReply = indexes.modifyTtl(coll, v.asDocument());
                continue;
            }
            if (field.equals(io.tetradb.mongo.changestream.PrePostImages.OPTION)) {
                options.put(field, io.tetradb.mongo.changestream.PrePostImages.checked("collMod", v));
                continue;
            }
            if (!VALIDATION.contains(field)) {
                throw new MongoError(ErrorCode.INVALID_OPTIONS, "collMod option '" + field + "' is not supported by "
                        + "this server (validator, validationLevel, validationAction, index (a TTL index's expireAfterSeconds) and "
                        + "changeStreamPreAndPostImages are)");
            }
            options.put(field, v);
        }
        catalog.options().set(coll, options);
        return Replies.ok(ttlReply);
    }
}

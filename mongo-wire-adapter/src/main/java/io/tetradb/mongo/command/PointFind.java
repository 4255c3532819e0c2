package io.tetradb.mongo.command;

import io.tetradb.mongo.bson.IdCodec;
import io.tetradb.mongo.store.MongoCollection;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.Set;

/**
 * {@code find} of one {@code _id} with nothing else to do (no sort, projection, skip, hint or collation, outside a
 * transaction, in an unsharded collection): one storage read whose item is transcoded straight into the reply's
 * BSON bytes ({@link MongoCollection#readReply}), without the query pipeline (matcher, sorter, projector, cursor
 * batching) a general find builds. Drivers send every {@code findOne}/{@code find(eq("_id", v)).first()} this way.
 */
final class PointFind {
    /** The fields such a find may carry; any other option takes the general path. */
    private static final Set<String> PLAIN = Set.of("find", "filter", "limit", "singleBatch", "batchSize", "$db",
            "lsid", "$clusterTime", "$readPreference", "maxTimeMS", "comment", "apiVersion", "apiStrict",
            "apiDeprecationErrors");

    private PointFind() {
    }

    /** The reply, or null when {@code cmd} is not such a find (the caller runs it the general way). */
    static BsonDocument run(CommandContext ctx, BsonDocument cmd, MongoCollection coll, String ns) {
        if (coll == null || coll.inTransaction() || coll.shardField() != null) {
            return null;
        }
        BsonValue filter = cmd.get("filter");
        if (filter == null || !filter.isDocument() || filter.asDocument().size() != 1) {
            return null;
        }
        BsonValue id = filter.asDocument().get("_id");
        if (id != null && id.isDocument() && id.asDocument().size() == 1 && id.asDocument().containsKey("$eq")) {
            id = id.asDocument().get("$eq");
        }
        if (id == null || id.isDocument() || id.isArray() || id.isRegularExpression()) {
            return null;
        }
        for (String key : cmd.keySet()) {
            if (!PLAIN.contains(key)) {
                return null;
            }
        }
        BsonValue batchSize = cmd.get("batchSize");
        BsonValue singleBatch = cmd.get("singleBatch");
        if (batchSize != null && batchSize.isNumber() && batchSize.asNumber().longValue() == 0
                && !(singleBatch != null && singleBatch.isBoolean() && singleBatch.asBoolean().getValue())) {
            return null; // an empty first batch and a cursor: the general path's
        }
        String coreId;
        try {
            coreId = IdCodec.encode(id);
        } catch (MongoError e) {
            return null; // an _id no document can have: the general path answers as it does
        }
        double[] charge = new double[1];
        BsonDocument doc = coll.readReply(coreId, charge);
        if (doc != null && !coreId.equals(IdCodec.encode(doc.get("_id")))) {
            return null; // not this face's document of that _id (another face's item): the matcher decides
        }
        ctx.charge(charge[0]);
        return Replies.singleBatch(ns, doc);
    }
}

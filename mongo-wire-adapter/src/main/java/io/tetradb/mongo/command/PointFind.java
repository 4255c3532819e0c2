package io.tetradb.mongo.command;

import io.tetradb.mongo.bson.IdCodec;
import io.tetradb.mongo.store.MongoCollection;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.Set;

/**
 * {@code find} of one {@code _id} with nothing else to do (no sort, projection, skip, hint or collation, outside a
 * transaction, in an unsharded collection): one storage read whose item is transcoded straight into the reply's
 * BSON bytes ({@link MongoCollection#readPointReply}), without the query pipeline (matcher, sorter, projector, cursor
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
        // the reply depends only on the document and ns: a cached document keeps it, built once
        BsonDocument reply = coll.readPointReply(coreId, ns, doc -> doc != null
                && !coreId.equals(IdCodec.encode(firstId(doc))) ? null : Replies.singleBatch(ns, doc), charge);
        if (reply == null) {
            return null; // not this face's document of that _id (another face's item): the matcher decides
        }
        ctx.charge(charge[0]);
        return reply;
    }

    private static final byte[] ID_NAME = {'_', 'i', 'd', 0};

    /**
     * The document's {@code _id}: a transcoded document has it first, and the usual types are read from their bytes
     * there ({@code RawBsonDocument.get} sets up a reader and scans for the name: ~4 % of a point find's CPU).
     */
    static BsonValue firstId(BsonDocument doc) {
        if (doc instanceof org.bson.RawBsonDocument raw) {
            java.nio.ByteBuffer b = raw.getByteBuffer().asNIO().order(java.nio.ByteOrder.LITTLE_ENDIAN);
            int at = b.position();
            if (b.remaining() >= 9 + 12 && b.get(at + 5) == ID_NAME[0] && b.get(at + 6) == ID_NAME[1]
                    && b.get(at + 7) == ID_NAME[2] && b.get(at + 8) == ID_NAME[3]) {
                int v = at + 9;
                switch (b.get(at + 4)) {
                    case 0x10:
                        return new org.bson.BsonInt32(b.getInt(v));
                    case 0x12:
                        return new org.bson.BsonInt64(b.getLong(v));
                    case 0x01:
                        return new org.bson.BsonDouble(b.getDouble(v));
                    case 0x07: {
                        byte[] oid = new byte[12];
                        b.get(v, oid);
                        return new org.bson.BsonObjectId(new org.bson.types.ObjectId(oid));
                    }
                    default:
                        break;
                }
            }
        }
        return doc.get("_id");
    }
}

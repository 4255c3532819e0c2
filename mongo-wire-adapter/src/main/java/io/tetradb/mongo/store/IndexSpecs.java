package io.tetradb.mongo.store;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.query.BsonOrder;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.Map;
import java.util.Set;

/**
 * What {@code createIndexes} accepts. Index kinds this face cannot serve are refused when they are created rather
 * than accepted and then ignored: text and geospatial indexes (this face has no {@code $text}/{@code $near}) get 67
 * CannotCreateIndex, the code
 * MongoDB answers for an index it cannot build from a valid request (e.g. an unknown index type, "Unknown index
 * plugin"). TTL indexes ({@code expireAfterSeconds}) are served by the core's expiry, see {@link TtlIndexes}.
 */
final class IndexSpecs {
    private static final Set<String> OPTIONS = Set.of("key", "name", "v", "unique", "sparse",
            "partialFilterExpression", "expireAfterSeconds", "background", "ns", "collation", "hidden",
            "storageEngine", "wildcardProjection", "weights", "default_language", "language_override",
            "textIndexVersion", "2dsphereIndexVersion", "bits", "min", "max", "bucketSize", "dropDups",
            "prepareUnique", "clustered");

    private IndexSpecs() {
    }

    static void check(BsonDocument spec) {
        for (String option : spec.keySet()) {
            if (!OPTIONS.contains(option)) {
                throw new MongoError(ErrorCode.INVALID_INDEX_SPECIFICATION_OPTION, "The field '" + option
                        + "' is not valid for an index specification. Specification: "
                        + io.tetradb.mongo.bson.BsonText.of(spec));
            }
        }
        for (Map.Entry<String, BsonValue> e : spec.getDocument("key").entrySet()) {
            BsonValue v = e.getValue();
            if (v.isString()) {
                String kind = v.asString().getValue();
                switch (kind) {
                    case "hashed" -> { }
                    case "text", "2dsphere", "2d", "geoHaystack" -> throw new MongoError(ErrorCode.CANNOT_CREATE_INDEX,
                            "'" + kind + "' indexes are not supported by this server (it has no "
                                    + (kind.equals("text") ? "$text" : "$near/$geoWithin") + " queries); key: "
                                    + io.tetradb.mongo.bson.BsonText.of(spec.getDocument("key")));
                    default -> throw new MongoError(ErrorCode.CANNOT_CREATE_INDEX, "Error in specification "
                            + io.tetradb.mongo.bson.BsonText.of(spec) + " :: caused by :: Unknown index plugin '"
                            + kind + "'");
                }
            } else if (!BsonOrder.isNumber(v) || BsonOrder.toDouble(v) == 0 || Double.isNaN(BsonOrder.toDouble(v))) {
                throw new MongoError(ErrorCode.CANNOT_CREATE_INDEX, "Error in specification "
                        + io.tetradb.mongo.bson.BsonText.of(spec) + " :: caused by :: Values in the index key pattern "
                        + "can't be 0, NaN or of type " + v.getBsonType() + " for field: " + e.getKey());
            }
        }
        TtlIndexes.check(spec);
        BsonValue partial = spec.get("partialFilterExpression");
        if (partial != null) {
            if (!partial.isDocument()) {
                throw new MongoError(ErrorCode.TYPE_MISMATCH, "The field 'partialFilterExpression' must be an object");
            }
            if (spec.getBoolean("sparse", org.bson.BsonBoolean.FALSE).getValue()) {
                throw new MongoError(ErrorCode.CANNOT_CREATE_INDEX, "cannot mix \"partialFilterExpression\" and "
                        + "\"sparse\" options");
            }
            io.tetradb.mongo.query.FilterMatcher.compile(partial.asDocument()); // a bad filter fails here
        }
    }
}

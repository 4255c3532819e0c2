package io.tetradb.mongo.command;

import io.tetradb.mongo.query.BsonOrder;
import org.bson.BsonDocument;
import org.bson.BsonValue;

/** Reading command arguments with MongoDB's type checks (TypeMismatch on a wrong type). */
final class Args {
    private Args() {
    }

    static String string(BsonDocument cmd, String field) {
        BsonValue v = cmd.get(field);
        if (v == null || !v.isString()) {
            throw new MongoError(ErrorCode.TYPE_MISMATCH, "BSON field '" + field + "' is the wrong type '"
                    + (v == null ? "missing" : v.getBsonType()) + "', expected type 'string'");
        }
        return v.asString().getValue();
    }

    static BsonDocument document(BsonDocument cmd, String field) {
        BsonValue v = cmd.get(field);
        if (v == null || v.isNull()) {
            return new BsonDocument();
        }
        if (!v.isDocument()) {
            throw new MongoError(ErrorCode.TYPE_MISMATCH, "BSON field '" + field + "' is the wrong type '"
                    + v.getBsonType() + "', expected type 'object'");
        }
        return v.asDocument();
    }

    static long number(BsonDocument cmd, String field, long dflt) {
        BsonValue v = cmd.get(field);
        if (v == null || v.isNull()) {
            return dflt;
        }
        if (!BsonOrder.isNumber(v)) {
            throw new MongoError(ErrorCode.TYPE_MISMATCH, "BSON field '" + field + "' is the wrong type '"
                    + v.getBsonType() + "', expected a number");
        }
        return (long) BsonOrder.toDouble(v);
    }

    static boolean bool(BsonDocument cmd, String field, boolean dflt) {
        BsonValue v = cmd.get(field);
        if (v == null || v.isNull()) {
            return dflt;
        }
        if (v.isBoolean()) {
            return v.asBoolean().getValue();
        }
        if (BsonOrder.isNumber(v)) {
            return BsonOrder.toDouble(v) != 0;
        }
        throw new MongoError(ErrorCode.TYPE_MISMATCH, "BSON field '" + field + "' is the wrong type '"
                + v.getBsonType() + "', expected type 'bool'");
    }
}

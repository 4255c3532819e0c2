package io.tetradb.mongo.update;

import org.bson.BsonDecimal128;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonValue;

/** Number arithmetic with MongoDB's type promotion, shared by update operators and aggregation expressions. */
public final class Arithmetic {
    private Arithmetic() {
    }

    /** a + b (add) or a × b, promoted as MongoDB does: int32 → int64 on overflow → double; decimal wins. */
    public static BsonValue combine(BsonValue a, BsonValue b, boolean add) {
        return UpdateApplier.arithmetic(a, b, add);
    }

    public static BsonValue negate(BsonValue v) {
        return switch (v.getBsonType()) {
            case INT32 -> v.asInt32().getValue() == Integer.MIN_VALUE ? new BsonInt64(-(long) Integer.MIN_VALUE)
                    : new BsonInt32(-v.asInt32().getValue());
            case INT64 -> new BsonInt64(-v.asInt64().getValue());
            case DOUBLE -> new BsonDouble(-v.asDouble().getValue());
            case DECIMAL128 -> new BsonDecimal128(new org.bson.types.Decimal128(
                    v.asDecimal128().getValue().bigDecimalValue().negate()));
            default -> v;
        };
    }
}

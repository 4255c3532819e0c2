package io.tetradb.mongo.bson;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.value.BinaryDataNode;
import io.tetradb.core.value.DateTimeNode;
import io.tetradb.core.value.Decimal128Node;
import io.tetradb.core.value.MaxKeyNode;
import io.tetradb.core.value.MinKeyNode;
import io.tetradb.core.value.ObjectIdNode;
import io.tetradb.core.value.RegexNode;
import io.tetradb.core.value.TimestampNode;
import io.tetradb.core.value.UuidNode;
import org.bson.BsonBinary;
import org.bson.BsonBinarySubType;
import org.bson.BsonValue;
import org.bson.types.Decimal128;

/**
 * One BSON scalar as the core's typed value ({@code io.tetradb.core.value}): Int32 → IntNode, Int64 → LongNode,
 * Double → DoubleNode (NaN, ±Infinity, -0.0 kept), Decimal128 → {@link Decimal128Node} (NaN/±Infinity as its
 * specials), Date → {@link DateTimeNode}, BinData → {@link BinaryDataNode} (subtype 4 of 16 bytes → {@link UuidNode},
 * so the other faces see a UUID / Edm.Guid), ObjectId, Timestamp, regex, MinKey, MaxKey → their nodes.
 *
 * <p>Returns null for what the model has no type for — the deprecated BSON types (undefined, symbol, JavaScript code,
 * code with scope, DBPointer), a Decimal128 negative zero (a BigDecimal has no sign of zero) and a date beyond the
 * model's range (±29,000 years): {@link DocumentMapper} stores those as the tagged Extended JSON the bson library
 * reads back, the one shape of the earlier mapping still written.
 */
final class BsonToTyped {
    private BsonToTyped() {
    }

    /** The typed value of a BSON scalar (not a document or array), or null when it has no typed form. */
    static JsonNode scalar(BsonValue v) {
        switch (v.getBsonType()) {
            case STRING:
                return TextNode.valueOf(v.asString().getValue());
            case BOOLEAN:
                return BooleanNode.valueOf(v.asBoolean().getValue());
            case NULL:
                return NullNode.getInstance();
            case INT32:
                return IntNode.valueOf(v.asInt32().getValue());
            case INT64:
                return LongNode.valueOf(v.asInt64().getValue());
            case DOUBLE:
                return DoubleNode.valueOf(v.asDouble().getValue());
            case DECIMAL128:
                return decimal(v.asDecimal128().getValue());
            case DATE_TIME: {
                long ms = v.asDateTime().getValue();
                return ms >= MIN_MS && ms <= MAX_MS ? DateTimeNode.ofEpochMillis(ms) : null;
            }
            case OBJECT_ID:
                return ObjectIdNode.of(v.asObjectId().getValue().toByteArray());
            case BINARY: {
                BsonBinary b = v.asBinary();
                if (b.getType() == BsonBinarySubType.UUID_STANDARD.getValue() && b.getData().length == 16) {
                    return UuidNode.of(b.getData());
                }
                return BinaryDataNode.of(b.getType() & 0xFF, b.getData());
            }
            case TIMESTAMP:
                return TimestampNode.ofValue(v.asTimestamp().getValue());
            case REGULAR_EXPRESSION:
                return RegexNode.of(v.asRegularExpression().getPattern(), v.asRegularExpression().getOptions());
            case MIN_KEY:
                return MinKeyNode.INSTANCE;
            case MAX_KEY:
                return MaxKeyNode.INSTANCE;
            default:
                return null;
        }
    }

    /** The dates a {@link DateTimeNode} holds (100 ns ticks in a long). */
    private static final long MAX_MS = Long.MAX_VALUE / 10_000L;
    private static final long MIN_MS = Long.MIN_VALUE / 10_000L;

    private static JsonNode decimal(Decimal128 d) {
        if (d.isNaN()) {
            return Decimal128Node.nan();
        }
        if (d.isInfinite()) {
            return d.isNegative() ? Decimal128Node.negativeInfinity() : Decimal128Node.positiveInfinity();
        }
        try {
            return Decimal128Node.of(d.bigDecimalValue());
        } catch (ArithmeticException negativeZero) {
            return null;
        }
    }
}

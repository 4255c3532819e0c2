package io.tetradb.core.item;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.FloatNode;
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

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.UUID;

/**
 * The core's typed node for each TB1 scalar, for a {@link BinaryItemWalker}; a subclass decides how objects and
 * arrays are built ({@link TreeBuilder}: the store's own field tables).
 */
abstract class ScalarNodeBuilder implements BinaryItemWalker.Builder<JsonNode> {
    @Override
    public JsonNode nullValue() {
        return NullNode.getInstance();
    }

    @Override
    public JsonNode bool(boolean v) {
        return BooleanNode.valueOf(v);
    }

    @Override
    public JsonNode int32(int v) {
        return IntNode.valueOf(v);
    }

    @Override
    public JsonNode int64(long v) {
        return LongNode.valueOf(v);
    }

    @Override
    public JsonNode float64(double v) {
        return DoubleNode.valueOf(v);
    }

    @Override
    public JsonNode float32(float v) {
        return FloatNode.valueOf(v);
    }

    @Override
    public JsonNode bigInteger(BigInteger v) {
        return BigIntegerNode.valueOf(v);
    }

    @Override
    public JsonNode bigDecimal(BigDecimal v) {
        return DecimalNode.valueOf(v);
    }

    @Override
    public JsonNode decimal128(BigDecimal v) {
        return Decimal128Node.of(v);
    }

    @Override
    public JsonNode decimal128Special(int kind) {
        return kind == 0 ? Decimal128Node.nan()
                : kind == 1 ? Decimal128Node.positiveInfinity() : Decimal128Node.negativeInfinity();
    }

    @Override
    public JsonNode string(String v) {
        return TextNode.valueOf(v);
    }

    @Override
    public JsonNode dateTime(long ticks, int offsetMinutes) {
        return DateTimeNode.ofTicks(ticks, offsetMinutes);
    }

    @Override
    public JsonNode binary(int subtype, byte[] bytes) {
        return BinaryDataNode.of(subtype, bytes);
    }

    @Override
    public JsonNode objectId(byte[] twelve) {
        return ObjectIdNode.of(twelve);
    }

    @Override
    public JsonNode uuid(long mostSignificant, long leastSignificant) {
        return UuidNode.of(new UUID(mostSignificant, leastSignificant));
    }

    @Override
    public JsonNode timestamp(long value) {
        return TimestampNode.ofValue(value);
    }

    @Override
    public JsonNode regex(String pattern, String options) {
        return RegexNode.of(pattern, options);
    }

    @Override
    public JsonNode minKey() {
        return MinKeyNode.INSTANCE;
    }

    @Override
    public JsonNode maxKey() {
        return MaxKeyNode.INSTANCE;
    }
}

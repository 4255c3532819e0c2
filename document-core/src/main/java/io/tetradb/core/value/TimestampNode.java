package io.tetradb.core.value;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.LongNode;

/**
 * A MongoDB Timestamp: unsigned 32-bit seconds and increment, ordered by (seconds, increment) as MongoDB does.
 * JSON view: the 64-bit number {@code seconds·2^32 + increment} (BSON's own uint64 value of it), exact and in order.
 */
public final class TimestampNode extends TypedNode {
    private static final long serialVersionUID = 1L;
    private final long value;

    private TimestampNode(long value) {
        this.value = value;
    }

    public static TimestampNode of(long seconds, long increment) {
        if (seconds < 0 || seconds > 0xFFFFFFFFL || increment < 0 || increment > 0xFFFFFFFFL) {
            throw new IllegalArgumentException("Timestamp parts are unsigned 32-bit: " + seconds + ", " + increment);
        }
        return new TimestampNode((seconds << 32) | increment);
    }

    /** From BSON's 64-bit form (seconds in the high half). */
    public static TimestampNode ofValue(long value) {
        return new TimestampNode(value);
    }

    public long seconds() {
        return value >>> 32;
    }

    public long increment() {
        return value & 0xFFFFFFFFL;
    }

    public long value() {
        return value;
    }

    @Override
    public ValueType valueType() {
        return ValueType.TIMESTAMP;
    }

    @Override
    public int typeRank() {
        return ValueOrder.RANK_TIMESTAMP;
    }

    @Override
    public JsonNode jsonView() {
        return LongNode.valueOf(value);
    }

    @Override
    int compareSameRank(TypedNode other) {
        return Long.compareUnsigned(value, ((TimestampNode) other).value);
    }

    @Override
    byte[] keyBody() {
        return KeyBytes.longKey(value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TimestampNode n && n.value == value;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(value);
    }
}

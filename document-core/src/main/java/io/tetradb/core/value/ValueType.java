package io.tetradb.core.value;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The types of the core's value model: JSON's plus the exact numeric and the non-JSON types the faces carry
 * (MongoDB BSON, Azure Tables Edm, TinkerPop). Each type's Java form in an item tree:
 * <pre>
 *   UNDEFINED    MissingNode / absent           STRING      TextNode
 *   NULL         NullNode                       ARRAY       ArrayNode
 *   BOOLEAN      BooleanNode                    OBJECT      ObjectNode
 *   INT32        IntNode (ShortNode too)        DATE_TIME   {@link DateTimeNode}
 *   INT64        LongNode                       BINARY      {@link BinaryDataNode}
 *   DOUBLE       DoubleNode                     OBJECT_ID   {@link ObjectIdNode}
 *   FLOAT        FloatNode                      UUID        {@link UuidNode}
 *   DECIMAL128   {@link Decimal128Node}             TIMESTAMP   {@link TimestampNode}
 *   BIG_INTEGER  BigIntegerNode                 REGEX       {@link RegexNode}
 *   BIG_DECIMAL  DecimalNode                    MIN_KEY / MAX_KEY  {@link MinKeyNode} / {@link MaxKeyNode}
 * </pre>
 */
public enum ValueType {
    UNDEFINED, NULL, BOOLEAN, INT32, INT64, DOUBLE, FLOAT, DECIMAL128, BIG_INTEGER, BIG_DECIMAL, STRING, ARRAY, OBJECT,
    DATE_TIME, BINARY, OBJECT_ID, UUID, TIMESTAMP, REGEX, MIN_KEY, MAX_KEY;

    /** The type of a node ({@code null} and MissingNode are undefined). */
    public static ValueType of(JsonNode v) {
        if (v == null || v.isMissingNode()) {
            return UNDEFINED;
        }
        if (v instanceof TypedNode t) {
            return t.valueType();
        }
        if (v instanceof Decimal128Node || v instanceof Decimal128Node.Special) {
            return DECIMAL128;
        }
        switch (v.getNodeType()) {
            case NULL:
                return NULL;
            case BOOLEAN:
                return BOOLEAN;
            case STRING:
                return STRING;
            case ARRAY:
                return ARRAY;
            case OBJECT:
                return OBJECT;
            case NUMBER:
                if (v.isInt() || v.isShort()) {
                    return INT32;
                }
                if (v.isLong()) {
                    return INT64;
                }
                if (v.isDouble()) {
                    return DOUBLE;
                }
                if (v.isFloat()) {
                    return FLOAT;
                }
                if (v.isBigInteger()) {
                    return BIG_INTEGER;
                }
                return BIG_DECIMAL;
            default:
                throw new IllegalArgumentException("not a value of the core's model: " + v.getClass().getName());
        }
    }
}

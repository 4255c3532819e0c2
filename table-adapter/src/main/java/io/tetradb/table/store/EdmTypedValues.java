package io.tetradb.table.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.value.BinaryDataNode;
import io.tetradb.core.value.DateTimeNode;
import io.tetradb.core.value.TypedNode;
import io.tetradb.core.value.TypedValues;
import io.tetradb.core.value.UuidNode;
import io.tetradb.core.value.ValueType;
import io.tetradb.table.model.EdmValue;

import java.time.Instant;
import java.util.UUID;

/**
 * Edm values ↔ the core's typed values ({@code io.tetradb.core.value}), the one mapping of this face: Edm.String,
 * Boolean as JSON; Int32 → {@code IntNode}, Int64 → {@code LongNode}, Double → {@code DoubleNode} (NaN, ±Infinity),
 * DateTime → {@link DateTimeNode} (100 ns ticks, exact), Guid → {@link UuidNode}, Binary → {@link BinaryDataNode}
 * of subtype 0. {@link #view} is how the Tables API shows any core value, also the ones other faces wrote (the
 * Tables column of document-core/README.md's cross-face table).
 */
public final class EdmTypedValues {
    private EdmTypedValues() {
    }

    /** The typed node an Edm value is stored as (also the literal a filter compares with). */
    public static JsonNode node(EdmValue v) {
        return switch (v.type()) {
            case STRING -> TextNode.valueOf((String) v.value());
            case INT32 -> IntNode.valueOf((Integer) v.value());
            case INT64 -> LongNode.valueOf((Long) v.value());
            case DOUBLE -> DoubleNode.valueOf((Double) v.value());
            case BOOLEAN -> BooleanNode.valueOf((Boolean) v.value());
            case DATETIME -> DateTimeNode.of((Instant) v.value());
            case GUID -> UuidNode.of((UUID) v.value());
            case BINARY -> BinaryDataNode.of(BinaryDataNode.SUBTYPE_GENERIC, (byte[]) v.value());
        };
    }

    /**
     * The Edm value the Tables API shows for a stored value, or null when it shows none (null, MinKey, MaxKey,
     * undefined). Types without an Edm twin: Decimal128 / BigDecimal / BigInteger → Edm.String of their exact
     * digits, ObjectId → Edm.String (24 hex), Timestamp → Edm.Int64 (its JSON view), Regex → Edm.String
     * ({@code /p/o}), arrays and objects → Edm.String holding their JSON view; a DateTime's offset is dropped (the
     * instant stays exact); Float → Edm.Double.
     */
    public static EdmValue view(JsonNode n) {
        switch (ValueType.of(n)) {
            case UNDEFINED, NULL, MIN_KEY, MAX_KEY:
                return null;
            case STRING:
                return EdmValue.string(n.textValue());
            case BOOLEAN:
                return EdmValue.bool(n.booleanValue());
            case INT32:
                return EdmValue.int32(n.intValue());
            case INT64:
                return EdmValue.int64(n.longValue());
            case DOUBLE, FLOAT:
                return EdmValue.dbl(n.doubleValue());
            case DECIMAL128, BIG_DECIMAL, BIG_INTEGER:
                return EdmValue.string(n.isBigDecimal() ? n.decimalValue().toString() : n.asText());
            case DATE_TIME:
                return EdmValue.dateTime(((DateTimeNode) n).instant());
            case UUID:
                return EdmValue.guid(((UuidNode) n).uuid());
            case BINARY:
                return EdmValue.binary(((BinaryDataNode) n).bytes());
            case TIMESTAMP:
                return EdmValue.int64(((TypedNode) n).jsonView().longValue());
            case OBJECT_ID, REGEX:
                return EdmValue.string(((TypedNode) n).jsonView().textValue());
            default: // ARRAY, OBJECT
                return EdmValue.string(TypedValues.jsonView(n).toString());
        }
    }
}

package io.tetradb.graph.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.OffsetDateTime;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Writes property values in the graph face's earlier shape ({@link LegacyValues} reads it): for a store that writes
 * items as JSON text, where typed values would be stored as their JSON views and lose their type (a Long would read
 * back as an Integer, a Date as a string). Used only while the core's item format is JSON (see
 * {@link ValueCodec#useTypedValues}); TB1 stores get typed values.
 */
final class LegacyValueWriter {
    private static final String TYPES = LegacyValues.TYPES;
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private LegacyValueWriter() {
    }

    /** Checks that a value can be stored in this shape; a clear error otherwise. */
    static void check(Object value) {
        encodeNested(value);
    }

    /** Writes {@code value} into {@code target[key]}, recording its Java type in {@code target._types} if needed. */
    static void put(ObjectNode target, String key, Object value) {
        String tag = sidecarTag(value);
        ObjectNode types = target.get(TYPES) instanceof ObjectNode t ? t : null;
        if (tag != null) {
            target.set(key, plainNumber(value));
            if (types == null) {
                types = target.putObject(TYPES);
            }
            types.put(key, tag);
        } else {
            target.set(key, encodeNested(value));
            if (types != null) {
                types.remove(key);
            }
        }
        if (types != null && types.isEmpty()) {
            target.remove(TYPES);
        }
    }

    private static String sidecarTag(Object v) {
        if (v instanceof Long) {
            return "long";
        } else if (v instanceof Short) {
            return "short";
        } else if (v instanceof Byte) {
            return "byte";
        } else if (v instanceof Float f && Float.isFinite(f)) {
            return "float";
        } else if (v instanceof Date) {
            return "date";
        } else if (v instanceof OffsetDateTime t) {
            // epoch milliseconds (ordered, comparable) plus the exact date-time and offset in the tag
            return "datetime:" + t;
        } else if ((v instanceof BigDecimal || v instanceof BigInteger)
                && Double.isFinite(((Number) v).doubleValue())) {
            // the number (for indexes and comparisons) plus the exact digits in the tag
            return (v instanceof BigDecimal ? "bigdecimal:" : "biginteger:") + v;
        }
        return null;
    }

    private static JsonNode plainNumber(Object v) {
        if (v instanceof Float f) {
            return F.numberNode((double) f);
        } else if (v instanceof Date d) {
            return F.numberNode(d.getTime());
        } else if (v instanceof OffsetDateTime t) {
            return F.numberNode(t.toInstant().toEpochMilli());
        } else if (v instanceof BigDecimal || v instanceof BigInteger) {
            return F.numberNode(((Number) v).doubleValue());
        }
        return F.numberNode(((Number) v).longValue());
    }

    /** The self-describing form used inside collections (and for every non-sidecar value). */
    private static JsonNode encodeNested(Object v) {
        if (v == null) {
            return F.nullNode();
        } else if (v instanceof String s) {
            return F.textNode(s);
        } else if (v instanceof Boolean b) {
            return F.booleanNode(b);
        } else if (v instanceof Integer i) {
            return F.numberNode(i);
        } else if (v instanceof Double d) {
            return Double.isFinite(d) ? F.numberNode(d) : tagged("double", F.textNode(d.toString()));
        } else if (sidecarTag(v) != null) {
            return tagged(sidecarTag(v), plainNumber(v));
        } else if (v instanceof Float f) {
            return tagged("float", F.textNode(f.toString()));
        } else if (v instanceof UUID u) {
            return tagged("uuid", F.textNode(u.toString()));
        } else if (v instanceof BigInteger b) {
            return tagged("biginteger", F.textNode(b.toString()));
        } else if (v instanceof BigDecimal b) {
            return tagged("bigdecimal", F.textNode(b.toString()));
        } else if (v instanceof List<?> l) {
            return tagged("list", array(l));
        } else if (v instanceof Set<?> s) {
            return tagged("set", array(s));
        } else if (v instanceof Map<?, ?> m) {
            ArrayNode pairs = F.arrayNode();
            m.forEach((k, x) -> pairs.add(F.arrayNode().add(encodeNested(k)).add(encodeNested(x))));
            return tagged("map", pairs);
        }
        throw new IllegalArgumentException("TetraGraph cannot store a property value of type "
                + v.getClass().getName() + " (supported: primitives, String, Date, OffsetDateTime, UUID, BigInteger, BigDecimal, "
                + "List, Set, Map of those)");
    }

    private static ArrayNode array(Iterable<?> values) {
        ArrayNode a = F.arrayNode();
        values.forEach(x -> a.add(encodeNested(x)));
        return a;
    }

    private static ObjectNode tagged(String type, JsonNode value) {
        ObjectNode o = F.objectNode();
        o.put("@type", type);
        o.set("@value", value);
        return o;
    }

}

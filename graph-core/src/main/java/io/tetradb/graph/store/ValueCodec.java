package io.tetradb.graph.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Date;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Java property values ↔ JSON, so that every value reads back with its Java type.
 *
 * <p>Scalars whose JSON form is their natural Java type (String, Boolean, Integer, finite Double) are stored as plain
 * JSON. Other numbers (Long, Short, Byte, Float, and BigInteger/BigDecimal within double range) and Date (epoch
 * milliseconds, OffsetDateTime too) are stored as plain JSON numbers too — so the core's range indexes and SQL comparisons see them — and
 * their Java type is recorded in a {@code _types} object beside them ({@code {"age": 42, "_types": {"age": "long"}}};
 * big numbers keep their exact digits there: {@code "bigdecimal:1.10"}). Everything else (UUID, non-finite doubles,
 * List, Set, Map) is stored as a tagged object {@code {"@type": t, "@value": v}}, and collections contain values in
 * the same nested form.
 */
public final class ValueCodec {
    public static final String TYPES = "_types";
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private ValueCodec() {
    }

    /** Checks that a value can be stored; a clear error otherwise. */
    public static void check(Object value) {
        encodeNested(value);
    }

    /** Writes {@code value} into {@code target[key]}, recording its Java type in {@code target._types} if needed. */
    public static void put(ObjectNode target, String key, Object value) {
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

    /** Removes {@code target[key]} and its type record. */
    public static void remove(ObjectNode target, String key) {
        target.remove(key);
        if (target.get(TYPES) instanceof ObjectNode t) {
            t.remove(key);
            if (t.isEmpty()) {
                target.remove(TYPES);
            }
        }
    }

    /** Reads {@code source[key]} back as the Java value it was written as. */
    public static Object get(ObjectNode source, String key) {
        JsonNode node = source.get(key);
        JsonNode tag = source.path(TYPES).get(key);
        if (tag != null) {
            return fromSidecar(tag.asText(), node);
        }
        return decodeNested(node);
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

    private static Object fromSidecar(String tag, JsonNode n) {
        if (tag.startsWith("bigdecimal:")) {
            return new BigDecimal(tag.substring("bigdecimal:".length()));
        } else if (tag.startsWith("datetime:")) {
            return OffsetDateTime.parse(tag.substring("datetime:".length()));
        } else if (tag.startsWith("biginteger:")) {
            return new BigInteger(tag.substring("biginteger:".length()));
        }
        return switch (tag) {
            case "long" -> n.asLong();
            case "short" -> (short) n.asInt();
            case "byte" -> (byte) n.asInt();
            case "float" -> (float) n.asDouble();
            case "date" -> new Date(n.asLong());
            default -> throw new IllegalStateException("unknown stored type " + tag);
        };
    }

    /** The self-describing form used inside collections (and for every non-sidecar value). */
    static JsonNode encodeNested(Object v) {
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

    static Object decodeNested(JsonNode n) {
        if (n == null || n.isMissingNode() || n.isNull()) {
            return null;
        } else if (n.isTextual()) {
            return n.textValue();
        } else if (n.isBoolean()) {
            return n.booleanValue();
        } else if (n.isIntegralNumber()) {
            return n.canConvertToInt() ? n.intValue() : (Object) n.longValue();
        } else if (n.isNumber()) {
            return n.doubleValue();
        } else if (n.isObject() && n.has("@type")) {
            JsonNode v = n.get("@value");
            return switch (n.get("@type").asText()) {
                case "double" -> Double.valueOf(v.asText());
                case "float" -> v.isNumber() ? (float) v.asDouble() : Float.valueOf(v.asText());
                case "uuid" -> UUID.fromString(v.asText());
                case "biginteger" -> new BigInteger(v.asText());
                case "bigdecimal" -> new BigDecimal(v.asText());
                case "list" -> collect(v, new ArrayList<>());
                case "set" -> collect(v, new LinkedHashSet<>());
                case "map" -> {
                    Map<Object, Object> m = new LinkedHashMap<>();
                    v.forEach(pair -> m.put(decodeNested(pair.get(0)), decodeNested(pair.get(1))));
                    yield m;
                }
                default -> fromSidecar(n.get("@type").asText(), v);
            };
        }
        throw new IllegalStateException("not a TetraGraph property value: " + n);
    }

    private static <C extends java.util.Collection<Object>> C collect(JsonNode array, C into) {
        for (Iterator<JsonNode> it = array.elements(); it.hasNext(); ) {
            into.add(decodeNested(it.next()));
        }
        return into;
    }
}

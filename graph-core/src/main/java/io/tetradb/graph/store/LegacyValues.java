package io.tetradb.graph.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.UUID;

/**
 * Reads property values in the graph face's shape before typed values (data directories written by earlier
 * versions): a plain JSON number with its Java type in a {@code _types} object beside it ({@code {"_value": 42,
 * "_types": {"_value": "long"}}}, exact digits or date-times in the tag: {@code "bigdecimal:1.10"},
 * {@code "datetime:2020-01-01T00:00+02:00"}), and {@code {"@type": t, "@value": v}} for UUIDs, non-finite doubles,
 * big numbers and collections (maps as {@code [key, value]} pairs). Never written any more.
 */
final class LegacyValues {
    /** The sidecar object of the old shape. */
    static final String TYPES = "_types";
    /** What {@link #tagged} returns for a tag that is not one of the old shape's. */
    static final Object NOT_LEGACY = new Object();

    private LegacyValues() {
    }

    /** The old sidecar tag of {@code holder[key]}, or null. */
    static String sidecarTag(ObjectNode holder, String key) {
        JsonNode types = holder.get(TYPES);
        JsonNode tag = types == null ? null : types.get(key);
        return tag != null && tag.isTextual() ? tag.textValue() : null;
    }

    /** A value recorded with a sidecar tag. */
    static Object fromSidecar(String tag, JsonNode n) {
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

    /** The value of an old {@code {"@type": tag, "@value": v}} object, or {@link #NOT_LEGACY}. */
    static Object tagged(String tag, JsonNode v) {
        try {
            switch (tag) {
                case "double":
                    return Double.valueOf(v.asText());
                case "float":
                    return v.isNumber() ? (float) v.asDouble() : Float.valueOf(v.asText());
                case "uuid":
                    return UUID.fromString(v.asText());
                case "biginteger":
                    return new BigInteger(v.asText());
                case "bigdecimal":
                    return new BigDecimal(v.asText());
                case "list":
                    return v.isArray() ? collect(v, new ArrayList<>()) : NOT_LEGACY;
                case "set":
                    return v.isArray() ? collect(v, new LinkedHashSet<>()) : NOT_LEGACY;
                case "map":
                    if (!v.isArray()) {
                        return NOT_LEGACY;
                    }
                    Map<Object, Object> m = new LinkedHashMap<>();
                    v.forEach(pair -> m.put(PropertyValues.toJava(pair.get(0)), PropertyValues.toJava(pair.get(1))));
                    return m;
                case "long", "short", "byte", "date":
                    return v.isNumber() ? fromSidecar(tag, v) : NOT_LEGACY;
                default:
                    return tag.startsWith("bigdecimal:") || tag.startsWith("biginteger:")
                            || tag.startsWith("datetime:") ? fromSidecar(tag, v) : NOT_LEGACY;
            }
        } catch (RuntimeException e) {
            return NOT_LEGACY; // not a value of the old shape after all: a user map that looks like one
        }
    }

    private static <C extends Collection<Object>> C collect(JsonNode array, C into) {
        array.forEach(e -> into.add(PropertyValues.toJava(e)));
        return into;
    }
}

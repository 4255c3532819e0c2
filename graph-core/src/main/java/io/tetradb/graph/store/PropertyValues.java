package io.tetradb.graph.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.FloatNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.value.BinaryDataNode;
import io.tetradb.core.value.DateTimeNode;
import io.tetradb.core.value.ObjectIdNode;
import io.tetradb.core.value.RegexNode;
import io.tetradb.core.value.TimestampNode;
import io.tetradb.core.value.TypedNode;
import io.tetradb.core.value.UuidNode;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.math.BigInteger;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
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
 * TinkerPop property values ↔ the core's typed values (io.tetradb.core.value), the graph face's column of the
 * cross-face table in document-core/README.md.
 *
 * <p>Java → core: String, Boolean, Integer (IntNode), Long (LongNode), Float, Double (NaN/±Infinity included),
 * BigInteger, BigDecimal (scale kept), Date (DateTime without offset), OffsetDateTime (DateTime with its offset; 100 ns
 * precision, finer nanoseconds are truncated), UUID, byte[] or ByteBuffer (Binary, subtype 0), List (array), Map with String keys
 * (object). What the core's model has no type for is written in GraphSON 3.0's typed form, TinkerPop's own JSON for
 * typed values: Byte {@code {"@type":"gx:Byte","@value":n}}, Short {@code gx:Int16}, Set {@code g:Set} (an array of
 * its elements), a Map with a non-String key (or whose only keys are {@code @type} and {@code @value})
 * {@code g:Map} (a flat array key, value, key, value...).
 *
 * <p>Core → Java, whoever wrote the item: the inverse, plus DateTime without offset → Date when whole milliseconds
 * (Mongo's dates, TinkerPop's Date), else OffsetDateTime at UTC; Decimal128 → BigDecimal; ObjectId → its 24 hex
 * digits; Timestamp → Long ({@code seconds·2^32 + increment}); Regex → {@code /pattern/options}; Binary of any
 * subtype → a ByteBuffer (TinkerPop's binary type in GraphBinary and GraphSON;
 * byte[] has no serializer); MinKey / MaxKey → absent (null; inside a Map the entry is left out). Values in the graph face's
 * earlier shape ({@code _types} sidecars, {@code {"@type": t, "@value": v}} with its own tag names) are read by
 * {@link LegacyValues}.
 */
public final class PropertyValues {
    static final String TYPE = "@type";
    static final String VALUE = "@value";
    private static final String BYTE = "gx:Byte";
    private static final String SHORT = "gx:Int16";
    private static final String SET = "g:Set";
    private static final String MAP = "g:Map";
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private PropertyValues() {
    }

    /** The core value of a Java property value; a clear error for a type the graph cannot store. */
    public static JsonNode toNode(Object v) {
        if (v == null) {
            return F.nullNode();
        } else if (v instanceof String s) {
            return TextNode.valueOf(s);
        } else if (v instanceof Boolean b) {
            return BooleanNode.valueOf(b);
        } else if (v instanceof Integer i) {
            return IntNode.valueOf(i);
        } else if (v instanceof Long l) {
            return LongNode.valueOf(l);
        } else if (v instanceof Double d) {
            return DoubleNode.valueOf(d);
        } else if (v instanceof Float f) {
            return FloatNode.valueOf(f);
        } else if (v instanceof BigDecimal b) {
            return DecimalNode.valueOf(b);
        } else if (v instanceof BigInteger b) {
            return BigIntegerNode.valueOf(b);
        } else if (v instanceof Date d) {
            return DateTimeNode.ofEpochMillis(d.getTime());
        } else if (v instanceof OffsetDateTime t) {
            return DateTimeNode.of(t);
        } else if (v instanceof UUID u) {
            return UuidNode.of(u);
        } else if (v instanceof byte[] b) {
            return BinaryDataNode.of(BinaryDataNode.SUBTYPE_GENERIC, b);
        } else if (v instanceof ByteBuffer b) {
            byte[] bytes = new byte[b.remaining()];
            b.duplicate().get(bytes);
            return BinaryDataNode.of(BinaryDataNode.SUBTYPE_GENERIC, bytes);
        } else if (v instanceof Byte b) {
            return tagged(BYTE, IntNode.valueOf(b));
        } else if (v instanceof Short s) {
            return tagged(SHORT, IntNode.valueOf(s));
        } else if (v instanceof List<?> l) {
            return array(l);
        } else if (v instanceof Set<?> s) {
            return tagged(SET, array(s));
        } else if (v instanceof Map<?, ?> m) {
            return map(m);
        }
        throw new IllegalArgumentException("TetraGraph cannot store a property value of type "
                + v.getClass().getName() + " (supported: String, Boolean, Byte, Short, Integer, Long, Float, Double, "
                + "BigInteger, BigDecimal, Date, OffsetDateTime, UUID, byte[], ByteBuffer, List, Set, Map of those)");
    }

    private static ArrayNode array(Iterable<?> values) {
        ArrayNode a = F.arrayNode();
        values.forEach(x -> a.add(toNode(x)));
        return a;
    }

    private static JsonNode map(Map<?, ?> m) {
        boolean stringKeys = true;
        for (Object k : m.keySet()) {
            stringKeys &= k instanceof String;
        }
        if (stringKeys && !(m.size() == 2 && m.containsKey(TYPE) && m.containsKey(VALUE))) {
            ObjectNode o = F.objectNode();
            m.forEach((k, x) -> o.set((String) k, toNode(x)));
            return o;
        }
        ArrayNode flat = F.arrayNode();
        m.forEach((k, x) -> flat.add(toNode(k)).add(toNode(x)));
        return tagged(MAP, flat);
    }

    private static ObjectNode tagged(String type, JsonNode value) {
        ObjectNode o = F.objectNode();
        o.put(TYPE, type);
        o.set(VALUE, value);
        return o;
    }

    /** The Java value of a core value (null for null, absent, MinKey and MaxKey). */
    public static Object toJava(JsonNode n) {
        if (n == null || n.isMissingNode() || n.isNull()) {
            return null;
        } else if (n.isTextual()) {
            return n.textValue();
        } else if (n.isBoolean()) {
            return n.booleanValue();
        } else if (n.isNumber()) {
            return number(n);
        } else if (n instanceof TypedNode t) {
            return typed(t);
        } else if (n.isArray()) {
            List<Object> l = new ArrayList<>(n.size());
            n.forEach(e -> l.add(toJava(e)));
            return l;
        } else if (n instanceof ObjectNode o) {
            return object(o);
        }
        throw new IllegalStateException("not a property value: " + n.getClass().getName());
    }

    private static Object number(JsonNode n) {
        if (n.isInt() || n.isShort()) {
            return n.intValue();
        } else if (n.isLong()) {
            return n.longValue();
        } else if (n.isFloat()) {
            return n.floatValue();
        } else if (n.isDouble()) {
            return n.doubleValue();
        } else if (n.isBigInteger()) {
            return n.bigIntegerValue();
        }
        return n.decimalValue();
    }

    private static Object typed(TypedNode t) {
        if (t instanceof DateTimeNode d) {
            if (!d.hasOffset() && d.ticks() % 10_000 == 0) {
                return new Date(d.epochMillis());
            }
            ZoneOffset offset = d.hasOffset() ? ZoneOffset.ofTotalSeconds(d.offsetMinutes() * 60) : ZoneOffset.UTC;
            return OffsetDateTime.ofInstant(d.instant(), offset);
        } else if (t instanceof UuidNode u) {
            return u.uuid();
        } else if (t instanceof BinaryDataNode b) {
            // TinkerPop's binary type on the wire (GraphBinary ByteBuffer, GraphSON gx:ByteBuffer): a byte[] has no
            // serializer, so a vertex holding one could not be returned to a client at all
            return ByteBuffer.wrap(b.bytes()); // a copy: the serializers read its backing array
        } else if (t instanceof ObjectIdNode o) {
            return o.hex();
        } else if (t instanceof TimestampNode ts) {
            return ts.value();
        } else if (t instanceof RegexNode) {
            return t.jsonView().textValue();
        }
        return null; // MinKey, MaxKey: no TinkerPop value
    }

    private static Object object(ObjectNode o) {
        if (o.size() == 2 && o.get(TYPE) instanceof TextNode tag && o.has(VALUE)) {
            JsonNode v = o.get(VALUE);
            switch (tag.textValue()) {
                case BYTE:
                    if (v.canConvertToInt()) {
                        return (byte) v.intValue();
                    }
                    break;
                case SHORT:
                    if (v.canConvertToInt()) {
                        return (short) v.intValue();
                    }
                    break;
                case SET:
                    if (v.isArray()) {
                        Set<Object> s = new LinkedHashSet<>();
                        v.forEach(e -> s.add(toJava(e)));
                        return s;
                    }
                    break;
                case MAP:
                    if (v.isArray() && v.size() % 2 == 0) {
                        Map<Object, Object> m = new LinkedHashMap<>();
                        for (int i = 0; i < v.size(); i += 2) {
                            m.put(toJava(v.get(i)), toJava(v.get(i + 1)));
                        }
                        return m;
                    }
                    break;
                default:
                    Object legacy = LegacyValues.tagged(tag.textValue(), v);
                    if (legacy != LegacyValues.NOT_LEGACY) {
                        return legacy;
                    }
            }
        }
        Map<String, Object> m = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            Object x = toJava(f.getValue());
            if (x != null || f.getValue().isNull()) {
                m.put(f.getKey(), x);
            }
        }
        return m;
    }
}

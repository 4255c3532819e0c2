package io.tetradb.server.crossface;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.BsonValue;
import org.bson.UuidRepresentation;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The documented mapping (document-core/README.md, "Cross-face views") as test code: a typed value in each face's
 * client types (to write it) and the canonical text of what each face's client must read back (to compare with
 * what it does read). Canonical texts carry their type, so {@code 1} as Int32 and as Int64 differ; objects list
 * their fields sorted (field order is not part of the mapping).
 */
final class FaceViews {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter ISO7 = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSxxx");
    private static final DateTimeFormatter ISO7Z = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSS'Z'");

    private FaceViews() {
    }

    // ---- writing: the typed value in a face's client types

    static BsonValue bson(TypedValue v) {
        if (v instanceof TypedValue.Str s) {
            return new BsonString(s.v());
        }
        if (v instanceof TypedValue.Bool b) {
            return BsonBoolean.valueOf(b.v());
        }
        if (v instanceof TypedValue.Null n) {
            return BsonNull.VALUE;
        }
        if (v instanceof TypedValue.Int32 i) {
            return new BsonInt32(i.v());
        }
        if (v instanceof TypedValue.Int64 l) {
            return new BsonInt64(l.v());
        }
        if (v instanceof TypedValue.Dbl d) {
            return new BsonDouble(d.v());
        }
        if (v instanceof TypedValue.Flt f) {
            return new BsonDouble(f.v());
        }
        if (v instanceof TypedValue.Dec d) {
            return new BsonDecimal128(new Decimal128(d.v()));
        }
        if (v instanceof TypedValue.DateTime t) {
            return new BsonDateTime(Math.floorDiv(t.ticks(), 10_000));
        }
        if (v instanceof TypedValue.Binary b) {
            return new BsonBinary((byte) b.subtype(), b.bytes());
        }
        if (v instanceof TypedValue.Guid g) {
            return new BsonBinary(g.v(), UuidRepresentation.STANDARD);
        }
        if (v instanceof TypedValue.Oid o) {
            return new BsonObjectId(new ObjectId(o.hex()));
        }
        if (v instanceof TypedValue.Ts t) {
            return new BsonTimestamp((int) t.seconds(), (int) t.increment());
        }
        if (v instanceof TypedValue.Arr a) {
            return new BsonArray(a.items().stream().map(FaceViews::bson).toList());
        }
        if (v instanceof TypedValue.Obj o) {
            BsonDocument d = new BsonDocument();
            o.fields().forEach((k, x) -> d.put(k, bson(x)));
            return d;
        }
        throw new IllegalArgumentException(String.valueOf(v));
    }

    /** A Tables property value (scalars only: Tables has no nesting). */
    static Object edm(TypedValue v) {
        Object plain = plainJava(v);
        if (plain != null) {
            return plain;
        }
        if (v instanceof TypedValue.DateTime t) {
            return OffsetDateTime.ofInstant(instant(t.ticks()), ZoneOffset.UTC);
        }
        if (v instanceof TypedValue.Binary b) {
            return b.bytes();
        }
        throw new IllegalArgumentException("no Edm type for " + v);
    }

    /** A Gremlin property value (TinkerPop's Java types, sent by the gremlin-driver as script bindings). */
    static Object java(TypedValue v) {
        Object plain = plainJava(v);
        if (plain != null) {
            return plain;
        }
        if (v instanceof TypedValue.Flt f) {
            return f.v();
        }
        if (v instanceof TypedValue.Dec d) {
            return d.v();
        }
        if (v instanceof TypedValue.DateTime t) {
            return t.offsetSeconds() == null ? new Date(Math.floorDiv(t.ticks(), 10_000)) : OffsetDateTime.ofInstant(instant(t.ticks()), ZoneOffset.ofTotalSeconds(t.offsetSeconds()));
        }
        if (v instanceof TypedValue.Binary b) {
            return ByteBuffer.wrap(b.bytes()); // TinkerPop's binary type: the driver has no byte[] serializer
        }
        if (v instanceof TypedValue.Arr a) {
            return new ArrayList<>(a.items().stream().map(FaceViews::java).toList());
        }
        if (v instanceof TypedValue.Obj o) {
            Map<String, Object> m = new LinkedHashMap<>();
            o.fields().forEach((k, x) -> m.put(k, java(x)));
            return m;
        }
        throw new IllegalArgumentException("no Gremlin type for " + v);
    }

    /** The JSON a Cosmos client writes (JSON types only). */
    static JsonNode json(TypedValue v) {
        try {
            return JSON.readTree(jsonText(v));
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---- reading: what each face's client must show, as canonical text (null: the field is absent)

    static String expectedMongo(TypedValue v) {
        if (v instanceof TypedValue.DateTime t) {
            return "date:" + Math.floorDiv(t.ticks(), 10_000);
        }
        if (v instanceof TypedValue.Guid g) {
            return "bin4:" + HexFormat.of().formatHex(uuidBytes(g.v()));
        }
        if (v instanceof TypedValue.Flt f) {
            return "dbl:" + (double) f.v();
        }
        if (v instanceof TypedValue.Arr a) {
            return list(a.items().stream().map(FaceViews::expectedMongo).toList());
        }
        if (v instanceof TypedValue.Obj o) {
            return map(o.fields(), FaceViews::expectedMongo);
        }
        return scalar(v);
    }

    static String actualMongo(BsonValue v) {
        return switch (v.getBsonType()) {
            case STRING -> "str:" + v.asString().getValue();
            case BOOLEAN -> "bool:" + v.asBoolean().getValue();
            case NULL -> "null";
            case INT32 -> "i32:" + v.asInt32().getValue();
            case INT64 -> "i64:" + v.asInt64().getValue();
            case DOUBLE -> "dbl:" + v.asDouble().getValue();
            case DECIMAL128 -> "dec:" + v.asDecimal128().getValue().bigDecimalValue();
            case DATE_TIME -> "date:" + v.asDateTime().getValue();
            case BINARY -> v.asBinary().getType() == 4 ? "bin4:" + HexFormat.of().formatHex(v.asBinary().getData())
                    : "bin:" + v.asBinary().getType() + ":" + HexFormat.of().formatHex(v.asBinary().getData());
            case OBJECT_ID -> "oid:" + v.asObjectId().getValue().toHexString();
            case TIMESTAMP -> "ts:" + Integer.toUnsignedLong(v.asTimestamp().getTime()) + ":"
                    + Integer.toUnsignedLong(v.asTimestamp().getInc());
            case ARRAY -> list(v.asArray().stream().map(FaceViews::actualMongo).toList());
            case DOCUMENT -> {
                Map<String, String> m = new TreeMap<>();
                v.asDocument().forEach((k, x) -> m.put(k, actualMongo(x)));
                yield m.toString();
            }
            default -> "other:" + v;
        };
    }

    static String expectedTables(TypedValue v) {
        if (v instanceof TypedValue.Null n) {
            return null;
        }
        if (v instanceof TypedValue.Flt f) {
            return "dbl:" + (double) f.v();
        }
        if (v instanceof TypedValue.Dec d) {
            return "str:" + d.v();
        }
        if (v instanceof TypedValue.DateTime t) {
            return "date:" + t.ticks();
        }
        String tagged = withoutBsonTypes(v);
        if (tagged != null) {
            return tagged;
        }
        if (v instanceof TypedValue.Arr a) {
            return "json:" + actualJson(json(v));
        }
        if (v instanceof TypedValue.Obj o) {
            return "json:" + actualJson(json(v));
        }
        return scalar(v);
    }

    /** A Tables property as the Azure Tables SDK gives it; {@code jsonExpected}: a string holding a JSON view. */
    static String actualTables(Object v, boolean jsonExpected) {
        if (v instanceof String s && jsonExpected) {
            try {
                return "json:" + actualJson(JSON.readTree(s));
            } catch (java.io.IOException e) {
                return "str:" + s;
            }
        }
        if (v instanceof OffsetDateTime t) {
            return "date:" + ticks(t.toInstant());
        }
        String tagged = taggedJava(v);
        return tagged != null ? tagged : "other:" + v.getClass().getSimpleName() + ":" + v;
    }

    /** What the Cosmos SDK shows: the JSON view, as a default Jackson mapper reads it (numbers by value). */
    static String expectedCosmos(TypedValue v) {
        return actualJson(json(v));
    }

    static String actualJson(JsonNode n) {
        if (n.isTextual()) {
            return "str:" + n.textValue();
        } else if (n.isBoolean()) {
            return "bool:" + n.booleanValue();
        } else if (n.isNull()) {
            return "null";
        } else if (n.isNumber()) {
            BigDecimal d = n.decimalValue();
            return "num:" + (d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString());
        } else if (n.isArray()) {
            List<String> items = new ArrayList<>();
            n.forEach(x -> items.add(actualJson(x)));
            return list(items);
        } else if (n.isObject()) {
            Map<String, String> m = new TreeMap<>();
            n.fields().forEachRemaining(e -> m.put(e.getKey(), actualJson(e.getValue())));
            return m.toString();
        }
        return "other:" + n;
    }

    static String expectedGremlin(TypedValue v) {
        if (v instanceof TypedValue.Null n) {
            return null;
        }
        if (v instanceof TypedValue.Flt f) {
            return "flt:" + f.v();
        }
        if (v instanceof TypedValue.Dec d) {
            return "dec:" + d.v();
        }
        if (v instanceof TypedValue.DateTime t) {
            return t.offsetSeconds() == null && t.ticks() % 10_000 == 0 ? "date:" + t.ticks() / 10_000 : "odt:" + t.ticks() + "@" + (t.offsetSeconds() == null ? 0 : t.offsetSeconds());
        }
        String tagged = withoutBsonTypes(v);
        if (tagged != null) {
            return tagged;
        }
        if (v instanceof TypedValue.Arr a) {
            return list(a.items().stream().map(x -> { String e = expectedGremlin(x); return e == null ? "null" : e; }).toList());
        }
        if (v instanceof TypedValue.Obj o) {
            return map(o.fields(), x -> { String e = expectedGremlin(x); return e == null ? "null" : e; });
        }
        return scalar(v);
    }

    @SuppressWarnings("unchecked")
    static String actualGremlin(Object v) {
        if (v == null) {
            return "null";
        }
        String tagged = taggedJava(v);
        if (tagged != null) {
            return tagged;
        }
        if (v instanceof Float f) {
            return "flt:" + f;
        }
        if (v instanceof BigDecimal d) {
            return "dec:" + d;
        }
        if (v instanceof BigInteger i) {
            return "bigint:" + i;
        }
        if (v instanceof Date d) {
            return "date:" + d.getTime();
        }
        if (v instanceof OffsetDateTime t) {
            return "odt:" + ticks(t.toInstant()) + "@" + t.getOffset().getTotalSeconds();
        }
        if (v instanceof ByteBuffer b) {
            byte[] copy = new byte[b.remaining()];
            b.duplicate().get(copy);
            return "bin:" + HexFormat.of().formatHex(copy);
        }
        if (v instanceof List<?> l) {
            return list(l.stream().map(FaceViews::actualGremlin).toList());
        }
        if (v instanceof Map<?, ?> m) {
            Map<String, String> sorted = new TreeMap<>();
            ((Map<Object, Object>) m).forEach((k, x) -> sorted.put(String.valueOf(k), actualGremlin(x)));
            return sorted.toString();
        }
        return "other:" + v.getClass().getSimpleName() + ":" + v;
    }

    // ---- shared

    /**
     * The Java value of a string, boolean, 32- or 64-bit integer, double or GUID, as the Tables and Gremlin clients
     * send it; else null.
     */
    private static Object plainJava(TypedValue v) {
        if (v instanceof TypedValue.Str s) {
            return s.v();
        }
        if (v instanceof TypedValue.Bool b) {
            return b.v();
        }
        if (v instanceof TypedValue.Int32 i) {
            return i.v();
        }
        if (v instanceof TypedValue.Int64 l) {
            return l.v();
        }
        if (v instanceof TypedValue.Dbl d) {
            return d.v();
        }
        if (v instanceof TypedValue.Guid g) {
            return g.v();
        }
        return null;
    }

    /** The canonical text of a Java value that the Tables SDK and the gremlin-driver give alike; else null. */
    private static String taggedJava(Object v) {
        if (v instanceof String s) {
            return "str:" + s;
        }
        if (v instanceof Boolean b) {
            return "bool:" + b;
        }
        if (v instanceof Integer i) {
            return "i32:" + i;
        }
        if (v instanceof Long l) {
            return "i64:" + l;
        }
        if (v instanceof Double d) {
            return "dbl:" + d;
        }
        if (v instanceof byte[] b) {
            return "bin:" + HexFormat.of().formatHex(b);
        }
        if (v instanceof UUID u) {
            return "uuid:" + u;
        }
        return null;
    }

    /**
     * What a face without BSON's binary subtypes, ObjectId and Timestamp (Tables, Gremlin) shows of them and of a
     * GUID: the bytes, the GUID, the ObjectId's hex string, the Timestamp's 64-bit value; else null.
     */
    private static String withoutBsonTypes(TypedValue v) {
        if (v instanceof TypedValue.Binary b) {
            return "bin:" + HexFormat.of().formatHex(b.bytes());
        }
        if (v instanceof TypedValue.Guid g) {
            return "uuid:" + g.v();
        }
        if (v instanceof TypedValue.Oid o) {
            return "str:" + o.hex();
        }
        if (v instanceof TypedValue.Ts t) {
            return "i64:" + ((t.seconds() << 32) | t.increment());
        }
        return null;
    }

    /** The JSON view (document-core/README.md): what SQL and the Cosmos face show. */
    static String jsonText(TypedValue v) {
        if (v instanceof TypedValue.Str s) {
            return quote(s.v());
        }
        if (v instanceof TypedValue.Bool b) {
            return Boolean.toString(b.v());
        }
        if (v instanceof TypedValue.Null n) {
            return "null";
        }
        if (v instanceof TypedValue.Int32 i) {
            return Integer.toString(i.v());
        }
        if (v instanceof TypedValue.Int64 l) {
            return Long.toString(l.v());
        }
        if (v instanceof TypedValue.Dbl d) {
            return Double.isFinite(d.v()) ? Double.toString(d.v()) : quote(Double.toString(d.v()));
        }
        if (v instanceof TypedValue.Flt f) {
            return Float.isFinite(f.v()) ? Float.toString(f.v()) : quote(Float.toString(f.v()));
        }
        if (v instanceof TypedValue.Dec d) {
            return d.v().toString();
        }
        if (v instanceof TypedValue.DateTime t) {
            return quote(t.offsetSeconds() == null ? ISO7Z.format(OffsetDateTime.ofInstant(instant(t.ticks()), ZoneOffset.UTC))
                    : ISO7.format(OffsetDateTime.ofInstant(instant(t.ticks()), ZoneOffset.ofTotalSeconds(t.offsetSeconds()))));
        }
        if (v instanceof TypedValue.Binary b) {
            return quote(Base64.getEncoder().encodeToString(b.bytes()));
        }
        if (v instanceof TypedValue.Guid g) {
            return quote(g.v().toString());
        }
        if (v instanceof TypedValue.Oid o) {
            return quote(o.hex());
        }
        if (v instanceof TypedValue.Ts t) {
            return Long.toString((t.seconds() << 32) | t.increment());
        }
        if (v instanceof TypedValue.Arr a) {
            return "[" + String.join(",", a.items().stream().map(FaceViews::jsonText).toList()) + "]";
        }
        if (v instanceof TypedValue.Obj o) {
            List<String> fields = new ArrayList<>();
            o.fields().forEach((k, x) -> fields.add(quote(k) + ":" + jsonText(x)));
            return "{" + String.join(",", fields) + "}";
        }
        throw new IllegalArgumentException(String.valueOf(v));
    }

    private static String scalar(TypedValue v) {
        if (v instanceof TypedValue.Str s) {
            return "str:" + s.v();
        }
        if (v instanceof TypedValue.Bool b) {
            return "bool:" + b.v();
        }
        if (v instanceof TypedValue.Null n) {
            return "null";
        }
        if (v instanceof TypedValue.Int32 i) {
            return "i32:" + i.v();
        }
        if (v instanceof TypedValue.Int64 l) {
            return "i64:" + l.v();
        }
        if (v instanceof TypedValue.Dbl d) {
            return "dbl:" + d.v();
        }
        if (v instanceof TypedValue.Dec d) {
            return "dec:" + d.v();
        }
        if (v instanceof TypedValue.Binary b) {
            return "bin:" + b.subtype() + ":" + HexFormat.of().formatHex(b.bytes());
        }
        if (v instanceof TypedValue.Oid o) {
            return "oid:" + o.hex();
        }
        if (v instanceof TypedValue.Ts t) {
            return "ts:" + t.seconds() + ":" + t.increment();
        }
        throw new IllegalArgumentException(v.toString());
    }

    private static String list(List<String> items) {
        return "[" + String.join(", ", items) + "]";
    }

    private static String map(Map<String, TypedValue> fields, java.util.function.Function<TypedValue, String> view) {
        Map<String, String> m = new TreeMap<>();
        fields.forEach((k, x) -> {
            String e = view.apply(x);
            if (e != null) {
                m.put(k, e);
            }
        });
        return m.toString();
    }

    private static String quote(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static Instant instant(long ticks) {
        return Instant.ofEpochSecond(Math.floorDiv(ticks, 10_000_000L), Math.floorMod(ticks, 10_000_000L) * 100);
    }

    static long ticks(Instant i) {
        return i.getEpochSecond() * 10_000_000L + i.getNano() / 100;
    }

    private static byte[] uuidBytes(UUID u) {
        return ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits()).array();
    }
}


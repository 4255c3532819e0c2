package io.tetradb.mongo.bson;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.Limits;
import io.tetradb.mongo.command.MongoError;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonInt32;
import org.bson.BsonNull;
import org.bson.BsonString;
import org.bson.BsonDocument;
import org.bson.BsonDecimal128;
import org.bson.BsonDouble;
import org.bson.BsonInt64;
import org.bson.types.Decimal128;
import org.bson.BsonValue;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriterSettings;

import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * A Mongo document ↔ the core item that stores it.
 *
 * <p>The item is the document in MongoDB's relaxed Extended JSON (written and read by org.mongodb:bson): strings,
 * booleans, null and every number stay plain JSON values, so the core's indexes, range seeks and SQL see them as
 * they are; every other type is its tagged Extended JSON object ({@code {"$oid": …}}, {@code {"$date": …}},
 * {@code {"$binary": …}}, …), which the bson library reads back exactly. What plain JSON numbers lose is kept in a
 * sidecar {@code "_types"} keyed by JSON pointer: an Int64 small enough to read back as an Int32 ({@code "long"}), a
 * Decimal128 (stored as the nearest double, {@code "decimal:1.50"} keeps its digits) and a non-finite double or
 * decimal (stored as ±{@link Double#MAX_VALUE}, NaN as the lowest, {@code "double:NaN"}) — so numbers of every type
 * are found by numeric index seeks. The core's item {@code id} is {@link IdCodec}'s encoding of {@code _id};
 * {@code _id} itself stays in the item too.
 *
 * <p>Top-level names the core reserves ({@code id}, {@code _rid}, {@code _self}, {@code _etag}, {@code _attachments},
 * {@code _ts}, {@code _types}) and names starting with {@code ~} get a {@code ~} in front in the item, so no user
 * field collides with the core's properties or with this face's own ({@code ~pk}, the partition key path).
 */
public final class DocumentMapper {
    public static final String TYPES = "_types";
    /**
     * Marks a document last written by a replacement (change streams tell {@code replace} from {@code update} by
     * it). No user field is stored under this name: a user's top-level {@code ~rep} is stored as {@code ~~rep}.
     */
    public static final String REPLACED = "~rep";
    private static final Set<String> RESERVED = Set.of("id", "_rid", "_self", "_etag", "_attachments", "_ts", TYPES);
    private static final JsonWriterSettings RELAXED = JsonWriterSettings.builder().outputMode(JsonMode.RELAXED).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    private DocumentMapper() {
    }

    /** The stored name of a top-level field. */
    public static String storedName(String field) {
        if (field.isEmpty()) {
            return field;
        }
        char first = field.charAt(0);
        // every reserved name starts with 'i' or '_': most names need no set lookup (a per-field cost on every write)
        return first == '~' || (first == 'i' || first == '_') && RESERVED.contains(field) ? "~" + field : field;
    }

    public static String userName(String stored) {
        return stored.startsWith("~") ? stored.substring(1) : stored;
    }

    /**
     * The item for {@code doc} (which must have an {@code _id}). One walk over the document checks its names and
     * nesting, builds the item and bounds its BSON size; only a document the bound puts near the 16 MB limit is
     * encoded to learn its exact size.
     */
    public static ObjectNode toItem(BsonDocument doc) {
        Walk walk = new Walk();
        ObjectNode out = JSON.createObjectNode();
        out.put("id", IdCodec.encode(doc.get("_id")));
        mapFields(doc, out, walk);
        int size = walk.bound <= Limits.MAX_BSON_OBJECT_SIZE ? 0 : BsonSize.of(doc);
        if (size > Limits.MAX_BSON_OBJECT_SIZE) {
            throw new MongoError(ErrorCode.BSON_OBJECT_TOO_LARGE, "BSONObj size: " + size + " (0x"
                    + Integer.toHexString(size).toUpperCase() + ") is invalid. Size must be between 0 and "
                    + Limits.MAX_BSON_OBJECT_SIZE + "(16MB)");
        }
        if (!walk.types.isEmpty()) {
            out.set(TYPES, walk.types);
        }
        return out;
    }

    /** The top-level fields, {@code _id} first: MongoDB moves {@code _id} to the front of every inserted document. */
    private static void mapFields(BsonDocument doc, ObjectNode out, Walk walk) {
        DbRefFields.check(doc);
        BsonValue id = doc.get("_id");
        if (id != null) {
            walk.bound += 2 + 3L * 3;
            out.set("_id", json(id, new Pointer(null, "_id"), walk, 1));
        }
        for (Map.Entry<String, BsonValue> e : doc.entrySet()) {
            String name = e.getKey();
            if (name.equals("_id")) {
                continue;
            }
            walk.bound += 2 + 3L * name.length();
            String stored = storedName(name);
            out.set(stored, json(e.getValue(), new Pointer(null, stored), walk, 1));
        }
    }

    /** The bound {@link #toItem}'s walk puts on {@code doc}'s BSON size (never below it: DocumentMapperTest). */
    static long sizeBound(BsonDocument doc) {
        Walk walk = new Walk();
        mapFields(doc, JSON.createObjectNode(), walk);
        return walk.bound;
    }

    /** What {@link #toItem} gathers on its way: the numbers' sidecar and a bound of the BSON size. */
    private static final class Walk {
        final ObjectNode types = JSON.createObjectNode();
        long bound = 5;
    }

    /** A JSON pointer built only when a value needs a sidecar entry (rare), not for every value. */
    private record Pointer(Pointer parent, String name) {
        @Override
        public String toString() {
            String self = "/" + name.replace("~", "~0").replace("/", "~1");
            return parent == null ? self : parent + self;
        }
    }

    /** The Mongo document an item stores (system properties and the sidecar left out). */
    public static BsonDocument fromItem(JsonNode item) {
        BsonDocument stored = new BsonDocument();
        for (Iterator<Map.Entry<String, JsonNode>> it = item.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!RESERVED.contains(e.getKey()) && !e.getKey().equals(REPLACED)) {
                stored.put(e.getKey(), bson(e.getValue()));
            }
        }
        return withTypesAndUserNames(stored, item.get(TYPES));
    }

    /**
     * As {@link #fromItem} for the item's stored JSON text, read with Jackson's streaming parser straight into BSON
     * values, without building the JSON tree first (a point read's costliest step). Gives exactly what
     * {@code fromItem(mapper.readTree(json))} gives (DocumentMapperTest compares them).
     */
    public static BsonDocument fromItemJson(ObjectMapper mapper, byte[] json, int offset, int length) {
        try (com.fasterxml.jackson.core.JsonParser p = mapper.getFactory().createParser(json, offset, length)) {
            if (p.nextToken() != com.fasterxml.jackson.core.JsonToken.START_OBJECT) {
                throw new IllegalStateException("a stored item is a JSON object");
            }
            BsonDocument stored = new BsonDocument();
            JsonNode types = null;
            while (p.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                if (name.equals(TYPES)) {
                    types = mapper.readTree(p);
                } else if (RESERVED.contains(name) || name.equals(REPLACED)) {
                    p.skipChildren();
                } else {
                    stored.put(name, streamed(mapper, p));
                }
            }
            return withTypesAndUserNames(stored, types);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("stored item is not valid JSON", e);
        }
    }

    /** The BSON value at the parser's current token, read as {@link #bson} reads its tree. */
    private static BsonValue streamed(ObjectMapper mapper, com.fasterxml.jackson.core.JsonParser p)
            throws java.io.IOException {
        switch (p.currentToken()) {
            case START_OBJECT -> {
                if (p.nextToken() != com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
                    return new BsonDocument();
                }
                String first = p.currentName();
                if (first.startsWith("$") && !first.equals(DbRefFields.REF)) {
                    // a tagged value (or a '$' name another face wrote): the rest as a tree, then as bson() reads it
                    ObjectNode tree = JSON.createObjectNode();
                    do {
                        String name = p.currentName();
                        p.nextToken();
                        tree.set(name, mapper.readTree(p));
                    } while (p.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME);
                    return bson(tree);
                }
                BsonDocument d = new BsonDocument();
                do {
                    String name = p.currentName();
                    p.nextToken();
                    d.put(name, streamed(mapper, p));
                } while (p.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME);
                return d;
            }
            case START_ARRAY -> {
                BsonArray a = new BsonArray();
                while (p.nextToken() != com.fasterxml.jackson.core.JsonToken.END_ARRAY) {
                    a.add(streamed(mapper, p));
                }
                return a;
            }
            case VALUE_STRING -> {
                return new BsonString(p.getText());
            }
            case VALUE_TRUE -> {
                return BsonBoolean.TRUE;
            }
            case VALUE_FALSE -> {
                return BsonBoolean.FALSE;
            }
            case VALUE_NUMBER_INT -> {
                return switch (p.getNumberType()) {
                    case INT -> new BsonInt32(p.getIntValue());
                    case LONG -> {
                        long l = p.getLongValue();
                        yield l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE ? new BsonInt32((int) l)
                                : new BsonInt64(l);
                    }
                    default -> new BsonDouble(p.getDoubleValue());
                };
            }
            case VALUE_NUMBER_FLOAT -> {
                return new BsonDouble(p.getDoubleValue());
            }
            default -> {
                return BsonNull.VALUE;
            }
        }
    }

    private static BsonDocument withTypesAndUserNames(BsonDocument stored, JsonNode types) {
        if (types != null && types.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = types.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                restore(stored, e.getKey(), e.getValue().asText());
            }
        }
        BsonDocument out = new BsonDocument();
        BsonValue id = stored.get("_id");
        if (id != null) {
            out.put("_id", id); // first, also in documents stored before _id was moved to the front on writes
        }
        for (Map.Entry<String, BsonValue> e : stored.entrySet()) {
            if (!e.getKey().equals("_id")) {
                out.put(userName(e.getKey()), e.getValue());
            }
        }
        return out;
    }

    /**
     * The relaxed Extended JSON of a value, with its numbers plain JSON numbers: what a plain number does not say
     * (an Int64 that fits an Int32, a non-finite double, a decimal) goes into {@code types} under the value's pointer.
     * Documents, arrays and JSON scalars map one to one; ObjectIds and dates (in the years 1970–9999) are written
     * here exactly as the bson library's relaxed writer writes them; the other types take the library's tagged form.
     */
    private static JsonNode json(BsonValue v, Pointer at, Walk walk, int depth) {
        ObjectNode types = walk.types;
        JsonNodeFactory f = JSON.getNodeFactory();
        switch (v.getBsonType()) {
            case DOCUMENT -> {
                if (depth + 1 > Limits.MAX_NESTING_DEPTH) {
                    throw tooDeep();
                }
                ObjectNode o = f.objectNode();
                walk.bound += 5;
                DbRefFields.check(v.asDocument());
                for (Map.Entry<String, BsonValue> e : v.asDocument().entrySet()) {
                    String name = e.getKey();
                    walk.bound += 2 + 3L * name.length();
                    o.set(name, json(e.getValue(), new Pointer(at, name), walk, depth + 1));
                }
                return o;
            }
            case ARRAY -> {
                if (depth + 1 > Limits.MAX_NESTING_DEPTH) {
                    throw tooDeep();
                }
                BsonArray array = v.asArray();
                ArrayNode a = f.arrayNode(array.size());
                walk.bound += 5 + 12L * array.size();
                for (int i = 0; i < array.size(); i++) {
                    a.add(json(array.get(i), new Pointer(at, Integer.toString(i)), walk, depth + 1));
                }
                return a;
            }
            case STRING -> {
                walk.bound += 5 + 3L * v.asString().getValue().length();
                return f.textNode(v.asString().getValue());
            }
            case BOOLEAN -> {
                walk.bound += 16;
                return f.booleanNode(v.asBoolean().getValue());
            }
            case NULL -> {
                walk.bound += 16;
                return f.nullNode();
            }
            case INT32 -> {
                walk.bound += 16;
                return f.numberNode(v.asInt32().getValue());
            }
            case INT64 -> {
                walk.bound += 16;
                long l = v.asInt64().getValue();
                if (l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE) {
                    types.put(at.toString(), "long");
                }
                return f.numberNode(l);
            }
            case DOUBLE -> {
                walk.bound += 16;
                double d = v.asDouble().getValue();
                if (Double.isFinite(d)) {
                    return f.numberNode(d);
                }
                types.put(at.toString(), "double:" + d);
                return f.numberNode(Double.isNaN(d) || d < 0 ? -Double.MAX_VALUE : Double.MAX_VALUE);
            }
            case DECIMAL128 -> {
                walk.bound += 16;
                Decimal128 d = v.asDecimal128().getValue();
                types.put(at.toString(), "decimal:" + d);
                if (d.isNaN() || d.isInfinite()) {
                    return f.numberNode(d.isNaN() || d.isNegative() ? -Double.MAX_VALUE : Double.MAX_VALUE);
                }
                double approx = d.bigDecimalValue().doubleValue();
                return f.numberNode(Double.isFinite(approx) ? approx
                        : approx > 0 ? Double.MAX_VALUE : -Double.MAX_VALUE);
            }
            case OBJECT_ID -> {
                walk.bound += 16;
                return f.objectNode().put("$oid", v.asObjectId().getValue().toHexString());
            }
            case DATE_TIME -> {
                walk.bound += 16;
                long ms = v.asDateTime().getValue();
                if (ms >= 0 && ms <= LAST_MS_OF_YEAR_9999) {
                    return f.objectNode().put("$date", java.time.format.DateTimeFormatter.ISO_OFFSET_DATE_TIME
                            .format(java.time.Instant.ofEpochMilli(ms).atOffset(java.time.ZoneOffset.UTC)));
                }
                return tagged(v);
            }
            default -> {
                walk.bound += BsonSize.valueBound(v);
                return tagged(v);
            }
        }
    }

    /** The relaxed writer's own ISO-8601 range; beyond it dates are written as {@code {"$numberLong": ...}}. */
    private static final long LAST_MS_OF_YEAR_9999 = 253402300799999L;

    private static JsonNode tagged(BsonValue v) {
        try {
            return JSON.readTree(new BsonDocument("v", v).toJson(RELAXED)).get("v");
        } catch (JsonProcessingException e) {
            throw new MongoError(ErrorCode.BAD_VALUE, "value cannot be stored: " + e.getOriginalMessage());
        }
    }

    /** The BSON value of stored JSON: tagged Extended JSON objects are read back by the bson library. */
    private static BsonValue bson(JsonNode n) {
        switch (n.getNodeType()) {
            case OBJECT -> {
                String first = n.size() >= 1 ? n.fieldNames().next() : "";
                if (first.startsWith("$") && !first.equals(DbRefFields.REF)) { // a DBRef is a plain document
                    BsonValue direct = n.size() == 1 ? commonTag(n) : null;
                    if (direct != null) {
                        return direct;
                    }
                    try {
                        return BsonDocument.parse("{\"v\": " + n + "}").get("v");
                    } catch (RuntimeException notExtendedJson) {
                        // written by another face with a '$' name: an ordinary document
                    }
                }
                BsonDocument d = new BsonDocument();
                for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    d.put(e.getKey(), bson(e.getValue()));
                }
                return d;
            }
            case ARRAY -> {
                BsonArray a = new BsonArray(new java.util.ArrayList<>(n.size()));
                for (JsonNode x : n) {
                    a.add(bson(x));
                }
                return a;
            }
            case STRING -> {
                return new BsonString(n.textValue());
            }
            case BOOLEAN -> {
                return BsonBoolean.valueOf(n.booleanValue());
            }
            case NUMBER -> {
                if (n.isInt() || n.isShort()) {
                    return new BsonInt32(n.intValue());
                }
                if (n.isLong()) {
                    long l = n.longValue();
                    return l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE ? new BsonInt32((int) l) : new BsonInt64(l);
                }
                if (n.isBigInteger()) {
                    return new BsonDouble(n.doubleValue());
                }
                if (n.isBigDecimal() && n.decimalValue().scale() <= 0 && n.decimalValue().abs()
                        .compareTo(java.math.BigDecimal.valueOf(Long.MAX_VALUE)) <= 0 && !n.toString().contains(".")) {
                    long l = n.longValue();
                    return l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE ? new BsonInt32((int) l) : new BsonInt64(l);
                }
                return new BsonDouble(n.doubleValue());
            }
            default -> {
                return BsonNull.VALUE;
            }
        }
    }

    /**
     * The value of the tagged forms this face writes most ({@code {"$date": "<ISO-8601>"}}, {@code {"$oid": hex}}),
     * read without going through text; null for anything else, which the bson library then reads.
     */
    private static BsonValue commonTag(JsonNode n) {
        JsonNode date = n.get("$date");
        if (date != null && date.isTextual()) {
            long fast = utcMillis(date.textValue());
            if (fast != NOT_PLAIN_UTC) {
                return new org.bson.BsonDateTime(fast);
            }
            try {
                return new org.bson.BsonDateTime(java.time.format.DateTimeFormatter.ISO_OFFSET_DATE_TIME
                        .parse(date.textValue(), java.time.Instant::from).toEpochMilli());
            } catch (java.time.DateTimeException | ArithmeticException notIso) {
                return null;
            }
        }
        JsonNode oid = n.get("$oid");
        if (oid != null && oid.isTextual() && org.bson.types.ObjectId.isValid(oid.textValue())) {
            return new org.bson.BsonObjectId(new org.bson.types.ObjectId(oid.textValue()));
        }
        return null;
    }

    private static MongoError tooDeep() {
        return new MongoError(ErrorCode.BAD_VALUE, "cannot store document because it exceeds "
                + Limits.MAX_NESTING_DEPTH + " levels of nesting");
    }

    /** The BSON value a sidecar tag stands for, given what the plain JSON read back as. */
    private static BsonValue typed(BsonValue plain, String tag) {
        if (tag.equals("long") && plain.isInt32()) {
            return new BsonInt64(plain.asInt32().getValue());
        }
        if (tag.startsWith("decimal:")) {
            return new BsonDecimal128(Decimal128.parse(tag.substring(8)));
        }
        if (tag.startsWith("double:")) {
            return new BsonDouble(Double.parseDouble(tag.substring(7)));
        }
        return plain;
    }

    private static final long NOT_PLAIN_UTC = Long.MIN_VALUE;

    /**
     * The instant of {@code yyyy-MM-ddTHH:mm:ss[.f…]Z} (what this face writes for dates of the years 1970–9999), read
     * by position; {@link #NOT_PLAIN_UTC} for any other form (java.time's parser then reads it).
     */
    static long utcMillis(String t) {
        java.time.Instant i = io.tetradb.core.value.UtcInstants.parse(t);
        return i == null ? NOT_PLAIN_UTC : i.toEpochMilli(); // sub-millisecond digits dropped, as java.time's path does
    }

    private static void restore(BsonDocument root, String pointer, String tag) {
        String[] parts = pointer.substring(1).split("/", -1);
        BsonValue cur = root;
        for (int i = 0; i < parts.length; i++) {
            String name = parts[i].replace("~1", "/").replace("~0", "~");
            boolean last = i == parts.length - 1;
            if (cur instanceof BsonDocument d) {
                BsonValue next = d.get(name);
                if (next == null) {
                    return;
                }
                if (last) {
                    d.put(name, typed(next, tag));
                    return;
                }
                cur = next;
            } else if (cur instanceof BsonArray a) {
                int idx;
                try {
                    idx = Integer.parseInt(name);
                } catch (NumberFormatException e) {
                    return;
                }
                if (idx < 0 || idx >= a.size()) {
                    return;
                }
                if (last) {
                    a.set(idx, typed(a.get(idx), tag));
                    return;
                }
                cur = a.get(idx);
            } else {
                return;
            }
        }
    }
}

package io.tetradb.mongo.bson;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt64;
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
 * booleans, null, Int32/Int64/Double stay plain JSON values, so the core's indexes, range seeks and SQL see them as
 * they are; every other type is its tagged Extended JSON object ({@code {"$oid": …}}, {@code {"$date": …}},
 * {@code {"$numberDecimal": …}}, {@code {"$binary": …}}, …), which the bson library reads back exactly. The one
 * thing relaxed JSON loses — an Int64 small enough to read back as an Int32 — is kept in a sidecar
 * {@code "_types": {"/path/0/x": "long"}} (JSON pointers). The core's item {@code id} is {@link IdCodec}'s encoding
 * of {@code _id}; {@code _id} itself stays in the item too.
 *
 * <p>Top-level names the core reserves ({@code id}, {@code _rid}, {@code _self}, {@code _etag}, {@code _attachments},
 * {@code _ts}, {@code _types}) and names starting with {@code ~} get a {@code ~} in front in the item, so no user
 * field collides with the core's properties or with this face's own ({@code ~pk}, the partition key path).
 */
public final class DocumentMapper {
    public static final String TYPES = "_types";
    private static final Set<String> RESERVED = Set.of("id", "_rid", "_self", "_etag", "_attachments", "_ts", TYPES);
    private static final JsonWriterSettings RELAXED = JsonWriterSettings.builder().outputMode(JsonMode.RELAXED).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    private DocumentMapper() {
    }

    /** The stored name of a top-level field. */
    public static String storedName(String field) {
        return RESERVED.contains(field) || field.startsWith("~") ? "~" + field : field;
    }

    static String userName(String stored) {
        return stored.startsWith("~") ? stored.substring(1) : stored;
    }

    /** The item for {@code doc} (which must have an {@code _id}). */
    public static ObjectNode toItem(BsonDocument doc) {
        checkNames(doc, 1);
        BsonDocument stored = new BsonDocument();
        for (Map.Entry<String, BsonValue> e : doc.entrySet()) {
            stored.put(storedName(e.getKey()), e.getValue());
        }
        ObjectNode types = JSON.createObjectNode();
        collectLongs(stored, "", types);
        ObjectNode item;
        try {
            item = (ObjectNode) JSON.readTree(stored.toJson(RELAXED));
        } catch (JsonProcessingException e) {
            throw new MongoError(ErrorCode.BAD_VALUE, "document cannot be stored: " + e.getOriginalMessage());
        }
        ObjectNode out = JSON.createObjectNode();
        out.put("id", IdCodec.encode(doc.get("_id")));
        out.setAll(item);
        if (!types.isEmpty()) {
            out.set(TYPES, types);
        }
        return out;
    }

    /** The Mongo document an item stores (system properties and the sidecar left out). */
    public static BsonDocument fromItem(JsonNode item) {
        ObjectNode copy = JSON.createObjectNode();
        JsonNode types = item.get(TYPES);
        for (Iterator<Map.Entry<String, JsonNode>> it = item.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!RESERVED.contains(e.getKey())) {
                copy.set(e.getKey(), e.getValue());
            }
        }
        BsonDocument stored = BsonDocument.parse(copy.toString());
        if (types != null && types.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = types.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if ("long".equals(e.getValue().asText())) {
                    restoreLong(stored, e.getKey());
                }
            }
        }
        BsonDocument out = new BsonDocument();
        for (Map.Entry<String, BsonValue> e : stored.entrySet()) {
            out.put(userName(e.getKey()), e.getValue());
        }
        return out;
    }

    private static void checkNames(BsonDocument doc, int depth) {
        if (depth > 100) {
            throw new MongoError(ErrorCode.BAD_VALUE, "document is nested deeper than 100 levels");
        }
        for (Map.Entry<String, BsonValue> e : doc.entrySet()) {
            if (e.getKey().startsWith("$")) {
                throw new MongoError(ErrorCode.DOLLAR_PREFIXED_FIELD_NAME, "field names cannot start with '$': '"
                        + e.getKey() + "'");
            }
            checkValue(e.getValue(), depth);
        }
    }

    private static void checkValue(BsonValue v, int depth) {
        if (v.isDocument()) {
            checkNames(v.asDocument(), depth + 1);
        } else if (v.isArray()) {
            if (depth + 1 > 100) {
                throw new MongoError(ErrorCode.BAD_VALUE, "document is nested deeper than 100 levels");
            }
            for (BsonValue x : v.asArray()) {
                checkValue(x, depth + 1);
            }
        }
    }

    private static void collectLongs(BsonValue v, String pointer, ObjectNode types) {
        if (v instanceof BsonInt64 l && l.getValue() >= Integer.MIN_VALUE && l.getValue() <= Integer.MAX_VALUE) {
            types.put(pointer, "long");
        } else if (v instanceof BsonDocument d) {
            for (Map.Entry<String, BsonValue> e : d.entrySet()) {
                collectLongs(e.getValue(), pointer + "/" + e.getKey().replace("~", "~0").replace("/", "~1"), types);
            }
        } else if (v instanceof BsonArray a) {
            for (int i = 0; i < a.size(); i++) {
                collectLongs(a.get(i), pointer + "/" + i, types);
            }
        }
    }

    private static void restoreLong(BsonDocument root, String pointer) {
        String[] parts = pointer.substring(1).split("/", -1);
        BsonValue cur = root;
        for (int i = 0; i < parts.length; i++) {
            String name = parts[i].replace("~1", "/").replace("~0", "~");
            boolean last = i == parts.length - 1;
            if (cur instanceof BsonDocument d) {
                BsonValue next = d.get(name);
                if (last && next != null && next.isInt32()) {
                    d.put(name, new BsonInt64(next.asInt32().getValue()));
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
                if (last && a.get(idx).isInt32()) {
                    a.set(idx, new BsonInt64(a.get(idx).asInt32().getValue()));
                    return;
                }
                cur = a.get(idx);
            } else {
                return;
            }
        }
    }
}

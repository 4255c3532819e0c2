package io.tetradb.mongo.bson;

import com.fasterxml.jackson.databind.JsonNode;
import org.bson.BsonArray;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.util.Map;
import java.util.Set;

/**
 * How an item another face wrote (one without {@code _id}) shows in mongosh and the drivers — document-core's
 * cross-face views: {@code _id} is the item id (a table entity's RowKey, a vertex's or edge's id), every other user
 * property follows in its BSON type; no face's bookkeeping is shown. A graph vertex's property lists
 * ({@code name: [{id, _value}, …]}, Cosmos DB's Gremlin layout) show as their values (one value: the value; several:
 * an array), and an edge's endpoint fields ({@code _isEdge _vertexId _vertexLabel _sink _sinkLabel _sinkPartition})
 * are left out. The core's system properties never show (see {@link DocumentMapper}); an item that has no
 * {@code Timestamp} of its own but lives in a table (its item has {@code PartitionKey}) shows the last write time
 * {@code _ts} as {@code Timestamp}, the Tables API's system property.
 */
final class ForeignItems {
    private static final Set<String> GRAPH_BOOKKEEPING = Set.of("_isEdge", "_vertexId", "_vertexLabel", "_sink",
            "_sinkLabel", "_sinkPartition");

    private ForeignItems() {
    }

    static BsonDocument view(BsonDocument stored, JsonNode item) {
        BsonDocument out = new BsonDocument();
        JsonNode id = item.get("id");
        if (id != null && id.isTextual()) {
            out.put("_id", new BsonString(id.textValue()));
        }
        boolean edge = stored.containsKey("_isEdge");
        for (Map.Entry<String, BsonValue> e : stored.entrySet()) {
            String name = e.getKey();
            if (edge && GRAPH_BOOKKEEPING.contains(name)) {
                continue;
            }
            BsonValue v = e.getValue();
            BsonValue property = vertexProperty(v);
            out.put(DocumentMapper.userName(name), property != null ? property : v);
        }
        if (item.has("PartitionKey")) {
            tableTypes(out, item.get(LegacyItems.TYPES));
            BsonValue stamp = out.get("Timestamp");
            JsonNode ts = item.get("_ts");
            if (stamp != null && stamp.isString()) {
                BsonValue date = edm("Edm.DateTime", stamp);
                out.put("Timestamp", date != null ? date : stamp);
            } else if (stamp == null && ts != null && ts.canConvertToLong()) {
                out.put("Timestamp", new BsonDateTime(ts.longValue() * 1000));
            }
        }
        return out;
    }

    /**
     * The Tables face's earlier layout: Edm types in a top-level {@code _types} keyed by property name
     * ({@code {"Balance": "Edm.Int64", "Joined": "Edm.DateTime"}}), values as JSON (dates as seven-digit UTC text,
     * Guids as text, binaries as lower-case hex).
     */
    private static void tableTypes(BsonDocument out, JsonNode types) {
        if (types == null || !types.isObject()) {
            return;
        }
        for (java.util.Iterator<Map.Entry<String, JsonNode>> it = types.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> t = it.next();
            String name = DocumentMapper.userName(t.getKey());
            BsonValue v = out.get(name);
            BsonValue typed = v == null || !t.getValue().isTextual() ? null : edm(t.getValue().textValue(), v);
            if (typed != null) {
                out.put(name, typed);
            }
        }
    }

    private static BsonValue edm(String type, BsonValue v) {
        try {
            return switch (type) {
                case "Edm.Int64" -> v.isNumber() ? new BsonInt64(v.asNumber().longValue())
                        : v.isString() ? new BsonInt64(Long.parseLong(v.asString().getValue())) : null;
                case "Edm.Double" -> v.isNumber() ? new org.bson.BsonDouble(v.asNumber().doubleValue())
                        : v.isString() ? new org.bson.BsonDouble(Double.parseDouble(v.asString().getValue())) : null;
                case "Edm.DateTime" -> v.isString() ? new BsonDateTime(java.time.Instant.parse(
                        v.asString().getValue()).toEpochMilli()) : null;
                case "Edm.Guid" -> v.isString() ? new org.bson.BsonBinary(
                        java.util.UUID.fromString(v.asString().getValue())) : null;
                case "Edm.Binary" -> v.isString() ? new org.bson.BsonBinary(
                        java.util.HexFormat.of().parseHex(v.asString().getValue())) : null;
                default -> null;
            };
        } catch (RuntimeException notThatType) {
            return null;
        }
    }

    /**
     * The value(s) of a vertex property list ({@code [{id, _value, …}, …]}), or null when {@code v} is no such list.
     * A value in the graph face's earlier layout carries its Java type in {@code _types._value} ({@code long},
     * {@code short}, {@code byte}, {@code date}: epoch milliseconds): those types show as long, int and date.
     */
    private static BsonValue vertexProperty(BsonValue v) {
        if (!v.isArray() || v.asArray().isEmpty()) {
            return null;
        }
        BsonArray values = new BsonArray();
        for (BsonValue p : v.asArray()) {
            if (!p.isDocument() || !p.asDocument().containsKey("_value") || !p.asDocument().containsKey("id")) {
                return null;
            }
            values.add(withGraphType(p.asDocument()));
        }
        return values.size() == 1 ? values.get(0) : values;
    }

    private static BsonValue withGraphType(BsonDocument p) {
        BsonValue value = p.get("_value");
        BsonValue types = p.get("_types");
        if (types == null || !types.isDocument() || !value.isNumber()
                || !types.asDocument().containsKey("_value") || !types.asDocument().get("_value").isString()) {
            return value;
        }
        return switch (types.asDocument().getString("_value").getValue()) {
            case "long" -> new BsonInt64(value.asNumber().longValue());
            case "short", "byte" -> new BsonInt32(value.asNumber().intValue());
            case "date" -> new BsonDateTime(value.asNumber().longValue());
            default -> value;
        };
    }
}

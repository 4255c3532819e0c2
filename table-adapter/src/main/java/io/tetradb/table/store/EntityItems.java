package io.tetradb.table.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.table.model.DateTimes;
import io.tetradb.table.model.EdmType;
import io.tetradb.table.model.EdmValue;
import io.tetradb.table.model.Entity;

import java.time.Instant;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Entity ↔ the core item it is stored as.
 *
 * <pre>
 * {"id": RowKey, "PartitionKey": "Smith", "Timestamp": "2026-11-23T21:11:31.1234567Z",
 *  "Age": 42, "Balance": 9007199254740993, "Joined": "2016-03-01T09:30:00.1234567Z",
 *  "_types": {"Balance": "Edm.Int64", "Joined": "Edm.DateTime"}}
 * </pre>
 * Values stay plain JSON where JSON holds them exactly, so the core's indexes, range seeks and SQL see them:
 * String, Int32 and Boolean untagged; Int64 and finite Doubles as JSON numbers, tagged; DateTime as its fixed-width
 * seven-digit UTC text (text order = time order), Guid as lower-case text, Binary as lower-case hex (text order =
 * byte order), non-finite Doubles as {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"} — all tagged. The tags
 * live in {@code _types} (graph-core's approach). The RowKey is the id ({@link RowKeys}). User properties whose names
 * the core reserves ({@code id} and the {@code _}-names below) are stored as {@code ~name}; no property name can
 * start with {@code ~}, so nothing collides. Items other faces wrote read back with types guessed from JSON
 * (integers in Int32 range → Int32, other integers → Int64, other numbers → Double).
 */
public final class EntityItems {
    public static final String TYPES = "_types";
    public static final String PARTITION_KEY = "PartitionKey";
    public static final String TIMESTAMP = "Timestamp";
    private static final Set<String> RESERVED = Set.of("id", "_rid", "_self", "_etag", "_attachments", "_ts",
            TYPES, "_lsn");
    private static final Set<String> SYSTEM = Set.of("id", "_rid", "_self", "_etag", "_attachments", "_ts", TYPES,
            PARTITION_KEY, TIMESTAMP);
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final HexFormat HEX = HexFormat.of();

    private EntityItems() {
    }

    /** The item's property name for a user property name. */
    public static String storedName(String name) {
        return RESERVED.contains(name) ? "~" + name : name;
    }

    static String userName(String stored) {
        return stored.startsWith("~") ? stored.substring(1) : stored;
    }

    /** The item for an entity written at {@code timestamp}. */
    public static ObjectNode toItem(Entity e, Instant timestamp) {
        ObjectNode item = F.objectNode();
        item.put("id", RowKeys.toId(e.rowKey()));
        item.put(PARTITION_KEY, e.partitionKey());
        item.put(TIMESTAMP, DateTimes.format(timestamp));
        ObjectNode types = F.objectNode();
        for (Map.Entry<String, EdmValue> p : e.properties().entrySet()) {
            String name = storedName(p.getKey());
            EdmValue v = p.getValue();
            item.set(name, storedValue(v));
            if (v.type() != EdmType.STRING && v.type() != EdmType.INT32 && v.type() != EdmType.BOOLEAN) {
                types.put(name, v.type().odataName());
            }
        }
        if (!types.isEmpty()) {
            item.set(TYPES, types);
        }
        return item;
    }

    /** The JSON a value of a given type is stored as (also the literal a filter compares with). */
    public static JsonNode storedValue(EdmValue v) {
        return switch (v.type()) {
            case STRING -> F.textNode((String) v.value());
            case INT32 -> F.numberNode((Integer) v.value());
            case INT64 -> F.numberNode((Long) v.value());
            case BOOLEAN -> F.booleanNode((Boolean) v.value());
            case DOUBLE -> Double.isFinite((Double) v.value()) ? F.numberNode((Double) v.value())
                    : F.textNode(v.wireText());
            case DATETIME -> F.textNode(DateTimes.format((Instant) v.value()));
            case GUID -> F.textNode(v.value().toString());
            case BINARY -> F.textNode(HEX.formatHex((byte[]) v.value()));
        };
    }

    /** The entity an item holds, with the ETag of its Timestamp. */
    public static Entity fromItem(JsonNode item) {
        String rowKey = RowKeys.fromId(item.path("id").asText());
        JsonNode pkNode = item.get(PARTITION_KEY);
        String pk = pkNode == null || pkNode.isNull() ? "" : pkNode.isTextual() ? pkNode.textValue() : pkNode.toString();
        JsonNode ts = item.get(TIMESTAMP);
        Instant timestamp;
        try {
            timestamp = ts != null && ts.isTextual() ? DateTimes.parse(ts.textValue()) : foreignTimestamp(item);
        } catch (RuntimeException notOurs) {
            timestamp = foreignTimestamp(item);
        }
        JsonNode types = item.path(TYPES);
        Map<String, EdmValue> props = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = item.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (SYSTEM.contains(f.getKey())) {
                continue;
            }
            EdmValue v = readValue(f.getValue(), types.path(f.getKey()).asText(null));
            if (v != null) {
                props.put(userName(f.getKey()), v);
            }
        }
        return new Entity(pk, rowKey, timestamp, io.tetradb.table.model.ETags.of(timestamp), props);
    }

    /**
     * The Timestamp of an item another face wrote (no Tables Timestamp): its {@code _ts} second, and below the second
     * its core version (the lsn at the end of its etag) — so that two versions written in the same second still have
     * different ETags.
     */
    private static Instant foreignTimestamp(JsonNode item) {
        Instant second = Instant.ofEpochSecond(item.path("_ts").asLong());
        String etag = item.path("_etag").asText("").replace("\"", "");
        int dash = etag.lastIndexOf('-');
        try {
            long lsn = dash < 0 ? 0 : Long.parseLong(etag.substring(dash + 1), 16);
            return second.plusNanos(Math.floorMod(lsn, 10_000_000L) * 100);
        } catch (NumberFormatException e) {
            return second;
        }
    }

    private static EdmValue readValue(JsonNode n, String tag) {
        EdmType type = tag == null ? null : EdmType.ofOdataName(tag);
        if (type != null) {
            try {
                return switch (type) {
                    case STRING -> EdmValue.string(n.asText());
                    case INT32 -> EdmValue.int32(n.asInt());
                    case INT64 -> EdmValue.int64(n.asLong());
                    case BOOLEAN -> EdmValue.bool(n.asBoolean());
                    case DOUBLE -> EdmValue.dbl(n.isTextual() ? parseDouble(n.textValue()) : n.asDouble());
                    case DATETIME -> EdmValue.dateTime(DateTimes.parse(n.asText()));
                    case GUID -> EdmValue.guid(UUID.fromString(n.asText()));
                    case BINARY -> EdmValue.binary(HEX.parseHex(n.asText()));
                };
            } catch (RuntimeException changedByAnotherFace) {
                // the tag no longer fits the value: fall through to the untagged reading
            }
        }
        if (n.isTextual()) {
            return EdmValue.string(n.textValue());
        } else if (n.isBoolean()) {
            return EdmValue.bool(n.booleanValue());
        } else if (n.isIntegralNumber() && n.canConvertToInt()) {
            return EdmValue.int32(n.intValue());
        } else if (n.isIntegralNumber() && n.canConvertToLong()) {
            return EdmValue.int64(n.longValue());
        } else if (n.isNumber()) {
            return EdmValue.dbl(n.doubleValue());
        } else if (n.isNull() || n.isMissingNode()) {
            return null;
        }
        return EdmValue.string(n.toString()); // arrays and objects other faces wrote: their JSON text
    }

    static double parseDouble(String s) {
        return switch (s) {
            case "NaN" -> Double.NaN;
            case "Infinity", "INF" -> Double.POSITIVE_INFINITY;
            case "-Infinity", "-INF" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(s);
        };
    }
}

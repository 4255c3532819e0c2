package io.tetradb.table.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.value.DateTimeNode;
import io.tetradb.table.model.DateTimes;
import io.tetradb.table.model.EdmValue;
import io.tetradb.table.model.Entity;

import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Entity ↔ the core item it is stored as, in the core's typed values ({@link EdmTypedValues}):
 * <pre>
 * {"id": RowKey, "PartitionKey": "Smith", "Timestamp": DateTime(2026-11-23T21:11:31.1234567Z),
 *  "Age": Int32(42), "Balance": Int64(9007199254740993), "Joined": DateTime(…), "Ratio": Double(2.0),
 *  "Key": Guid(…), "Blob": Binary(subtype 0, …)}
 * </pre>
 * No sidecar: every Edm type is a type of the core, so the core's indexes, range seeks, SQL and the other faces see
 * the values as what they are. The RowKey is the id ({@link RowKeys}). User properties whose names the core reserves
 * ({@code id} and the {@code _}-names below) are stored as {@code ~name}; no property name can start with {@code ~},
 * so nothing collides. Items in the earlier shape (JSON + {@code _types}) still read ({@link LegacyEntityValues}).
 * Items of other faces read as {@link EdmTypedValues#view} shows their values, with their keys as their container's
 * {@link EntityLayout} says.
 */
public final class EntityItems {
    public static final String TYPES = LegacyEntityValues.TYPES;
    public static final String PARTITION_KEY = "PartitionKey";
    public static final String TIMESTAMP = "Timestamp";
    private static final Set<String> RESERVED = Set.of("id", "_rid", "_self", "_etag", "_attachments", "_ts",
            TYPES, "_lsn");
    private static final Set<String> SYSTEM = Set.of("id", "_rid", "_self", "_etag", "_attachments", "_ts", TYPES,
            PARTITION_KEY, TIMESTAMP);
    /** What the core sets on every stored item; a rewritten item leaves them to the core. */
    private static final Set<String> CORE_SYSTEM = Set.of("_rid", "_self", "_etag", "_attachments", "_ts");
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private EntityItems() {
    }

    /** The item's property name for a user property name. */
    public static String storedName(String name) {
        return RESERVED.contains(name) ? "~" + name : name;
    }

    static String userName(String stored) {
        return stored.startsWith("~") ? stored.substring(1) : stored;
    }

    /**
     * The item for an entity written at {@code timestamp}, in one of this face's tables: typed when the core stores
     * {@code typed} (binary) items, else in the earlier shape, which JSON text keeps exactly.
     */
    static ObjectNode toItem(Entity e, Instant timestamp, boolean typed) {
        return typed ? toItem(e, timestamp) : LegacyEntityValues.toItem(e, timestamp);
    }

    /** The item for an entity written at {@code timestamp}, in one of this face's tables. */
    public static ObjectNode toItem(Entity e, Instant timestamp) {
        ObjectNode item = F.objectNode();
        item.put("id", RowKeys.toId(e.rowKey()));
        item.put(PARTITION_KEY, e.partitionKey());
        item.set(TIMESTAMP, DateTimeNode.of(timestamp));
        for (Map.Entry<String, EdmValue> p : e.properties().entrySet()) {
            item.set(storedName(p.getKey()), EdmTypedValues.node(p.getValue()));
        }
        return item;
    }

    /**
     * The item for a new entity in another face's container: its id, its PartitionKey at the container's partition
     * key path (none for the empty PartitionKey, see {@link EntityLayout#partition}), its properties; the Timestamp
     * is the core's {@code _ts}.
     */
    static ObjectNode toForeignItem(Entity e, EntityLayout layout) {
        checkForeignNames(e, layout);
        ObjectNode item = F.objectNode();
        item.put("id", RowKeys.toId(e.rowKey()));
        if (!e.partitionKey().isEmpty()) {
            ObjectNode at = item;
            java.util.List<String> path = layout.partitionKeyPath();
            for (int i = 0; i < path.size() - 1; i++) {
                at = at.putObject(path.get(i));
            }
            at.put(path.get(path.size() - 1), e.partitionKey());
        }
        for (Map.Entry<String, EdmValue> p : e.properties().entrySet()) {
            item.set(storedName(p.getKey()), EdmTypedValues.node(p.getValue()));
        }
        return item;
    }

    /**
     * A stored item with an entity's properties laid over it (a merge), or replacing the properties the Tables API
     * shows (an update, {@code replace}). Everything else of the item stays as stored: the other face's keys and
     * bookkeeping, the values Tables does not show (null, MinKey, MaxKey), and — also on a replace — every property
     * whose new value equals what the Tables API showed for the stored one, so a sub-document, an ObjectId or a
     * Decimal128 read through Tables and written back unchanged keeps its type. In this face's own tables the
     * PartitionKey, RowKey and {@code timestamp} are set; in others the keys stay the item's own.
     */
    static ObjectNode overlay(JsonNode stored, Entity e, boolean replace, Instant timestamp, EntityLayout layout,
                              boolean typed) {
        if (layout.isTables() && !typed) { // JSON text: the earlier shape, entity by entity
            Entity current = fromItem(stored, layout);
            return LegacyEntityValues.toItem(replace ? e : current.mergedWith(e), timestamp);
        }
        if (layout.isTables() && LegacyEntityValues.tags(stored) != null) {
            stored = toItem(fromItem(stored, layout), timestamp); // the earlier shape: rewritten typed
        }
        checkForeignNames(e, layout);
        ObjectNode item = F.objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = stored.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String name = f.getKey();
            if (CORE_SYSTEM.contains(name)) {
                continue;
            }
            if (replace && !hidden(name, layout) && !e.properties().containsKey(userName(name))
                    && shown(f.getValue(), layout) != null) {
                continue; // a shown property the replacement leaves out
            }
            item.set(name, f.getValue());
        }
        for (Map.Entry<String, EdmValue> p : e.properties().entrySet()) {
            String name = storedName(p.getKey());
            JsonNode current = item.get(name);
            if (current == null || !p.getValue().equals(shown(current, layout))) {
                JsonNode node = EdmTypedValues.node(p.getValue());
                item.set(name, layout.isTables() || current == null ? node : GraphProperties.withValue(current, node));
            }
        }
        if (layout.isTables()) {
            item.put("id", RowKeys.toId(e.rowKey()));
            item.put(PARTITION_KEY, e.partitionKey());
            item.set(TIMESTAMP, DateTimeNode.of(timestamp));
        }
        return item;
    }

    /**
     * A property named like another face's bookkeeping (its partition key property, {@code _id}, the graph's edge
     * fields) would move or corrupt the item: 400 InvalidInput.
     */
    private static void checkForeignNames(Entity e, EntityLayout layout) {
        for (String name : e.properties().keySet()) {
            if (layout.bookkeeping(storedName(name))) {
                throw io.tetradb.table.model.TableException.invalidInput("the property '" + name
                        + "' is kept by the face that owns this table (its partition key or bookkeeping)");
            }
        }
    }

    /** The Edm value the Tables API shows for a stored property value (null: none). */
    private static EdmValue shown(JsonNode value, EntityLayout layout) {
        return EdmTypedValues.view(layout.isTables() ? value : GraphProperties.plain(value));
    }

    private static boolean hidden(String name, EntityLayout layout) {
        return SYSTEM.contains(name) || layout.bookkeeping(name);
    }

    /** The JSON a value of a given type is stored as (also the literal a filter compares with). */
    public static JsonNode storedValue(EdmValue v) {
        return EdmTypedValues.node(v);
    }

    /** The entity an item of one of this face's tables holds, with the ETag of its Timestamp. */
    public static Entity fromItem(JsonNode item) {
        return fromItem(item, EntityLayout.TABLES);
    }

    /** The entity an item holds, its keys where {@code layout} says, with the ETag of its Timestamp. */
    public static Entity fromItem(JsonNode item, EntityLayout layout) {
        String rowKey = layout.rowKey(item);
        String pk = layout.partitionKey(item);
        Instant timestamp = layout.isTables() ? ownTimestamp(item) : foreignTimestamp(item);
        JsonNode legacyTags = LegacyEntityValues.tags(item);
        Map<String, EdmValue> props = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = item.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String name = f.getKey();
            if (hidden(name, layout)) {
                continue;
            }
            JsonNode value = f.getValue();
            EdmValue v = null;
            if (legacyTags != null) {
                v = LegacyEntityValues.read(value, legacyTags.path(name).asText(null));
            }
            if (v == null) {
                v = shown(value, layout);
            }
            if (v != null) {
                props.put(userName(name), v);
            }
        }
        return new Entity(pk, rowKey, timestamp, io.tetradb.table.model.ETags.of(timestamp), props);
    }

    /** The Timestamp this face stored (typed, or the earlier seven-digit text), else the other face's. */
    private static Instant ownTimestamp(JsonNode item) {
        JsonNode ts = item.get(TIMESTAMP);
        if (ts instanceof DateTimeNode d) {
            return d.instant();
        }
        if (ts != null && ts.isTextual()) {
            try {
                return DateTimes.parse(ts.textValue());
            } catch (RuntimeException notOurs) {
                // a text another face wrote there
            }
        }
        return foreignTimestamp(item);
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
}

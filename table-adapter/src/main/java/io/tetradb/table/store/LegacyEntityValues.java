package io.tetradb.table.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.table.model.DateTimes;
import io.tetradb.table.model.EdmType;
import io.tetradb.table.model.EdmValue;

import java.util.HexFormat;
import java.util.UUID;

/**
 * Reads values of entities stored in this face's earlier shape (before the core had typed values): plain JSON plus
 * a {@code _types} sidecar naming the Edm type of every value JSON could not tell — Int64 and Double as JSON
 * numbers, DateTime as seven-digit UTC text, Guid as text, Binary as lower-case hex, NaN / ±Infinity as text. Data
 * directories written then still read; such an entity is rewritten in the typed shape by its next write. While the
 * core still writes JSON text (its item format is not binary, {@code ItemCodec.writesBinary()}), where typed values
 * would lose their types, entities are still written in this shape ({@link #toItem}).
 */
final class LegacyEntityValues {
    static final String TYPES = "_types";
    private static final HexFormat HEX = HexFormat.of();

    private LegacyEntityValues() {
    }

    /** The {@code _types} sidecar of an item in the old shape, or null. */
    static JsonNode tags(JsonNode item) {
        JsonNode t = item.get(TYPES);
        return t != null && t.isObject() ? t : null;
    }

    /** A value tagged {@code tag} in the old shape, or null when the tag is no Edm type or no longer fits it. */
    static EdmValue read(JsonNode n, String tag) {
        EdmType type = tag == null ? null : EdmType.ofOdataName(tag);
        if (type == null || n.isContainerNode() || n.isNull()) {
            return null;
        }
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
            return null; // the tag no longer fits the value: the caller shows the value as it is
        }
    }

    static double parseDouble(String s) {
        return switch (s) {
            case "NaN" -> Double.NaN;
            case "Infinity", "INF" -> Double.POSITIVE_INFINITY;
            case "-Infinity", "-INF" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(s);
        };
    }

    /** The item of an entity in the earlier shape (for a core that stores JSON text). */
    static com.fasterxml.jackson.databind.node.ObjectNode toItem(io.tetradb.table.model.Entity e,
                                                                 java.time.Instant timestamp) {
        var f = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance;
        var item = f.objectNode();
        item.put("id", RowKeys.toId(e.rowKey()));
        item.put(EntityItems.PARTITION_KEY, e.partitionKey());
        item.put(EntityItems.TIMESTAMP, DateTimes.format(timestamp));
        var types = f.objectNode();
        for (java.util.Map.Entry<String, EdmValue> p : e.properties().entrySet()) {
            String name = EntityItems.storedName(p.getKey());
            EdmValue v = p.getValue();
            item.set(name, switch (v.type()) {
                case STRING -> f.textNode((String) v.value());
                case INT32 -> f.numberNode((Integer) v.value());
                case INT64 -> f.numberNode((Long) v.value());
                case BOOLEAN -> f.booleanNode((Boolean) v.value());
                case DOUBLE -> Double.isFinite((Double) v.value()) ? f.numberNode((Double) v.value())
                        : f.textNode(v.wireText());
                case DATETIME -> f.textNode(DateTimes.format((java.time.Instant) v.value()));
                case GUID -> f.textNode(v.value().toString());
                case BINARY -> f.textNode(HEX.formatHex((byte[]) v.value()));
            });
            if (v.type() != EdmType.STRING && v.type() != EdmType.INT32 && v.type() != EdmType.BOOLEAN) {
                types.put(name, v.type().odataName());
            }
        }
        if (!types.isEmpty()) {
            item.set(TYPES, types);
        }
        return item;
    }
}

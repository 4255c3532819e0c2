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
 * directories written then still read; such an entity is rewritten in the typed shape by its next write.
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
}

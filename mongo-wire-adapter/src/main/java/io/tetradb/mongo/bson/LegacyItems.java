package io.tetradb.mongo.bson;

import com.fasterxml.jackson.databind.JsonNode;
import org.bson.BsonArray;
import org.bson.BsonDateTime;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt64;
import org.bson.BsonObjectId;
import org.bson.BsonValue;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.Iterator;
import java.util.Map;

/**
 * Reads documents stored by the earlier mapping of this face (before the core had typed values), so existing data
 * directories keep reading: every non-JSON BSON value as MongoDB's relaxed Extended JSON ({@code {"$oid": hex}},
 * {@code {"$date": "2025-01-09T10:00:00Z"}}, {@code {"$binary": …}}, …) and what plain JSON numbers lose in a
 * top-level sidecar {@code "_types"} keyed by JSON pointer ({@code "long"}: an Int64 that reads back as an Int32;
 * {@code "decimal:1.50"}: a Decimal128 stored as its nearest double; {@code "double:NaN"}: a non-finite double stored
 * as ±{@link Double#MAX_VALUE}). Nothing writes the sidecar any more; the tagged form is still written for the BSON
 * types the core's model lacks (see {@link BsonToTyped}).
 */
final class LegacyItems {
    static final String TYPES = "_types";

    private LegacyItems() {
    }

    /**
     * The BSON value of a tagged Extended JSON object, or null when {@code n} is none (a document another face wrote
     * with a {@code $} name). The two forms stored most ({@code $date} as ISO-8601 text, {@code $oid}) are read
     * without going through text.
     */
    static BsonValue tagged(JsonNode n) {
        if (n.size() == 1) {
            JsonNode date = n.get("$date");
            if (date != null && date.isTextual()) {
                Instant plain = io.tetradb.core.value.UtcInstants.parse(date.textValue());
                if (plain != null) {
                    return new BsonDateTime(plain.toEpochMilli());
                }
                try {
                    return new BsonDateTime(DateTimeFormatter.ISO_OFFSET_DATE_TIME.parse(date.textValue(),
                            Instant::from).toEpochMilli());
                } catch (DateTimeException | ArithmeticException notIso) {
                    return null;
                }
            }
            JsonNode oid = n.get("$oid");
            if (oid != null && oid.isTextual() && ObjectId.isValid(oid.textValue())) {
                return new BsonObjectId(new ObjectId(oid.textValue()));
            }
        }
        try {
            return BsonDocument.parse("{\"v\": " + n + "}").get("v");
        } catch (RuntimeException notExtendedJson) {
            return null;
        }
    }

    /** As {@link #tagged(JsonNode)} for a tagged object already read as a BSON document. */
    static BsonValue tagged(BsonDocument d) {
        if (d.size() == 1) {
            BsonValue date = d.get("$date");
            if (date != null && date.isString()) {
                return tagged(com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
                        .put("$date", date.asString().getValue()));
            }
            BsonValue oid = d.get("$oid");
            if (oid != null && oid.isString() && ObjectId.isValid(oid.asString().getValue())) {
                return new BsonObjectId(new ObjectId(oid.asString().getValue()));
            }
        }
        try {
            return BsonDocument.parse("{\"v\": " + d.toJson() + "}").get("v");
        } catch (RuntimeException notExtendedJson) {
            return null;
        }
    }

    /** Applies an item's {@code _types} sidecar (when it has one) to the document read from it. */
    static void applySidecar(BsonDocument stored, JsonNode types) {
        if (types == null || !types.isObject()) {
            return;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = types.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().startsWith("/") && e.getValue().isTextual()) {
                restore(stored, e.getKey(), e.getValue().textValue());
            }
        }
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

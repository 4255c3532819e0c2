package io.tetradb.core.index;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.util.Iterator;
import java.util.Map;

/**
 * An item as it reads back from JSON text (the {@code -Dtetradb.itemFormat=json} store): floats and decimals become
 * doubles, non-finite doubles the strings Jackson writes for them. A version written as JSON text must be indexed
 * (and keyed for unique keys and expiry) as this form, so that the entries computed when it is written equal those
 * recomputed from the stored text when it is replaced or deleted; typed values become their JSON view, as JSON text
 * stores them. A binary (TB1) version keeps every value exactly, so it is indexed as written.
 */
public final class JsonTextForm {
    private JsonTextForm() {
    }

    /** {@code item} itself when nothing in it changes in JSON text (the usual case), else a changed copy. */
    public static ObjectNode of(ObjectNode item) {
        JsonNode v = convert(item);
        return v == null ? item : (ObjectNode) v;
    }

    /** The converted copy of {@code node}, or null when it reads back from JSON text as it is. */
    private static JsonNode convert(JsonNode node) {
        if (node instanceof io.tetradb.core.value.TypedNode typed) {
            JsonNode view = typed.jsonView(); // what JSON text stores for it
            JsonNode c = convert(view);
            return c != null ? c : view;
        }
        if (node.isFloat() || node.isBigDecimal()) {
            double d = Double.parseDouble(node.asText());
            return Double.isFinite(d) ? DoubleNode.valueOf(d) : TextNode.valueOf(Double.toString(d));
        }
        if (node.isDouble() && !Double.isFinite(node.doubleValue())) {
            return TextNode.valueOf(Double.toString(node.doubleValue())); // "NaN", "Infinity", "-Infinity"
        }
        if (node instanceof ObjectNode o) {
            ObjectNode copy = null;
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                JsonNode c = convert(f.getValue());
                if (c != null && copy == null) {
                    copy = o.deepCopy();
                }
                if (c != null) {
                    copy.set(f.getKey(), c);
                }
            }
            return copy;
        }
        if (node instanceof ArrayNode a) {
            ArrayNode copy = null;
            for (int i = 0; i < a.size(); i++) {
                JsonNode c = convert(a.get(i));
                if (c != null && copy == null) {
                    copy = a.deepCopy();
                }
                if (c != null) {
                    copy.set(i, c);
                }
            }
            return copy;
        }
        return null;
    }
}

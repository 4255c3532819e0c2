package io.tetradb.core.value;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Iterator;
import java.util.Map;

/** Whole-tree helpers over typed values. */
public final class TypedValues {
    private TypedValues() {
    }

    /** True when the tree holds a {@link TypedNode} anywhere (a plain JSON tree is its own JSON view). */
    public static boolean hasTypedValues(JsonNode v) {
        if (v instanceof TypedNode) {
            return true;
        }
        if (v.isContainerNode()) {
            for (JsonNode e : v) {
                if (hasTypedValues(e)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The JSON view of a tree: every {@link TypedNode} replaced by its {@link TypedNode#jsonView()}; numbers (Int32,
     * Int64, Decimal128, ...) stay the number nodes they are. Returns {@code v} itself when it holds no typed value.
     */
    public static JsonNode jsonView(JsonNode v) {
        if (v instanceof TypedNode t) {
            return t.jsonView();
        }
        if (!v.isContainerNode() || !hasTypedValues(v)) {
            return v;
        }
        if (v.isArray()) {
            ArrayNode a = JsonNodeFactory.instance.arrayNode(v.size());
            for (JsonNode e : v) {
                a.add(jsonView(e));
            }
            return a;
        }
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            o.set(f.getKey(), jsonView(f.getValue()));
        }
        return o;
    }
}

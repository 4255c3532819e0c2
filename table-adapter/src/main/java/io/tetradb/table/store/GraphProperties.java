package io.tetradb.table.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/**
 * Vertex properties as the graph face stores them (Cosmos DB's Gremlin layout: {@code name: [{id, _value, meta…}]})
 * shown as their values: one entry is its {@code _value}, several are the array of their values. Anything else is
 * returned as it is.
 */
final class GraphProperties {
    private GraphProperties() {
    }

    static JsonNode plain(JsonNode v) {
        if (!v.isArray() || v.isEmpty()) {
            return v;
        }
        for (JsonNode e : v) {
            if (!e.isObject() || !e.has("_value") || !e.has("id")) {
                return v;
            }
        }
        if (v.size() == 1) {
            return v.get(0).get("_value");
        }
        var values = JsonNodeFactory.instance.arrayNode(v.size());
        for (JsonNode e : v) {
            values.add(e.get("_value"));
        }
        return values;
    }

    /**
     * {@code value} stored where {@code current} was: in a single graph property entry ({@code _value} replaced,
     * its id and meta-properties kept) when {@code current} is one, else as it is.
     */
    static JsonNode withValue(JsonNode current, JsonNode value) {
        if (current.isArray() && current.size() == 1 && plain(current) != current) {
            com.fasterxml.jackson.databind.node.ObjectNode entry = ((com.fasterxml.jackson.databind.node.ObjectNode)
                    current.get(0)).deepCopy();
            entry.set("_value", value);
            entry.remove("_types");
            return JsonNodeFactory.instance.arrayNode(1).add(entry);
        }
        return value;
    }
}

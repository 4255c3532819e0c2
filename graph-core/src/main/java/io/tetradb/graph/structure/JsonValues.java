package io.tetradb.graph.structure;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/** Partition key values (string, number, boolean) as JSON and back. */
final class JsonValues {
    static final JsonNodeFactory F = JsonNodeFactory.instance;

    private JsonValues() {
    }

    static JsonNode scalar(Object v) {
        if (v instanceof String s) {
            return F.textNode(s);
        } else if (v instanceof Boolean b) {
            return F.booleanNode(b);
        } else if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            return F.numberNode(((Number) v).longValue());
        } else if (v instanceof Number n) {
            return F.numberNode(n.doubleValue());
        }
        throw new IllegalArgumentException("not a partition key value: " + v);
    }

    /** Integral numbers come back as Integer when they fit, else Long; others as Double. */
    static Object scalar(JsonNode n) {
        if (n == null || n.isMissingNode() || n.isNull()) {
            return null;
        } else if (n.isTextual()) {
            return n.textValue();
        } else if (n.isBoolean()) {
            return n.booleanValue();
        } else if (n.isIntegralNumber()) {
            return n.canConvertToInt() ? (Object) n.intValue() : (Object) n.longValue();
        }
        return n.doubleValue();
    }
}

package io.tetradb.core.query.functions;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.value.ValueOrder;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Shared helpers for reading arguments and building results with Cosmos "undefined" semantics. */
public final class Args {
    /** Cosmos "undefined": the value a function returns when an argument is missing or of the wrong type. */
    public static final JsonNode UNDEFINED = MissingNode.getInstance();

    static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** 2^53: beyond it a double no longer holds every integer, so results past it stay doubles. */

    private Args() {
    }

    public static boolean isUndefined(JsonNode v) {
        return v == null || v.isMissingNode();
    }

    static boolean isString(JsonNode v) {
        return v != null && v.isTextual();
    }

    static boolean isNumber(JsonNode v) {
        return v != null && v.isNumber();
    }

    static boolean isBool(JsonNode v) {
        return v != null && v.isBoolean();
    }

    static boolean allStrings(List<JsonNode> args, int from, int to) {
        for (int i = from; i < to; i++) {
            if (!isString(args.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** The optional boolean argument {@code i}: {@code dflt} when absent, null when present but not a boolean. */
    static Boolean optBool(List<JsonNode> args, int i, boolean dflt) {
        if (args.size() <= i) {
            return dflt;
        }
        JsonNode v = args.get(i);
        return v.isBoolean() ? v.booleanValue() : null;
    }

    /** True when {@code v} is a number with no fractional part that fits a signed 64-bit integer. */
    static boolean isInt64(JsonNode v) {
        if (v == null || !v.isNumber()) {
            return false;
        }
        if (v.isIntegralNumber()) {
            return v.canConvertToLong();
        }
        double d = v.doubleValue();
        return !Double.isNaN(d) && !Double.isInfinite(d) && d == Math.rint(d)
                && d >= -9.223372036854775808E18 && d < 9.223372036854775808E18;
    }

    static TextNode text(String s) {
        return TextNode.valueOf(s);
    }

    static BooleanNode bool(boolean b) {
        return BooleanNode.valueOf(b);
    }

    static LongNode integer(long v) {
        return LongNode.valueOf(v);
    }

    /** A numeric result (see {@link io.tetradb.core.value.Numbers#of}). */
    static JsonNode number(double d) {
        return io.tetradb.core.value.Numbers.of(d);
    }

    static ArrayNode array() {
        return NODES.arrayNode();
    }

    static ObjectNode object() {
        return NODES.objectNode();
    }

    /**
     * Deep equality as Cosmos compares values: numbers by numeric value (5 == 5.0), strings, booleans and null by
     * value, arrays element by element, objects by their set of properties (order ignored). Undefined equals nothing.
     */
    static boolean deepEquals(JsonNode a, JsonNode b) {
        // the core's one notion of equality (same type and value, numbers by exact value, deep), never undefined
        return a != null && b != null && ValueOrder.equalsForQuery(a, b);
    }

    /** True when every property of {@code part} is present in {@code whole} with a deep-equal value. */
    static boolean containsAllFields(JsonNode whole, JsonNode part) {
        Iterator<Map.Entry<String, JsonNode>> it = part.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!deepEquals(whole.get(e.getKey()), e.getValue())) {
                return false;
            }
        }
        return true;
    }
}

package io.tetradb.core.query.functions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Iterator;
import java.util.Map;

import static io.tetradb.core.query.functions.Args.UNDEFINED;
import static io.tetradb.core.query.functions.Args.bool;
import static io.tetradb.core.query.functions.Args.deepEquals;
import static io.tetradb.core.query.functions.Args.integer;
import static io.tetradb.core.query.functions.Args.isNumber;

/**
 * Array functions (Cosmos docs → "Array functions") plus CHOOSE and ObjectToArray. An argument that should be an
 * array and is not makes the result undefined. Element comparisons use {@link Args#deepEquals} (numbers by value, so
 * 5 matches 5.0; objects regardless of property order).
 */
public final class ArrayFunctions {
    private ArrayFunctions() {
    }

    public static void registerAll(FunctionRegistry r) {
        r.register("ARRAY_CONCAT", 2, Integer.MAX_VALUE, (a, c) -> {
            ArrayNode out = Args.array();
            for (JsonNode v : a) {
                if (!v.isArray()) {
                    return UNDEFINED;
                }
                out.addAll((ArrayNode) v);
            }
            return out;
        });
        r.register("ARRAY_CONTAINS", 2, 3, (a, c) -> {
            if (!a.get(0).isArray()) {
                return UNDEFINED;
            }
            Boolean partial = Args.optBool(a, 2, false);
            if (partial == null || Args.isUndefined(a.get(1))) {
                return UNDEFINED;
            }
            return bool(contains(a.get(0), a.get(1), partial));
        });
        r.register("ARRAY_CONTAINS_ANY", 2, Integer.MAX_VALUE, (a, c) -> {
            if (!a.get(0).isArray()) {
                return UNDEFINED;
            }
            // left to right; reaching an undefined value makes the result undefined (the docs' examples:
            // ANY([1, 2, 3, 4], 1, undefined) is true, ANY([1, 2, 3, 4], 5, undefined) is undefined)
            for (JsonNode v : a.subList(1, a.size())) {
                if (Args.isUndefined(v)) {
                    return UNDEFINED;
                }
                if (contains(a.get(0), v, false)) {
                    return bool(true);
                }
            }
            return bool(false);
        });
        r.register("ARRAY_CONTAINS_ALL", 2, Integer.MAX_VALUE, (a, c) -> {
            if (!a.get(0).isArray()) {
                return UNDEFINED;
            }
            // ALL([1, 2, 3, 4], 1, undefined) is undefined, ALL([1, 2, 3, 4], 5, undefined) is false
            for (JsonNode v : a.subList(1, a.size())) {
                if (Args.isUndefined(v)) {
                    return UNDEFINED;
                }
                if (!contains(a.get(0), v, false)) {
                    return bool(false);
                }
            }
            return bool(true);
        });
        r.register("ARRAY_LENGTH", 1, 1, (a, c) -> a.get(0).isArray() ? integer(a.get(0).size()) : UNDEFINED);
        r.register("ARRAY_SLICE", 2, 3, (a, c) -> {
            if (!a.get(0).isArray() || !isNumber(a.get(1)) || (a.size() > 2 && !isNumber(a.get(2)))) {
                return UNDEFINED;
            }
            JsonNode arr = a.get(0);
            int n = arr.size();
            long start = (long) a.get(1).doubleValue();
            if (start < 0) {
                start = Math.max(0, n + start);
            }
            long length = a.size() > 2 ? (long) a.get(2).doubleValue() : n;
            long end = Math.min(n, start + Math.max(0, length));
            ArrayNode out = Args.array();
            for (long i = start; i < end; i++) {
                out.add(arr.get((int) i));
            }
            return out;
        });
        r.register("SetIntersect", 2, 2, (a, c) -> {
            if (!a.get(0).isArray() || !a.get(1).isArray()) {
                return UNDEFINED;
            }
            // in the order of the second array, as the docs' examples show:
            // SetIntersect([1, 2, "A", "B"], ["A", 1]) is ["A", 1]
            ArrayNode out = Args.array();
            for (JsonNode v : a.get(1)) {
                if (contains(a.get(0), v, false) && !contains(out, v, false)) {
                    out.add(v);
                }
            }
            return out;
        });
        r.register("SetUnion", 2, 2, (a, c) -> {
            if (!a.get(0).isArray() || !a.get(1).isArray()) {
                return UNDEFINED;
            }
            ArrayNode out = Args.array();
            for (JsonNode arr : a) {
                for (JsonNode v : arr) {
                    if (!contains(out, v, false)) {
                        out.add(v);
                    }
                }
            }
            return out;
        });
        r.register("CHOOSE", 2, Integer.MAX_VALUE, (a, c) -> {
            if (!isNumber(a.get(0))) {
                return UNDEFINED;
            }
            double index = a.get(0).doubleValue();
            if (index != Math.rint(index) || index < 1 || index >= a.size()) {
                return UNDEFINED;
            }
            return a.get((int) index);
        });
        r.register("ObjectToArray", 1, 3, (a, c) -> {
            if (!a.get(0).isObject() || !Args.allStrings(a, 1, a.size())) {
                return UNDEFINED;
            }
            String keyName = a.size() > 1 ? a.get(1).textValue() : "k";
            String valueName = a.size() > 2 ? a.get(2).textValue() : "v";
            ArrayNode out = Args.array();
            Iterator<Map.Entry<String, JsonNode>> it = a.get(0).fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                ObjectNode pair = out.addObject();
                pair.put(keyName, e.getKey());
                pair.set(valueName, e.getValue());
            }
            return out;
        });
    }

    /**
     * Whether {@code array} holds {@code value}; with {@code partial}, an object value matches any object element
     * that has all of the value's properties (with deep-equal values), whatever else the element has.
     */
    static boolean contains(JsonNode array, JsonNode value, boolean partial) {
        if (Args.isUndefined(value)) {
            return false;
        }
        for (JsonNode e : array) {
            if (partial && value.isObject() && e.isObject()) {
                if (Args.containsAllFields(e, value)) {
                    return true;
                }
            } else if (deepEquals(e, value)) {
                return true;
            }
        }
        return false;
    }
}

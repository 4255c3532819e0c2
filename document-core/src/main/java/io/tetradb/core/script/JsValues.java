package io.tetradb.core.script;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import org.mozilla.javascript.Context;
import org.mozilla.javascript.Function;
import org.mozilla.javascript.NativeArray;
import org.mozilla.javascript.Scriptable;
import org.mozilla.javascript.ScriptableObject;
import org.mozilla.javascript.Undefined;

/**
 * Script values to JSON trees as {@code JSON.stringify} would make them (undefined and functions left out of
 * objects, null in arrays; non-finite numbers null; {@code toJSON} honoured), without the text in between: the
 * arguments of every collection operation cross here.
 */
final class JsValues {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final int MAX_DEPTH = 128;
    /** The sealed shared scope's Object.prototype and Array.prototype: sealed, so they never get a toJSON. */
    private final Scriptable objectPrototype;
    private final Scriptable arrayPrototype;

    JsValues(Scriptable sealedShared) {
        this.objectPrototype = ScriptableObject.getObjectPrototype(sealedShared);
        this.arrayPrototype = ScriptableObject.getArrayPrototype(sealedShared);
    }

    /**
     * A JSON tree as a script value, as {@code JSON.parse} of its text would make it (numbers as doubles; a missing
     * value as null), built directly: the arguments of every UDF call cross here.
     */
    Object fromJson(Context cx, Scriptable scope, JsonNode n) {
        if (n == null || n.isNull() || n.isMissingNode()) {
            return null;
        }
        if (n.isTextual()) {
            return n.textValue();
        }
        if (n.isNumber()) {
            return n.doubleValue();
        }
        if (n.isBoolean()) {
            return n.booleanValue();
        }
        if (n.isArray()) {
            Object[] elements = new Object[n.size()];
            for (int i = 0; i < elements.length; i++) {
                elements[i] = fromJson(cx, scope, n.get(i));
            }
            return cx.newArray(scope, elements);
        }
        if (n.isObject()) {
            Scriptable o = cx.newObject(scope);
            for (java.util.Iterator<java.util.Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                java.util.Map.Entry<String, JsonNode> f = it.next();
                Object v = fromJson(cx, scope, f.getValue());
                int index = arrayIndex(f.getKey());
                if (index >= 0) { // Rhino keeps index-like keys ("0") apart from names, as JSON.parse puts them
                    o.put(index, o, v);
                } else {
                    o.put(f.getKey(), o, v);
                }
            }
            return o;
        }
        return n.asText(); // binary and POJO nodes do not occur in items
    }

    /** The key as a canonical array index (digits, no leading zero, below 2^31 - 1), or -1. */
    private static int arrayIndex(String key) {
        int len = key.length();
        if (len == 0 || len > 10 || (len > 1 && key.charAt(0) == '0')) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < len; i++) {
            char c = key.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v < Integer.MAX_VALUE ? (int) v : -1;
    }

    /** The JSON of {@code v}, or null where JSON.stringify gives undefined (undefined, a function). */
    JsonNode toJson(Context cx, Scriptable scope, Object v) {
        return convert(cx, scope, v, "", 0);
    }

    /**
     * Whether {@code s} may have a toJSON: not for a plain object or array whose prototype is the sealed one and
     * which has no own toJSON (the common case, without walking the prototype chain for a miss).
     */
    private boolean mayHaveToJson(Scriptable s) {
        Scriptable proto = s.getPrototype();
        return !(proto == objectPrototype || proto == arrayPrototype) || s.has("toJSON", s);
    }

    private JsonNode convert(Context cx, Scriptable scope, Object v, Object key, int depth) {
        if (depth > MAX_DEPTH) {
            throw new StoreException(Status.BAD_REQUEST, "a document nested deeper than " + MAX_DEPTH
                    + " levels (or a cyclic one) cannot be stored");
        }
        if (v instanceof Scriptable s && !(v instanceof Function) && mayHaveToJson(s)) {
            Object toJson = ScriptableObject.getProperty(s, "toJSON");
            if (toJson instanceof Function f) {
                v = f.call(cx, scope, s, new Object[]{key});
            }
        }
        if (v == null) {
            return NODES.nullNode();
        }
        if (v instanceof Undefined || v instanceof Function) {
            return null;
        }
        if (v instanceof Boolean b) {
            return NODES.booleanNode(b);
        }
        if (v instanceof CharSequence cs) {
            return NODES.textNode(cs.toString());
        }
        if (v instanceof Number n) {
            if (n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte) {
                return NODES.numberNode(n.longValue());
            }
            double d = n.doubleValue();
            if (!Double.isFinite(d)) {
                return NODES.nullNode();
            }
            if (d == Math.rint(d) && Math.abs(d) < 9.007199254740992E15 && !(d == 0 && 1 / d < 0)) {
                long l = (long) d;
                return l == (int) l ? NODES.numberNode((int) l) : NODES.numberNode(l);
            }
            return NODES.numberNode(d);
        }
        if (v instanceof NativeArray a) {
            ArrayNode out = NODES.arrayNode();
            long length = a.getLength();
            for (int i = 0; i < length; i++) {
                JsonNode e = convert(cx, scope, a.get(i, a), String.valueOf(i), depth + 1);
                out.add(e == null ? NODES.nullNode() : e);
            }
            return out;
        }
        if (v instanceof ScriptableObject o) {
            String cls = o.getClassName();
            if (cls.equals("String") || cls.equals("Number") || cls.equals("Boolean")) {
                return convert(cx, scope, o.getDefaultValue(cls.equals("String") ? String.class
                        : cls.equals("Number") ? Number.class : Boolean.class), key, depth);
            }
            ObjectNode out = NODES.objectNode();
            for (Object id : o.getIds()) {
                // own enumerable ids: read on the object itself (getters run), the chain only if it is not there
                Object value = id instanceof Integer i ? o.get(i, o) : o.get(id.toString(), o);
                if (value == Scriptable.NOT_FOUND) {
                    value = ScriptableObject.getProperty(o, id.toString());
                }
                JsonNode e = convert(cx, scope, value, id.toString(), depth + 1);
                if (e != null) {
                    out.set(id.toString(), e);
                }
            }
            return out;
        }
        return NODES.textNode(Context.toString(v));
    }
}

package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Iterator;
import java.util.Map;

/**
 * An edge's carried properties as JSON text without Jackson's generator (graph-load, issue 18, session 13): a bulk
 * load writes one small object per edge (air-routes: {@code {"dist":…}}), and a Jackson generator per edge cost more
 * than the text. Only what needs no formatting choice: an object whose names and string values are printable ASCII
 * without quote or backslash, and whose values are such strings, Int32/Int64 numbers, booleans or null. The bytes are
 * exactly those of the store's mapper ({@code CarriedJsonTest}); anything else returns null and the caller uses
 * the mapper.
 */
final class CarriedJson {
    private CarriedJson() {
    }

    /** {@code props} as the mapper would write it, or null when it holds something this does not write. */
    static byte[] of(ObjectNode props) {
        int size = 2;
        for (Iterator<Map.Entry<String, JsonNode>> it = props.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            int v = valueLength(f.getValue());
            if (v < 0 || !plain(f.getKey())) {
                return null;
            }
            size += f.getKey().length() + 3 + v;
        }
        if (props.size() > 1) {
            size += props.size() - 1;
        }
        byte[] out = new byte[size];
        int at = 0;
        out[at++] = '{';
        boolean first = true;
        for (Iterator<Map.Entry<String, JsonNode>> it = props.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (!first) {
                out[at++] = ',';
            }
            first = false;
            at = quoted(f.getKey(), out, at);
            out[at++] = ':';
            at = value(f.getValue(), out, at);
        }
        out[at++] = '}';
        return at == size ? out : null;
    }

    /** Bytes of the value's text, or -1 when not written here. */
    private static int valueLength(JsonNode v) {
        if (v.isInt()) {
            return Integer.toString(v.intValue()).length();
        }
        if (v.isLong()) {
            return Long.toString(v.longValue()).length();
        }
        if (v.isBoolean()) {
            return v.booleanValue() ? 4 : 5;
        }
        if (v.isNull()) {
            return 4;
        }
        if (v.isTextual() && plain(v.textValue())) {
            return v.textValue().length() + 2;
        }
        return -1;
    }

    private static int value(JsonNode v, byte[] out, int at) {
        if (v.isTextual()) {
            return quoted(v.textValue(), out, at);
        }
        String text = v.isInt() ? Integer.toString(v.intValue()) : v.isLong() ? Long.toString(v.longValue())
                : v.isBoolean() ? Boolean.toString(v.booleanValue()) : "null";
        return ascii(text, out, at);
    }

    private static int quoted(String s, byte[] out, int at) {
        out[at++] = '"';
        at = ascii(s, out, at);
        out[at++] = '"';
        return at;
    }

    private static int ascii(String s, byte[] out, int at) {
        for (int i = 0; i < s.length(); i++) {
            out[at++] = (byte) s.charAt(i);
        }
        return at;
    }

    /** Printable ASCII but {@code "} and {@code \}: JSON's escaping leaves it as it is. */
    private static boolean plain(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
                return false;
            }
        }
        return true;
    }
}

package io.tetradb.core.value;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Iterator;
import java.util.Map;

/**
 * The length in characters of a value's compact JSON text ({@code node.toString().length()}), computed by walking the
 * tree instead of writing the text: the query pages' 4 MB cap measures every projected row, and writing each row out
 * only to count it was a fifth of a small query's CPU. Strings count their escapes as Jackson writes them.
 */
public final class JsonLength {
    private JsonLength() {
    }

    public static long of(JsonNode n) {
        switch (n.getNodeType()) {
            case OBJECT: {
                long len = 2 + Math.max(0, n.size() - 1);  // braces and commas
                for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> f = it.next();
                    len += string(f.getKey()) + 1 + of(f.getValue());
                }
                return len;
            }
            case ARRAY: {
                long len = 2 + Math.max(0, n.size() - 1);
                for (JsonNode e : n) {
                    len += of(e);
                }
                return len;
            }
            case STRING:
                return string(n.textValue());
            case NUMBER:
                if (n.isIntegralNumber() && n.canConvertToLong()) {
                    return digits(n.longValue());
                }
                if (n.isDouble() && Double.isFinite(n.doubleValue())) {
                    return Double.toString(n.doubleValue()).length(); // Jackson's text of a double, without a writer
                }
                return n.toString().length();
            case BOOLEAN:
                return n.booleanValue() ? 4 : 5;
            case NULL:
                return 4;
            default:
                return n.toString().length();
        }
    }

    private static long string(String s) {
        long len = 2;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                len += 2;
            } else if (c < 0x20) {
                len += c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f' ? 2 : 6;
            } else {
                len += 1;
            }
        }
        return len;
    }

    private static int digits(long v) {
        if (v == Long.MIN_VALUE) {
            return 20;
        }
        int sign = v < 0 ? 1 : 0;
        long a = Math.abs(v);
        int d = 1;
        while (a >= 10) {
            a /= 10;
            d++;
        }
        return d + sign;
    }
}

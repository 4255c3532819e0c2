package io.tetradb.server.gremlin.security;

/**
 * How deeply a GraphSON request nests its objects and arrays, counted before any JSON is parsed. GraphSON is decoded
 * on Gremlin Server's event loop, which also answers every other connection's frames and pings; a 60 KB frame of
 * 10,000 nested objects took that thread 0.4-1.2 s per frame on a loaded 2-core machine (Jackson's recursive descent
 * and its error path), so a few connections sending such frames left every connection's ping unanswered for more than
 * 15 s (the 9 hangs of the Gremlin long fuzz run). A request that nests deeper than {@link #MAX_DEPTH} is refused
 * before it is parsed; the count is one pass over the characters, skipping strings.
 */
public final class JsonNesting {
    /**
     * Deeper than any request a driver writes (each nested anonymous traversal in GraphSON bytecode adds about four
     * levels), far below what costs the event loop anything.
     */
    public static final int MAX_DEPTH = 256;

    private JsonNesting() {
    }

    /** Whether {@code json} opens more than {@link #MAX_DEPTH} objects or arrays inside one another. */
    public static boolean tooDeep(CharSequence json) {
        int depth = 0;
        boolean inString = false;
        for (int i = 0, n = json.length(); i < n; i++) {
            char c = json.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++; // the escaped character, whatever it is
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                if (++depth > MAX_DEPTH) {
                    return true;
                }
            } else if (c == '}' || c == ']') {
                depth--;
            }
        }
        return false;
    }
}

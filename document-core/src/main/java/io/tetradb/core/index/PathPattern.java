package io.tetradb.core.index;

import io.tetradb.core.Status;
import io.tetradb.core.StoreException;

import java.util.ArrayList;
import java.util.List;

/**
 * One path of a Cosmos DB indexing policy: {@code /*} (everything), {@code /a/?} (the scalar at /a), {@code /a/*}
 * (/a and everything below it), {@code /a/[]/?} (the scalar elements of the array /a), {@code /"b-c"/?} (quoted
 * property names).
 */
public record PathPattern(List<String> segments, boolean wildcard, String text) {
    /** The concrete path segment that stands for "any element of an array". */
    public static final String ARRAY = "[]";

    public static PathPattern parse(String text) {
        if (text == null || !text.startsWith("/")) {
            throw invalid(text, "it must start with /");
        }
        List<String> parts = split(text);
        if (parts.isEmpty()) {
            throw invalid(text, "it must end with /? or /*");
        }
        String terminal = parts.get(parts.size() - 1);
        if (!terminal.equals("?") && !terminal.equals("*")) {
            throw invalid(text, "it must end with /? or /*");
        }
        List<String> segments = List.copyOf(parts.subList(0, parts.size() - 1));
        for (String s : segments) {
            if (s.equals("?") || s.equals("*")) {
                throw invalid(text, "? and * may only end a path");
            }
        }
        if (terminal.equals("?") && segments.isEmpty()) {
            throw invalid(text, "/? needs a property before it");
        }
        return new PathPattern(segments, terminal.equals("*"), text);
    }

    /** Whether this pattern covers the scalar at {@code path} (concrete segments, {@value #ARRAY} for elements). */
    public boolean matches(List<String> path) {
        int n = segments.size();
        if (wildcard ? path.size() < n : path.size() != n) {
            return false;
        }
        // by index: List.equals (and a subList's) allocates iterators, and every indexed value of every write asks
        // this of each pattern (graph-load: ≈ 400 bytes per element of a graph bulk load)
        for (int i = 0; i < n; i++) {
            if (!segments.get(i).equals(path.get(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * How precise the pattern is, for "the more precise path wins": more segments first; at the same depth an exact
     * {@code /?} beats a {@code /*}.
     */
    public int precision() {
        return segments.size() * 2 + (wildcard ? 0 : 1);
    }

    static List<String> split(String text) {
        List<String> parts = new ArrayList<>();
        int i = 1;
        while (i <= text.length()) {
            if (i == text.length()) {
                throw invalid(text, "it ends with /");
            }
            String part;
            if (text.charAt(i) == '"') {
                int close = text.indexOf('"', i + 1);
                if (close < 0) {
                    throw invalid(text, "a quoted property name is not closed");
                }
                part = text.substring(i + 1, close);
                i = close + 1;
            } else {
                int slash = text.indexOf('/', i);
                int end = slash < 0 ? text.length() : slash;
                part = text.substring(i, end);
                i = end;
            }
            if (part.isEmpty()) {
                throw invalid(text, "it has an empty segment");
            }
            parts.add(part);
            if (i < text.length() && text.charAt(i) != '/') {
                throw invalid(text, "a quoted property name must be followed by /");
            }
            i++;
        }
        return parts;
    }

    private static StoreException invalid(String text, String why) {
        return new StoreException(Status.BAD_REQUEST, "invalid indexing policy path '" + text + "': " + why);
    }

    @Override
    public String toString() {
        return text;
    }
}

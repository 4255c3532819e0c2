package io.tetradb.core.index;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * One composite index of a policy (Cosmos DB's {@code compositeIndexes}): 2–8 property paths, each ascending or
 * descending. Every item has exactly one entry per composite index, {@code enc(v1) · … · enc(vn)} with each
 * component's bytes complemented when descending (so one forward scan serves {@code ORDER BY a ASC, b DESC}).
 *
 * @param name       the canonical name, e.g. {@code composite(/deviceId ASC,/ts DESC)}: the key of the index in the
 *                   container's path dictionary (single paths start with '/', so the two never collide); property
 *                   names other than {@code [A-Za-z0-9_]} are written as JSON strings, so distinct indexes never share
 *                   a name
 * @param paths      per component, its property names ({@code ["location", "city"]})
 * @param descending per component, whether it sorts descending
 */
public record CompositeIndex(String name, List<List<String>> paths, boolean[] descending) {
    public static final int MIN_PATHS = 2;
    public static final int MAX_PATHS = 8;

    /** System properties that are never indexed (as for single paths): always undefined in a composite entry. */
    private static final Set<String> NOT_INDEXED = Set.of("_rid", "_self", "_etag", "_attachments");

    public CompositeIndex {
        paths = paths.stream().map(List::copyOf).toList();
        descending = descending.clone();
        if (paths.size() != descending.length) {
            throw new IllegalArgumentException(paths.size() + " paths but " + descending.length + " orders");
        }
    }

    /** An index over {@code paths}, named canonically. */
    public static CompositeIndex of(List<List<String>> paths, boolean[] descending) {
        StringBuilder name = new StringBuilder("composite(");
        for (int i = 0; i < paths.size(); i++) {
            if (i > 0) {
                name.append(',');
            }
            for (String segment : paths.get(i)) {
                name.append('/').append(plain(segment) ? segment : quoted(segment));
            }
            name.append(descending[i] ? " DESC" : " ASC");
        }
        return new CompositeIndex(name.append(')').toString(), paths, descending);
    }

    /** Per component, whether it sorts descending (a copy: the record's array stays unchanged). */
    @Override
    public boolean[] descending() {
        return descending.clone();
    }

    /** Whether component {@code component} sorts descending. */
    public boolean descending(int component) {
        return descending[component];
    }

    /** Whether component {@code component}'s value is read from the item ({@code _rid} and the like are undefined). */
    public boolean readsItem(int component) {
        return !NOT_INDEXED.contains(paths.get(component).get(0));
    }

    /** The number of components. */
    public int size() {
        return paths.size();
    }

    /**
     * The components' paths as single-path index entries name them ({@code /deviceId}, {@code /location/city};
     * JSON-pointer escaping), so a planner can match them against query paths and single-path seeks.
     */
    public List<String> pathStrings() {
        List<String> out = new ArrayList<>(paths.size());
        for (List<String> path : paths) {
            StringBuilder s = new StringBuilder();
            for (String segment : path) {
                s.append('/').append(IndexTerms.escape(segment));
            }
            out.add(s.toString());
        }
        return out;
    }

    /**
     * The value this index holds for {@code item}'s component {@code component}: the value at the path as it reads
     * back from storage, strings (also inside arrays and objects) cut to {@value IndexTerms#MAX_STRING_CHARS}
     * characters; {@link MissingNode} when undefined (also below a scalar or an array: paths do not enter arrays).
     * {@code _rid _self _etag _attachments} are undefined, as they are never indexed; {@code _ts} is the item's own
     * (for a version being written, {@link CompositeTerms} uses the version's timestamp instead).
     */
    public JsonNode valueAt(JsonNode item, int component) {
        List<String> path = paths.get(component);
        if (!readsItem(component)) {
            return MissingNode.getInstance();
        }
        JsonNode node = item;
        for (String segment : path) {
            node = IndexTerms.asStored(node);
            node = node.isObject() ? node.path(segment) : MissingNode.getInstance();
            if (node.isMissingNode()) {
                return node;
            }
        }
        return CompositeTerms.indexedForm(node);
    }

    private static boolean plain(String segment) {
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_')) {
                return false;
            }
        }
        return !segment.isEmpty();
    }

    private static String quoted(String segment) {
        return com.fasterxml.jackson.databind.node.TextNode.valueOf(segment).toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CompositeIndex c && name.equals(c.name) && paths.equals(c.paths)
                && Arrays.equals(descending, c.descending);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return name;
    }
}

package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.index.CompiledIndexingPolicy;
import io.tetradb.core.index.CompositeIndex;
import io.tetradb.core.index.IndexTerms;
import io.tetradb.core.storage.KeyCursor;
import io.tetradb.core.storage.Space;
import io.tetradb.core.value.IndexKeyEncoding;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts items by the value of a composite index component, reading the index's keys only (no item is read or
 * parsed): the items whose leading components equal given values, grouped by the next component. A composite index
 * holds exactly one entry per item (undefined components included, see {@code CompositeTerms}), so the counts are
 * item counts. A graph counts its vertices per label this way ({@code /_isEdge, /label}).
 */
final class CompositeEntryCounts {
    private final ContainerStore container;

    CompositeEntryCounts(ContainerStore container) {
        this.container = container;
    }

    /**
     * Per value of component {@code leading.size()} of the composite index over {@code paths} (in that order, any
     * sort orders), the number of items whose first components equal {@code leading} (a
     * {@link com.fasterxml.jackson.databind.node.MissingNode} for undefined); values in index order. Null when the
     * answer would not be exact: no such composite in the container's settled policy (none, or a rebuild running),
     * or a grouped string at the index's length cut ({@value IndexTerms#MAX_STRING_CHARS} characters: longer
     * strings share that entry).
     */
    Map<JsonNode, Long> count(List<String> paths, List<JsonNode> leading) {
        IndexingState state = container.indexingState();
        if (state.rebuilding()) {
            return null;
        }
        CompositeIndex index = find(state.current(), paths);
        if (index == null || leading.size() >= index.size()) {
            return null;
        }
        Integer pathId = container.paths().find(index.name());
        Map<JsonNode, Long> counts = new LinkedHashMap<>();
        if (pathId == null) {
            return counts; // no entry was ever written: no item
        }
        byte[] prefix = Keys.concat(container.collIdBytes(), Keys.collId(pathId));
        for (int i = 0; i < leading.size(); i++) {
            prefix = Keys.concat(prefix, IndexKeyEncoding.encode(leading.get(i), index.descending(i)));
        }
        boolean descending = index.descending(leading.size());
        byte[] end = Keys.prefixEnd(prefix);
        byte[] group = null;
        JsonNode value = null;
        long n = 0;
        try (KeyCursor cursor = container.reads().entries(prefix, end, false)) {
            while (cursor.next()) {
                byte[] key = cursor.key();
                if (group != null && startsWith(key, group)) {
                    n++;
                    continue;
                }
                if (group != null) {
                    counts.put(value, n);
                }
                int to = IndexKeyEncoding.skip(key, prefix.length, descending);
                value = IndexKeyEncoding.decode(key, prefix.length, to - prefix.length, descending);
                if (value.isTextual() && value.textValue().length() >= IndexTerms.MAX_STRING_CHARS - 1) {
                    return null;
                }
                group = Arrays.copyOf(key, to);
                n = 1;
            }
        }
        if (group != null) {
            counts.put(value, n);
        }
        return counts;
    }

    private static CompositeIndex find(CompiledIndexingPolicy policy, List<String> paths) {
        for (CompositeIndex c : policy.composites()) {
            if (c.pathStrings().equals(paths)) {
                return c;
            }
        }
        return null;
    }

    private static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }
}

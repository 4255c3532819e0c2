package io.tetradb.core.query.plan;

import io.tetradb.core.value.KeyRange;

import java.util.List;

/**
 * An index seek chosen for a query: the index path (flattened, as {@link io.tetradb.core.index.IndexTerm} names it),
 * the value ranges to read, and the predicate it came from (for explain). The items it finds are a superset of the
 * items the predicate keeps; the executor re-checks the whole WHERE clause on them.
 */
public record IndexSeek(String path, List<KeyRange> ranges, String predicate, List<String> concrete) {

    /** The property names along the path (array markers dropped), from the root alias's item. */
    public List<String> names() {
        return concrete.stream().filter(s -> !s.equals(io.tetradb.core.index.PathPattern.ARRAY)).toList();
    }

    /** Whether the path reads no array elements (no JOIN alias, no ARRAY_CONTAINS): one value per item at most. */
    public boolean direct() {
        return !concrete.contains(io.tetradb.core.index.PathPattern.ARRAY);
    }
}

package io.tetradb.core.store;

import io.tetradb.core.index.CompositeIndex;
import io.tetradb.core.query.plan.IndexSeek;

import java.util.List;

/**
 * How the items are found. {@code seek} null: scan; {@code ordered}: the seek's value order serves the sort;
 * {@code composite}: a composite index serves it.
 */
record AccessPath(IndexSeek seek, boolean ordered, boolean reverse, CompositeRead composite, IdKeys ids) {
    static final AccessPath SCAN = new AccessPath(null, false, false, null, null);

    AccessPath(IndexSeek seek, boolean ordered, boolean reverse) {
        this(seek, ordered, reverse, null, null);
    }

    AccessPath(IndexSeek seek, boolean ordered, boolean reverse, CompositeRead composite) {
        this(seek, ordered, reverse, composite, null);
    }

    String id() {
        if (ids != null) {
            return "primary key " + (ids.prefix() || ids.range() != null ? "range" : "lookup") + " (" + ids.why() + ")";
        }
        if (composite != null) {
            return "composite index read on " + composite.index().name() + " (" + composite.why() + ")"
                    + (reverse ? " backwards" : "");
        }
        if (seek == null) {
            return "scan";
        }
        return (ordered ? "index-ordered read" : "index seek") + " on " + seek.path() + " (" + seek.predicate()
                + ")" + (ordered && reverse ? " descending" : "");
    }

    /**
     * A read of a composite index that serves the ORDER BY: its leading {@code equalities} components pinned by
     * equality (each combination of {@code IN} values is one encoded prefix), the sort keys next.
     */
    record CompositeRead(CompositeIndex index, int equalities, int sortKeys, List<byte[]> prefixes, String why) {
    }

    /**
     * Ids pinned by the filter: {@code c.id = v}, {@code c.id IN (...)}, a prefix by {@code STARTSWITH(c.id, p)}, or
     * a {@code range} by comparisons of {@code c.id} with strings ({@code values} empty then).
     */
    record IdKeys(List<String> values, boolean prefix, String why, IdRange range) {
        IdKeys(List<String> values, boolean prefix, String why) {
            this(values, prefix, why, null);
        }
    }

    /**
     * {@code from <(=) c.id <(=) to}, either bound null for none. Only for bounds without chars ≥ U+D800: then the
     * ids in the range by SQL's UTF-16 order are exactly those whose UTF-8 keys lie between the bounds' keys.
     * Not for ids holding an unpaired surrogate: {@code Keys.utf8} stores it as {@code ?} (so two such ids already
     * share a key), and a lower bound decided at that char can then exclude the id's key although SQL includes it.
     */
    record IdRange(String from, boolean fromInclusive, String to, boolean toInclusive) {
    }
}

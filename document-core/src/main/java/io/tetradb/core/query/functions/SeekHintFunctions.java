package io.tetradb.core.query.functions;

import com.fasterxml.jackson.databind.node.BooleanNode;

/**
 * {@code SEEK_HINT(predicate)}: always true, whatever {@code predicate} evaluates to. The planner reads the predicate
 * as an index seek with the index's own multikey meaning (array elements flattened under the array's path, as
 * MongoDB's multikey indexes do), so a face whose query language differs from Cosmos SQL — the Mongo face matching
 * {@code {"links.target": v}} against arrays of objects — can have its candidates found by an index and re-check its
 * exact semantics on them. In a plain SQL query it filters nothing; it can only make the query use an index.
 */
public final class SeekHintFunctions {
    public static final String SEEK_HINT = "SEEK_HINT";

    private SeekHintFunctions() {
    }

    public static void registerAll(FunctionRegistry r) {
        r.register(SEEK_HINT, 1, 1, (a, c) -> BooleanNode.TRUE);
    }
}

package io.tetradb.core.store;

import io.tetradb.core.index.CompiledIndexingPolicy;

import java.util.Arrays;

/**
 * Which indexing policy the stored index entries of an item follow. Without a rebuild: {@code current} for every
 * item. During a rebuild (after the policy changed): items whose DOCS key is at or before {@code cursor} (the last key
 * the rebuild converted; null: none yet) have {@code current}'s entries, the others still {@code previous}'s.
 * Immutable: the container swaps the whole state while it holds the locks that keep writers from seeing a half move.
 */
record IndexingState(CompiledIndexingPolicy current, CompiledIndexingPolicy previous, byte[] cursor, long converted,
                     CompiledIndexingPolicy seekable) {

    /**
     * {@code seekable}: what the query planner may seek with — the current policy, or during a rebuild what both
     * policies index (one object per rebuild, so a query can tell that a rebuild began or ended while it read).
     */
    IndexingState(CompiledIndexingPolicy current, CompiledIndexingPolicy previous, byte[] cursor, long converted) {
        this(current, previous, cursor, converted,
                previous == null ? current : CompiledIndexingPolicy.both(current, previous));
    }

    static IndexingState settled(CompiledIndexingPolicy policy) {
        return new IndexingState(policy, null, null, 0);
    }

    boolean rebuilding() {
        return previous != null;
    }

    /** The policy whose entries the item stored under {@code docKey} has. */
    CompiledIndexingPolicy policyFor(byte[] docKey) {
        if (previous == null || cursor != null && Arrays.compareUnsigned(docKey, cursor) <= 0) {
            return current;
        }
        return previous;
    }

    IndexingState advancedTo(byte[] lastConverted, long items) {
        return new IndexingState(current, previous, lastConverted, converted + items, seekable);
    }
}

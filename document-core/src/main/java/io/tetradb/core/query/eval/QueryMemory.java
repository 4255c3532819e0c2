package io.tetradb.core.query.eval;

import io.tetradb.core.Status;
import io.tetradb.core.StoreException;

/**
 * What one query may hold in memory while it sorts, groups or de-duplicates (what it cannot stream): past the bound
 * it fails with 400 rather than exhaust the heap, as Cosmos DB refuses a query that "exceeded the maximum allowed
 * memory usage" and MongoDB a sort over 100 MB without disk use. The bound is one per process (a server's
 * {@code --query-memory}); default 100 MiB, MongoDB's.
 */
public final class QueryMemory {
    public static final long DEFAULT_LIMIT_BYTES = 100L * 1024 * 1024;
    private static volatile long limitBytes = DEFAULT_LIMIT_BYTES;

    private final long limit = limitBytes;
    private long used;

    /** Sets the bound for queries started from now on. */
    public static void setLimitBytes(long bytes) {
        if (bytes < 1024 * 1024) {
            throw new IllegalArgumentException("the query memory limit must be at least 1 MiB");
        }
        limitBytes = bytes;
    }

    public static long limitBytes() {
        return limitBytes;
    }

    /** Counts {@code bytes} more held by this query; throws once the total is over the bound. */
    void hold(long bytes) {
        used += bytes;
        if (used > limit) {
            throw new StoreException(Status.BAD_REQUEST, "Query exceeded the maximum allowed memory usage of "
                    + limit / (1024 * 1024) + " MB. Please consider adding more filters to reduce the query "
                    + "response size, or a LIMIT.");
        }
    }
}

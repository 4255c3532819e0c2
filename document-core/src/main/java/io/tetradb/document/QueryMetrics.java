package io.tetradb.document;

import java.time.Duration;

/**
 * What one query page did, as Cosmos DB's query metrics name it: documents retrieved (read from storage) and their
 * size, documents output, index entries read ({@code indexLookupCount}), and the execution time. Retrieved / output
 * close to 1 means the index found exactly the results.
 */
public final class QueryMetrics {
    private final long retrievedDocumentCount;
    private final long retrievedDocumentSize;
    private final long outputDocumentCount;
    private final long indexHitCount;
    private final long elapsedNanos;

    QueryMetrics(long retrievedDocumentCount, long retrievedDocumentSize, long outputDocumentCount,
                 long indexHitCount, long elapsedNanos) {
        this.retrievedDocumentCount = retrievedDocumentCount;
        this.retrievedDocumentSize = retrievedDocumentSize;
        this.outputDocumentCount = outputDocumentCount;
        this.indexHitCount = indexHitCount;
        this.elapsedNanos = elapsedNanos;
    }

    public long getRetrievedDocumentCount() {
        return retrievedDocumentCount;
    }

    /** Stored bytes of the retrieved documents. */
    public long getRetrievedDocumentSize() {
        return retrievedDocumentSize;
    }

    public long getOutputDocumentCount() {
        return outputDocumentCount;
    }

    /** Index entries read. */
    public long getIndexHitCount() {
        return indexHitCount;
    }

    public Duration getTotalQueryExecutionTime() {
        return Duration.ofNanos(elapsedNanos);
    }

    @Override
    public String toString() {
        return "retrievedDocumentCount=" + retrievedDocumentCount + ";retrievedDocumentSize=" + retrievedDocumentSize
                + ";outputDocumentCount=" + outputDocumentCount + ";indexLookupCount=" + indexHitCount
                + ";totalExecutionTimeInMs=" + String.format(java.util.Locale.ROOT, "%.2f", elapsedNanos / 1e6);
    }
}

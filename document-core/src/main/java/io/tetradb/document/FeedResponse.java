package io.tetradb.document;

import java.util.List;

/** One page of query results, as in azure-cosmos. */
public final class FeedResponse<T> {
    private final List<T> results;
    private final String continuationToken;
    private final double requestCharge;
    private final long documentsLoaded;
    private final long indexHits;
    private final String accessPath;

    FeedResponse(List<T> results, String continuationToken, double requestCharge, long documentsLoaded,
                 long indexHits, String accessPath) {
        this.results = List.copyOf(results);
        this.continuationToken = continuationToken;
        this.requestCharge = requestCharge;
        this.documentsLoaded = documentsLoaded;
        this.indexHits = indexHits;
        this.accessPath = accessPath;
    }

    public List<T> getResults() {
        return results;
    }

    /** Opaque; null on the last page. Pass it to {@link CosmosPagedIterable#iterableByPage(String, int)}. */
    public String getContinuationToken() {
        return continuationToken;
    }

    public double getRequestCharge() {
        return requestCharge;
    }

    /** TetraDB extension: how many items the query read to produce its results. */
    public long getDocumentsLoaded() {
        return documentsLoaded;
    }

    /** TetraDB extension: how many index entries the query read. */
    public long getIndexHits() {
        return indexHits;
    }

    /** TetraDB extension: how the items were found: {@code scan}, or the index seek and the predicate it serves. */
    public String getAccessPath() {
        return accessPath;
    }
}

package io.tetradb.document;

import java.util.List;

/** One page of query results, as in azure-cosmos. */
public final class FeedResponse<T> {
    private final List<T> results;
    private final String continuationToken;
    private final double requestCharge;

    FeedResponse(List<T> results, String continuationToken, double requestCharge) {
        this.results = List.copyOf(results);
        this.continuationToken = continuationToken;
        this.requestCharge = requestCharge;
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
}

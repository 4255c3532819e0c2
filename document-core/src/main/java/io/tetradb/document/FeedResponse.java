package io.tetradb.document;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Map;

/** One page of query results, as in azure-cosmos. */
public final class FeedResponse<T> {
    private final List<T> results;
    private final String continuationToken;
    private final double requestCharge;
    private final QueryMetrics metrics;
    private final String accessPath;
    private final String indexMetrics;
    private final ObjectNode explain;
    /** A change feed page that read up to the end of the feed: iteration stops after it (its token resumes later). */
    boolean drained;

    FeedResponse(List<T> results, String continuationToken, double requestCharge, QueryMetrics metrics,
                 String accessPath, String indexMetrics, ObjectNode explain) {
        this.indexMetrics = indexMetrics;
        this.explain = explain;
        this.results = List.copyOf(results);
        this.continuationToken = continuationToken;
        this.requestCharge = requestCharge;
        this.metrics = metrics;
        this.accessPath = accessPath;
    }

    /** Change feed: true when the feed had nothing new (Cosmos DB answers 304 Not Modified). */
    public boolean isNoChanges() {
        return drained && results.isEmpty();
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
        return metrics.getRetrievedDocumentCount();
    }

    /** TetraDB extension: how many index entries the query read. */
    public long getIndexHits() {
        return metrics.getIndexHitCount();
    }

    /**
     * This page's query metrics (the figures Cosmos DB reports as query metrics: retrieved and output documents,
     * retrieved bytes, index lookups, execution time). One entry, keyed {@code "0"}: TetraDB runs a query page as one
     * execution over its index, however many physical partitions it spans.
     */
    public Map<String, QueryMetrics> getQueryMetricsMap() {
        return Map.of("0", metrics);
    }

    /**
     * Which indexes the query used and which would help, in the Cosmos DB SDKs' text form; null unless
     * {@link CosmosQueryRequestOptions#setIndexMetricsEnabled} asked for them.
     */
    public String getIndexMetrics() {
        return indexMetrics;
    }

    /** This page's query metrics (see {@link #getQueryMetricsMap()}). */
    public QueryMetrics getQueryMetrics() {
        return metrics;
    }

    /**
     * TetraDB extension, the query's explain: how the items were found ({@code scan}, the index seek and the predicate
     * it serves, or an index-ordered read serving the ORDER BY) and over which partitions.
     */
    public String getAccessPath() {
        return accessPath;
    }

    /**
     * TetraDB extension, when {@link CosmosQueryRequestOptions#setExplain(Boolean)} asked for it (else null): the
     * query's logical plan ({@code plan}), the partitions this page touched ({@code partitions}), its access path
     * ({@code accessPath}), each predicate of the filter with the index that can serve it and whether it did
     * ({@code predicates}), and how an ORDER BY was served ({@code orderBy}).
     */
    public ObjectNode getExplain() {
        return explain == null ? null : explain.deepCopy();
    }
}

package io.tetradb.document;

/** Options of a query, as in azure-cosmos. A partition key limits the query to that logical partition. */
public final class CosmosQueryRequestOptions {
    private Boolean explain;
    private PartitionKey partitionKey;
    private FeedRange feedRange;
    private Integer maxItemCount;
    private Boolean indexMetricsEnabled;
    private Boolean queryMetricsEnabled;

    private ConsistencyLevel consistencyLevel;

    public ConsistencyLevel getConsistencyLevel() {
        return consistencyLevel;
    }

    /** The query's consistency level: the client's (null) or a weaker one; a stronger one is 400. */
    public CosmosQueryRequestOptions setConsistencyLevel(ConsistencyLevel consistencyLevel) {
        this.consistencyLevel = consistencyLevel;
        return this;
    }

    public PartitionKey getPartitionKey() {
        return partitionKey;
    }

    public CosmosQueryRequestOptions setPartitionKey(PartitionKey partitionKey) {
        this.partitionKey = partitionKey;
        return this;
    }

    public FeedRange getFeedRange() {
        return feedRange;
    }

    /** Limits the query to one feed range (a physical partition from {@link CosmosContainer#getFeedRanges()}). */
    public CosmosQueryRequestOptions setFeedRange(FeedRange feedRange) {
        this.feedRange = feedRange;
        return this;
    }

    Integer getMaxItemCount() {
        return maxItemCount;
    }

    /** The default page size of {@link CosmosPagedIterable#iterableByPage()} (default 100, as Cosmos). */
    public CosmosQueryRequestOptions setMaxItemCount(Integer maxItemCount) {
        this.maxItemCount = maxItemCount;
        return this;
    }

    public Boolean isIndexMetricsEnabled() {
        return indexMetricsEnabled;
    }

    /** Asks for {@link FeedResponse#getIndexMetrics()} (off by default, as in Cosmos DB: it costs planning work). */
    public CosmosQueryRequestOptions setIndexMetricsEnabled(Boolean enabled) {
        this.indexMetricsEnabled = enabled;
        return this;
    }

    public Boolean isQueryMetricsEnabled() {
        return queryMetricsEnabled;
    }

    /** Accepted for compatibility: {@link FeedResponse#getQueryMetrics()} is always filled in. */
    public CosmosQueryRequestOptions setQueryMetricsEnabled(Boolean enabled) {
        this.queryMetricsEnabled = enabled;
        return this;
    }

    /**
     * TetraDB extension: each page's {@link FeedResponse#getExplain()} describes the query's plan, the partitions it
     * touched, its access path and the index that serves each predicate of its filter.
     */
    public CosmosQueryRequestOptions setExplain(Boolean explain) {
        this.explain = explain;
        return this;
    }

    public Boolean isExplain() {
        return explain;
    }
}

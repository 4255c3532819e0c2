package io.tetradb.document;

/** Per-request options of item operations, as in azure-cosmos. */
public class CosmosItemRequestOptions {
    private String ifMatchETag;
    private String ifNoneMatchETag;
    private Boolean contentResponseOnWriteEnabled;
    private java.util.List<String> preTriggerInclude;
    private java.util.List<String> postTriggerInclude;

    public java.util.List<String> getPreTriggerInclude() {
        return preTriggerInclude;
    }

    /** The pre-trigger to run before this write (at most one; it may change the item). */
    public CosmosItemRequestOptions setPreTriggerInclude(java.util.List<String> preTriggerInclude) {
        this.preTriggerInclude = preTriggerInclude;
        return this;
    }

    public java.util.List<String> getPostTriggerInclude() {
        return postTriggerInclude;
    }

    /** The post-trigger to run after this write, in its transaction (at most one; throwing rolls the write back). */
    public CosmosItemRequestOptions setPostTriggerInclude(java.util.List<String> postTriggerInclude) {
        this.postTriggerInclude = postTriggerInclude;
        return this;
    }

    private ConsistencyLevel consistencyLevel;

    public ConsistencyLevel getConsistencyLevel() {
        return consistencyLevel;
    }

    /** A read's consistency level: the client's (null) or a weaker one; a stronger one is 400. */
    public CosmosItemRequestOptions setConsistencyLevel(ConsistencyLevel consistencyLevel) {
        this.consistencyLevel = consistencyLevel;
        return this;
    }

    public String getIfMatchETag() {
        return ifMatchETag;
    }

    /** The write succeeds only while the item's etag is this one; otherwise 412. */
    public CosmosItemRequestOptions setIfMatchETag(String ifMatchETag) {
        this.ifMatchETag = ifMatchETag;
        return this;
    }

    public String getIfNoneMatchETag() {
        return ifNoneMatchETag;
    }

    /** A read answers 304 with no item while the item's etag is this one. */
    public CosmosItemRequestOptions setIfNoneMatchETag(String ifNoneMatchETag) {
        this.ifNoneMatchETag = ifNoneMatchETag;
        return this;
    }

    public Boolean isContentResponseOnWriteEnabled() {
        return contentResponseOnWriteEnabled;
    }

    /** Whether a write returns the item as stored (default: the client's setting, which defaults to false). */
    public CosmosItemRequestOptions setContentResponseOnWriteEnabled(Boolean enabled) {
        this.contentResponseOnWriteEnabled = enabled;
        return this;
    }
}

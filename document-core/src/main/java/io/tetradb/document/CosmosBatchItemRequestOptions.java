package io.tetradb.document;

/** Per-operation options inside a transactional batch. */
public class CosmosBatchItemRequestOptions {
    private String ifMatchETag;
    private String ifNoneMatchETag;

    public String getIfMatchETag() {
        return ifMatchETag;
    }

    public CosmosBatchItemRequestOptions setIfMatchETag(String ifMatchETag) {
        this.ifMatchETag = ifMatchETag;
        return this;
    }

    public String getIfNoneMatchETag() {
        return ifNoneMatchETag;
    }

    public CosmosBatchItemRequestOptions setIfNoneMatchETag(String ifNoneMatchETag) {
        this.ifNoneMatchETag = ifNoneMatchETag;
        return this;
    }
}

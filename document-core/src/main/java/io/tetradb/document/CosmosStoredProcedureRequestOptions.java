package io.tetradb.document;

/** Options of a stored procedure request, as in azure-cosmos: the partition key (required to execute), logging. */
public final class CosmosStoredProcedureRequestOptions {
    private PartitionKey partitionKey;
    private boolean scriptLoggingEnabled;
    private String ifMatchETag;

    public PartitionKey getPartitionKey() {
        return partitionKey;
    }

    /** The logical partition the procedure runs in: it sees and writes only that partition. */
    public CosmosStoredProcedureRequestOptions setPartitionKey(PartitionKey partitionKey) {
        this.partitionKey = partitionKey;
        return this;
    }

    public boolean isScriptLoggingEnabled() {
        return scriptLoggingEnabled;
    }

    /** Whether {@code console.log} output comes back ({@link CosmosStoredProcedureResponse#getScriptLog()}). */
    public CosmosStoredProcedureRequestOptions setScriptLoggingEnabled(boolean scriptLoggingEnabled) {
        this.scriptLoggingEnabled = scriptLoggingEnabled;
        return this;
    }

    public String getIfMatchETag() {
        return ifMatchETag;
    }

    /** For replace and delete: only while the procedure's etag is this one, else 412. */
    public CosmosStoredProcedureRequestOptions setIfMatchETag(String ifMatchETag) {
        this.ifMatchETag = ifMatchETag;
        return this;
    }
}

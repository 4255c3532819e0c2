package io.tetradb.document;

/**
 * Options of a container operation, as in azure-cosmos. Accepted for source compatibility; TetraDB has no quota
 * headers, so nothing here changes a result yet.
 */
public final class CosmosContainerRequestOptions {
    private boolean quotaInfoEnabled;

    public boolean isQuotaInfoEnabled() {
        return quotaInfoEnabled;
    }

    public CosmosContainerRequestOptions setQuotaInfoEnabled(boolean quotaInfoEnabled) {
        this.quotaInfoEnabled = quotaInfoEnabled;
        return this;
    }
}

package io.tetradb.table.model;

/**
 * 429 {@code TooManyRequests}: the table's physical partition has spent its provisioned RU/s (rate limiting on). The
 * HTTP endpoint adds {@code x-ms-retry-after-ms}, which the Azure SDKs' retry policies wait for.
 */
public final class TableThrottledException extends TableException {
    private final long retryAfterMillis;

    public TableThrottledException(long retryAfterMillis, String message) {
        super(429, "TooManyRequests", message);
        this.retryAfterMillis = retryAfterMillis;
    }

    public long retryAfterMillis() {
        return retryAfterMillis;
    }
}

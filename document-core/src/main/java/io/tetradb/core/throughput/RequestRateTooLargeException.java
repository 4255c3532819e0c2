package io.tetradb.core.throughput;

import io.tetradb.core.StoreException;

/**
 * A request refused because its physical partition has spent its provisioned RU/s: HTTP 429 with Cosmos DB's
 * sub-status 3200 (RU budget exceeded) and the time after which the partition has budget again. Every face maps it
 * to its own convention (REST {@code x-ms-retry-after-ms}, Mongo error 16500, Gremlin status attributes).
 */
public final class RequestRateTooLargeException extends StoreException {
    public static final int STATUS = 429;
    /** Cosmos DB's sub-status of a 429 caused by the partition's RU budget. */
    public static final int SUB_STATUS_RU_BUDGET_EXCEEDED = 3200;

    private final long retryAfterMillis;

    public RequestRateTooLargeException(long retryAfterMillis, String message) {
        super(STATUS, SUB_STATUS_RU_BUDGET_EXCEEDED, message);
        this.retryAfterMillis = retryAfterMillis;
    }

    /** How long the client should wait before trying again (at least 1 ms). */
    public long retryAfterMillis() {
        return retryAfterMillis;
    }
}

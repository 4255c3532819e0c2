package io.tetradb.document;

import io.tetradb.core.StoreException;

import java.util.function.Supplier;

/** A failed request, with the HTTP status code and sub-status Cosmos DB would return. */
public class CosmosException extends RuntimeException {
    private final int statusCode;
    private final int subStatusCode;

    public CosmosException(int statusCode, int subStatusCode, String message) {
        super(message);
        this.statusCode = statusCode;
        this.subStatusCode = subStatusCode;
        this.retryAfter = java.time.Duration.ZERO;
    }

    private final java.time.Duration retryAfter;

    CosmosException(StoreException e) {
        super(e.getMessage(), e);
        this.statusCode = e.status();
        this.subStatusCode = e.subStatus();
        this.retryAfter = e instanceof io.tetradb.core.throughput.RequestRateTooLargeException r
                ? java.time.Duration.ofMillis(r.retryAfterMillis()) : java.time.Duration.ZERO;
    }

    /** For a 429: how long to wait before retrying (as azure-cosmos); zero otherwise. */
    public java.time.Duration getRetryAfterDuration() {
        return retryAfter;
    }

    public int getStatusCode() {
        return statusCode;
    }

    public int getSubStatusCode() {
        return subStatusCode;
    }

    @Override
    public String toString() {
        return "CosmosException{statusCode=" + statusCode + ", subStatusCode=" + subStatusCode + ", message="
                + getMessage() + "}";
    }

    /** Runs a core call, turning the core's errors into this API's exception. */
    static <T> T call(Supplier<T> call) {
        try {
            return call.get();
        } catch (StoreException e) {
            throw new CosmosException(e);
        }
    }
}

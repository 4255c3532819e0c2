package io.tetradb.document;

import io.tetradb.core.StoreException;

import java.util.Map;
import java.util.function.Supplier;

/** A failed request, with the HTTP status code and sub-status Cosmos DB would return. */
public class CosmosException extends RuntimeException {
    private final int statusCode;
    private final int subStatusCode;
    private final Map<String, String> responseHeaders;

    public CosmosException(int statusCode, int subStatusCode, String message) {
        super(message);
        this.statusCode = statusCode;
        this.subStatusCode = subStatusCode;
        this.responseHeaders = Map.of();
        this.retryAfter = java.time.Duration.ZERO;
    }

    private final java.time.Duration retryAfter;

    CosmosException(StoreException e) {
        this(e, Map.of());
    }

    CosmosException(StoreException e, Map<String, String> responseHeaders) {
        super(e.getMessage(), e);
        this.statusCode = e.status();
        this.subStatusCode = e.subStatus();
        this.responseHeaders = Map.copyOf(responseHeaders);
        this.retryAfter = e instanceof io.tetradb.core.throughput.RequestRateTooLargeException r
                ? java.time.Duration.ofMillis(r.retryAfterMillis()) : java.time.Duration.ZERO;
    }

    /**
     * The headers the failed response carried, as azure-cosmos' {@code getResponseHeaders()}: here only
     * {@code x-ms-documentdb-script-log-results} (a failed stored procedure's console log, percent-encoded as
     * Cosmos DB sends it) when the request enabled script logging.
     */
    public Map<String, String> getResponseHeaders() {
        return responseHeaders;
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

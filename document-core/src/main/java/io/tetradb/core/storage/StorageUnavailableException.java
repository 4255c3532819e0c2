package io.tetradb.core.storage;

import io.tetradb.core.StoreException;

/**
 * A request a shared engine could not serve now and that changed nothing: too few replicas alive for the consistency
 * asked (Cassandra's Unavailable), a read that timed out (a QUORUM read waiting on a node just killed, before any
 * write of the request was sent), no node reachable. Unlike {@link WriteOutcomeUnknownException}, the client may
 * simply retry. Each face answers it as its service answers "not served, nothing done, retry": Cosmos DB 503
 * ServiceUnavailable, MongoDB PrimarySteppedDown (189, a retriable code: RetryableWriteError for a retryable write,
 * TransientTransactionError in a transaction), Azure Table storage 503 ServerBusy.
 */
public class StorageUnavailableException extends StoreException {
    /** Cosmos DB's status for a request the service could not serve now. */
    public static final int STATUS = 503;

    public StorageUnavailableException(String message, Throwable cause) {
        super(STATUS, message);
        if (cause != null) {
            initCause(cause);
        }
    }
}

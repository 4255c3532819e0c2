package io.tetradb.core.storage;

import io.tetradb.core.StoreException;

/**
 * A write a shared engine could not settle: it may or may not have been applied (its conditional write timed out and
 * the engine could not find out since, e.g. its reads at SERIAL kept timing out). Never answered as "not applied"
 * (the client would retry a write that happened, or report it failed) nor as done: each face answers it as its
 * service answers a write of unknown outcome — Cosmos DB 408 Request Timeout, MongoDB ExceededTimeLimit (on
 * commitTransaction with the UnknownTransactionCommitResult label), Azure Table storage 500 OperationTimedOut — so the
 * client reads before it retries.
 */
public class WriteOutcomeUnknownException extends StoreException {
    /** Cosmos DB's status for a request that did not complete in time (its outcome, for a write, unknown). */
    public static final int STATUS = 408;

    public WriteOutcomeUnknownException(String message, Throwable cause) {
        super(STATUS, message);
        if (cause != null) {
            initCause(cause);
        }
    }
}

package io.tetradb.cassandra.store;

import io.tetradb.core.storage.partition.LogicalPartition;

/**
 * An apply whose outcome Cassandra could not settle (its Paxos rounds kept timing out under contention or with too
 * few replicas up): it may or may not have been applied. A face answers it as Cosmos DB answers a write whose outcome
 * is unknown (408 Request Timeout), and the client reads before it retries.
 */
public final class OutcomeUnknownException extends RuntimeException {
    public OutcomeUnknownException(LogicalPartition p, Throwable cause) {
        super("the outcome of a write to logical partition " + p + " is unknown: " + cause.getMessage(), cause);
    }

    /** A write that is not a logical partition's (a metadata write: {@code what}). */
    public OutcomeUnknownException(String what, Throwable cause) {
        super("the outcome of a " + what + " is unknown: " + cause.getMessage(), cause);
    }
}

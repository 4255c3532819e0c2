package io.tetradb.cassandra.store;

import io.tetradb.core.storage.WriteOutcomeUnknownException;
import io.tetradb.core.storage.partition.LogicalPartition;

/**
 * An apply whose outcome Cassandra could not settle (its Paxos rounds kept timing out under contention or with too
 * few replicas up, or the version moved on so far that the partition's mark slot was reused): it may or may not have
 * been applied. The core's {@link WriteOutcomeUnknownException}, which each face answers as its service answers a
 * write of unknown outcome (Cosmos DB 408), so the client reads before it retries.
 */
public final class OutcomeUnknownException extends WriteOutcomeUnknownException {
    public OutcomeUnknownException(LogicalPartition p, Throwable cause) {
        super("the outcome of a write to logical partition " + p + " is unknown: "
                + (cause == null ? "its mark was overwritten before it could be read" : cause.getMessage()), cause);
    }

    /** A write that is not a logical partition's (a metadata write: {@code what}). */
    public OutcomeUnknownException(String what, Throwable cause) {
        super("the outcome of a " + what + " is unknown: " + cause.getMessage(), cause);
    }
}

package io.tetradb.core.cancel;

/** Why a core call stopped before its end; each face answers it in its own convention. */
public enum StopReason {
    /** The request's time limit ran out (Mongo {@code maxTimeMS}, the Cosmos REST face's request time limit). */
    TIME_LIMIT,
    /** The request was killed by another one (Mongo {@code killOp}, a killed session). */
    KILLED,
    /** The thread running the call was interrupted (Gremlin's evaluation timeout, an abandoned request). */
    INTERRUPTED
}

package io.tetradb.document;

/**
 * azure-cosmos' consistency levels. The client's level ({@link CosmosClientBuilder#consistencyLevel}) is the account's
 * default; a request may weaken it ({@link CosmosItemRequestOptions#setConsistencyLevel},
 * {@link CosmosQueryRequestOptions#setConsistencyLevel}), a stronger one is 400. Strong and bounded-staleness reads
 * cost twice the request units, as in Cosmos DB.
 */
public enum ConsistencyLevel {
    STRONG,
    BOUNDED_STALENESS,
    SESSION,
    EVENTUAL,
    CONSISTENT_PREFIX;

    io.tetradb.core.consistency.ConsistencyLevel core() {
        return io.tetradb.core.consistency.ConsistencyLevel.valueOf(name());
    }

    static io.tetradb.core.consistency.ConsistencyLevel core(ConsistencyLevel level) {
        return level == null ? null : level.core();
    }
}

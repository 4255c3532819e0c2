package io.tetradb.core.store;

/** A database as stored in META. */
public record DatabaseDefinition(String id, int dbId, String rid, Integer throughput, long ts) {
}

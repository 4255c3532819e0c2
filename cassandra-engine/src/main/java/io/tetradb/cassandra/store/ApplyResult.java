package io.tetradb.cassandra.store;

/** The outcome of an {@link PartitionStore#apply}: applied, or refused with the version the partition is at. */
public record ApplyResult(boolean applied, long version) {
}

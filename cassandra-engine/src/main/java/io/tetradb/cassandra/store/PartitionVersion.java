package io.tetradb.cassandra.store;

/** A logical partition of a slice and its version. */
public record PartitionVersion(LogicalPartition partition, long version) {
}

package io.tetradb.core.storage.partition;

/** A logical partition and its statistics (its version among them), as {@link PartitionStore#partitions} lists it. */
public record PartitionVersion(LogicalPartition partition, PartitionStats stats) {
    public long version() {
        return stats.version();
    }
}

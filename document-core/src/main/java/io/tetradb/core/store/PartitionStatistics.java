package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/** What the partition storage page shows for one container. */
public record PartitionStatistics(String database, String container, List<String> partitionKeyPaths,
                                  long logicalPartitionLimitBytes, long splitThresholdBytes,
                                  List<Physical> physicalPartitions) {

    /** One physical partition: its EPK range, size, and its largest logical partitions. */
    public record Physical(int id, String minInclusive, String maxExclusive, long bytes, long itemCount,
                           long logicalPartitionCount, List<Logical> largestLogicalPartitions) {
    }

    /** One logical partition; {@code nearLimit} when it holds 80% or more of the logical partition limit. */
    public record Logical(JsonNode partitionKey, String epk, long bytes, long itemCount, boolean nearLimit) {
    }
}

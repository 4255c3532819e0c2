package io.tetradb.server.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.store.PartitionStatistics;

import java.util.List;

/**
 * The JSON of {@code GET /api/partitions}. Mapped explicitly from the core's records so that the HTTP contract
 * does not change silently when the core's records do.
 */
public record PartitionsReport(List<Container> containers) {

    public static PartitionsReport of(List<PartitionStatistics> statistics) {
        return new PartitionsReport(statistics.stream().map(PartitionsReport::container).toList());
    }

    record Container(String database, String container, List<String> partitionKeyPaths, Limits limits, long bytes,
                     long itemCount, List<Physical> physicalPartitions) {
    }

    record Limits(long logicalPartitionLimitBytes, long splitThresholdBytes) {
    }

    record Physical(int id, String minInclusive, String maxExclusive, long bytes, long itemCount,
                    long logicalPartitionCount, List<Logical> largestLogicalPartitions) {
    }

    record Logical(JsonNode partitionKey, String epk, long bytes, long itemCount, boolean nearLimit) {
    }

    private static Container container(PartitionStatistics s) {
        List<Physical> physical = s.physicalPartitions().stream().map(PartitionsReport::physical).toList();
        return new Container(s.database(), s.container(), s.partitionKeyPaths(),
                new Limits(s.logicalPartitionLimitBytes(), s.splitThresholdBytes()),
                physical.stream().mapToLong(Physical::bytes).sum(),
                physical.stream().mapToLong(Physical::itemCount).sum(), physical);
    }

    private static Physical physical(PartitionStatistics.Physical p) {
        return new Physical(p.id(), p.minInclusive(), p.maxExclusive(), p.bytes(), p.itemCount(),
                p.logicalPartitionCount(), p.largestLogicalPartitions().stream()
                .map(l -> new Logical(l.partitionKey(), l.epk(), l.bytes(), l.itemCount(), l.nearLimit()))
                .toList());
    }
}

package io.tetradb.document;

import io.tetradb.core.partition.EpkRange;

/**
 * A range of effective partition keys: one physical partition from {@link CosmosContainer#getFeedRanges()}, or the
 * whole container. {@link #toString()} gives Cosmos DB's JSON form, {@code {"Range":{"min":"","max":"FF"}}}.
 */
public final class FeedRange {
    private final EpkRange range;
    /** Set for {@link #forLogicalPartition(PartitionKey)}: the change feed of one partition key (or key prefix). */
    private final PartitionKey partitionKey;

    FeedRange(EpkRange range) {
        this(range, null);
    }

    private FeedRange(EpkRange range, PartitionKey partitionKey) {
        this.range = range;
        this.partitionKey = partitionKey;
    }

    public static FeedRange forFullRange() {
        return new FeedRange(EpkRange.FULL);
    }

    /**
     * One logical partition, or with a hierarchical key built from fewer levels ({@link PartitionKeyBuilder}), every
     * partition under that prefix.
     */
    public static FeedRange forLogicalPartition(PartitionKey partitionKey) {
        if (partitionKey == null) {
            throw new IllegalArgumentException("partitionKey is null");
        }
        return new FeedRange(EpkRange.FULL, partitionKey);
    }

    PartitionKey partitionKey() {
        return partitionKey;
    }

    public String getMinInclusive() {
        return range.minHex();
    }

    public String getMaxExclusive() {
        return range.maxHex();
    }

    EpkRange range() {
        return range;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FeedRange f && range.equals(f.range) && java.util.Objects.equals(partitionKey, f.partitionKey);
    }

    @Override
    public int hashCode() {
        return range.hashCode() * 31 + java.util.Objects.hashCode(partitionKey);
    }

    @Override
    public String toString() {
        if (partitionKey != null) {
            return "{\"PK\":" + partitionKey + "}";
        }
        return "{\"Range\":{\"min\":\"" + range.minHex() + "\",\"max\":\"" + range.maxHex() + "\"}}";
    }
}

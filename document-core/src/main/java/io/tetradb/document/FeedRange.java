package io.tetradb.document;

import io.tetradb.core.partition.EpkRange;

/**
 * A range of effective partition keys: one physical partition from {@link CosmosContainer#getFeedRanges()}, or the
 * whole container. {@link #toString()} gives Cosmos DB's JSON form, {@code {"Range":{"min":"","max":"FF"}}}.
 */
public final class FeedRange {
    private final EpkRange range;

    FeedRange(EpkRange range) {
        this.range = range;
    }

    public static FeedRange forFullRange() {
        return new FeedRange(EpkRange.FULL);
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
        return o instanceof FeedRange f && range.equals(f.range);
    }

    @Override
    public int hashCode() {
        return range.hashCode();
    }

    @Override
    public String toString() {
        return "{\"Range\":{\"min\":\"" + range.minHex() + "\",\"max\":\"" + range.maxHex() + "\"}}";
    }
}

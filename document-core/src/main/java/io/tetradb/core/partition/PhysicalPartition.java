package io.tetradb.core.partition;

import java.util.concurrent.atomic.AtomicLong;

/**
 * One physical partition: an EPK range with its running size. Sizes are logical (key + value bytes of the items),
 * so limits and splits are deterministic; they are rebuilt from per-logical-partition statistics at open.
 */
public final class PhysicalPartition {
    private final int id;
    private final EpkRange range;
    private final int parentId;
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong items = new AtomicLong();
    private final AtomicLong logicalPartitions = new AtomicLong();
    /** Bytes at the last split attempt that found nothing to split (one huge logical partition). */
    private volatile long unsplittableAtBytes = -1;

    public PhysicalPartition(int id, EpkRange range, int parentId) {
        this.id = id;
        this.range = range;
        this.parentId = parentId;
    }

    public int id() {
        return id;
    }

    public EpkRange range() {
        return range;
    }

    /** The partition this one was split from, or -1. */
    public int parentId() {
        return parentId;
    }

    public long bytes() {
        return bytes.get();
    }

    public long items() {
        return items.get();
    }

    public long logicalPartitions() {
        return logicalPartitions.get();
    }

    public void add(long deltaBytes, long deltaItems, long deltaLogicalPartitions) {
        bytes.addAndGet(deltaBytes);
        items.addAndGet(deltaItems);
        logicalPartitions.addAndGet(deltaLogicalPartitions);
    }

    public long unsplittableAtBytes() {
        return unsplittableAtBytes;
    }

    public void markUnsplittable(long atBytes) {
        unsplittableAtBytes = atBytes;
    }
}

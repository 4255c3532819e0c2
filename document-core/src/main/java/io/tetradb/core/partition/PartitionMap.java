package io.tetradb.core.partition;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The physical partitions of one container, sorted by range; an immutable snapshot that a split replaces whole.
 * The ranges always tile {@code ["", "FF")}.
 */
public final class PartitionMap {
    private final PhysicalPartition[] partitions;
    private final long epoch;

    public PartitionMap(List<PhysicalPartition> partitions, long epoch) {
        List<PhysicalPartition> sorted = new ArrayList<>(partitions);
        sorted.sort(Comparator.comparing(p -> p.range().min(), EpkRange::compare));
        this.partitions = sorted.toArray(new PhysicalPartition[0]);
        this.epoch = epoch;
        checkTiling();
    }

    private void checkTiling() {
        byte[] expected = EpkRange.MIN;
        for (PhysicalPartition p : partitions) {
            if (EpkRange.compare(p.range().min(), expected) != 0) {
                throw new IllegalStateException("partition ranges do not tile the EPK space at " + p.range());
            }
            expected = p.range().max();
        }
        if (EpkRange.compare(expected, EpkRange.MAX) != 0) {
            throw new IllegalStateException("partition ranges end at " + EffectivePartitionKey.toHex(expected));
        }
    }

    /** The partition owning {@code epk}. */
    public PhysicalPartition route(byte[] epk) {
        return partitions[indexOf(epk)];
    }

    /** The position in {@link #partitions()} of the partition owning {@code epk}. */
    public int indexOf(byte[] epk) {
        int lo = 0;
        int hi = partitions.length - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (EpkRange.compare(partitions[mid].range().min(), epk) <= 0) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    public List<PhysicalPartition> partitions() {
        return List.of(partitions);
    }

    /** Increases with every split, so that callers can tell a stale map. */
    public long epoch() {
        return epoch;
    }

    /** A new map with {@code parent} replaced by its two children. */
    public PartitionMap split(PhysicalPartition parent, PhysicalPartition left, PhysicalPartition right) {
        List<PhysicalPartition> next = new ArrayList<>(partitions.length + 1);
        for (PhysicalPartition p : partitions) {
            if (p == parent) {
                next.add(left);
                next.add(right);
            } else {
                next.add(p);
            }
        }
        return new PartitionMap(next, epoch + 1);
    }

    public int nextPartitionId() {
        int max = -1;
        for (PhysicalPartition p : partitions) {
            max = Math.max(max, p.id());
        }
        return max + 1;
    }
}

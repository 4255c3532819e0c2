package io.tetradb.core.store;

import io.tetradb.core.partition.PartitionKeyValue;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Write counters of a container striped by logical partition, bumped after every applied transaction, for caches
 * above the core (the graph face's vertex cache): an entry read while its partition's stamp was {@code s} is still
 * the stored version as long as the stamp is {@code s}. The bump comes after the write is visible, so a reader that
 * read the stamp before reading the item never keeps a version older than the stamp says. In memory only: the one
 * process that opens a data directory sees every write. Collisions only cost a needless read.
 */
public final class WriteStamps {
    private static final int STRIPES = 1 << 12;
    private final AtomicLongArray stamps = new AtomicLongArray(STRIPES);
    /** Bumped with every stripe: unchanged means no write reached the container at all. */
    private final java.util.concurrent.atomic.AtomicLong any = new java.util.concurrent.atomic.AtomicLong();

    WriteStamps() {
    }

    /** The stamp of a logical partition's stripe. */
    public long stamp(PartitionKeyValue pk) {
        return stamps.get(stripe(pk));
    }

    /** The container's stamp: changes with every write to any of its logical partitions. */
    public long any() {
        return any.get();
    }

    void bump(PartitionKeyValue pk) {
        stamps.incrementAndGet(stripe(pk));
        any.incrementAndGet();
    }

    private static int stripe(PartitionKeyValue pk) {
        int h = Arrays.hashCode(pk.epk());
        return (h ^ (h >>> 16)) & (STRIPES - 1);
    }
}

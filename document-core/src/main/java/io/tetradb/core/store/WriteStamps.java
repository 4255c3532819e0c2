package io.tetradb.core.store;

import io.tetradb.core.partition.PartitionKeyValue;

import java.util.Collection;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Write counters of a container, bumped after every applied transaction, for exact caches above the core (the Mongo
 * face's point replies, the graph face's items and adjacency): an entry read while its stamp was {@code s} is still
 * the stored version as long as the stamp is {@code s}. The bump comes after the write is visible, so a reader that
 * read the stamp before reading the item never keeps a version older than the stamp says. In memory only: the one
 * process that opens a data directory sees every write. Collisions only cost a needless read.
 * <p>Three grains. {@link #stamp(PartitionKeyValue)} moves with every write to a logical partition (striped by
 * partition). {@link #stamp(PartitionKeyValue, String)} moves only with a write of that item, or with a write whose
 * items are not named (a TTL purge, a bulk load's chunk): for what depends on one item. Without it, an unsharded Mongo
 * collection — one logical partition — lost every cached reply at each write to any of its documents.
 * {@link #adjacencyStamp(int)} moves with a write of one of a vertex's adjacency entries in one direction (which the
 * transaction names), or with any write that names nothing: for a graph's cached adjacency lists, whose in-entries are
 * written by edges in other partitions.
 */
public final class WriteStamps {
    private static final int STRIPES = 1 << 12;
    /** Item stripes: 512 KiB, so made on the first item-grain read, and only containers with such a cache pay it. */
    private static final int ITEM_STRIPES = 1 << 16;
    private final AtomicLongArray stamps = new AtomicLongArray(STRIPES);
    /** Bumped by writes whose items are not named: part of every item-grain stamp of the partition. */
    private final AtomicLongArray unnamed = new AtomicLongArray(STRIPES);
    /** Bumped by every write that names nothing, in any partition: part of every adjacency stamp. */
    private final AtomicLong unnamedAny = new AtomicLong();
    /**
     * Item and adjacency stripes, null until one is first read; a write that finds it null has nothing to invalidate.
     */
    private volatile AtomicLongArray items;
    /** Bumped with every stripe: unchanged means no write reached the container at all. */
    private final AtomicLong any = new AtomicLong();

    WriteStamps() {
    }

    /** The stamp of a logical partition's stripe: moves with every write to it. */
    public long stamp(PartitionKeyValue pk) {
        return stamps.get(stripe(pk.hashCode()));
    }

    /**
     * The stamp of one item ({@code pk}, {@code id}): moves with every write of it, and with every write to its
     * partition that does not name its items. The sum of two counters that only grow: unchanged means neither moved.
     */
    public long stamp(PartitionKeyValue pk, String id) {
        AtomicLongArray i = itemStripes();
        int h = pk.hashCode();
        return unnamed.get(stripe(h)) + i.get(itemStripe(h, id));
    }

    /**
     * The stamp of one adjacency list, {@code vertexDirection} being {@code GraphAdjacency.vertexDirection} of its
     * vertex and direction: moves with every write of one of its entries and with every write that names nothing.
     */
    public long adjacencyStamp(int vertexDirection) {
        AtomicLongArray i = itemStripes();
        return unnamedAny.get() + i.get(adjacencyStripe(vertexDirection));
    }

    private AtomicLongArray itemStripes() {
        AtomicLongArray i = items;
        if (i == null) {
            synchronized (this) {
                if (items == null) {
                    items = new AtomicLongArray(ITEM_STRIPES);
                }
                i = items;
            }
            // A write bumps `any` before it reads `items`: if that read found null, its bump comes before this read
            // of `any` in the synchronization order, so its item, visible before the bump, is visible to the read
            // that follows this stamp (the other way round, the write saw the array and bumped the item's stripe).
            any.get();
        }
        return i;
    }

    /** The container's stamp: changes with every write to any of its logical partitions. */
    public long any() {
        return any.get();
    }

    /** After a write to {@code pk} whose items are not named: every item stamp of the partition moves. */
    void bump(PartitionKeyValue pk) {
        int s = stripe(pk.hashCode());
        unnamed.incrementAndGet(s);
        unnamedAny.incrementAndGet(); // its edges' in-entries may be in any partition
        stamps.incrementAndGet(s);
        any.incrementAndGet();
    }

    /** After a write of derived entries outside a transaction (an adjacency rebuild): every adjacency stamp moves. */
    void bumpAll() {
        unnamedAny.incrementAndGet();
        any.incrementAndGet();
    }

    /** After a write of the items {@code ids} of {@code pk}: their stamps and the partition's move. */
    void bump(PartitionKeyValue pk, Collection<String> ids) {
        bump(pk, ids, null, 0);
    }

    /**
     * As {@link #bump(PartitionKeyValue, Collection)}, and the adjacency lists {@code vertexDirections[0..n)} the
     * write changed move too.
     */
    void bump(PartitionKeyValue pk, Collection<String> ids, int[] vertexDirections, int n) {
        int h = pk.hashCode();
        stamps.incrementAndGet(stripe(h));
        any.incrementAndGet(); // before reading `items` (see itemStripes())
        AtomicLongArray i = items;
        if (i != null) {
            for (String id : ids) {
                i.incrementAndGet(itemStripe(h, id));
            }
            for (int k = 0; k < n; k++) {
                i.incrementAndGet(adjacencyStripe(vertexDirections[k]));
            }
        }
    }

    /** {@code pkHash}: {@code pk.hashCode()} (computed once per value, of its encoded bytes). */
    private static int stripe(int pkHash) {
        return (pkHash ^ (pkHash >>> 16)) & (STRIPES - 1);
    }

    private static int adjacencyStripe(int vertexDirection) {
        int h = (vertexDirection ^ 0x5BD1E995) * 0x9E3779B9; // apart from the items' stripes of the same hash
        return (h ^ (h >>> 16)) & (ITEM_STRIPES - 1);
    }

    private static int itemStripe(int pkHash, String id) {
        int h = (31 * pkHash + id.hashCode()) * 0x9E3779B9; // spread: ids often differ in their last characters only
        return (h ^ (h >>> 16)) & (ITEM_STRIPES - 1);
    }
}

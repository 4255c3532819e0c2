package io.tetradb.graph.store;

import java.util.List;
import java.util.Objects;

import io.tetradb.core.store.StampCheckedCache;
import io.tetradb.graph.store.GraphStore.Hop;

/**
 * A vertex's decoded adjacency entries per direction and label, each with the core write stamp it was read at, so
 * repeated hops over the same vertices run from memory. Exact: a list is current while its own write stamp
 * ({@code WriteStamps.adjacencyStamp}: the vertex and direction) is unchanged, which the core bumps whenever a
 * transaction puts or deletes one of its entries — out-entries with their edge in the vertex's partition, in-entries
 * with their edge in another — and at every write that names nothing (a TTL purge, a bulk-load chunk, a rebuild).
 * Until session 29 in-lists took the container's stamp, so any write ended every one of them. The stamp rule and the byte bound (an estimate; past it, arbitrary lists
 * are dropped) are the core's {@link StampCheckedCache}; a list read while a write came in is not kept.
 */
final class AdjacencyCache {
    /** A vertex, direction and label; a plain class for the reason {@code ItemCache}'s key is one. */
    private static final class Key {
        private final Object pk;
        private final String id;
        private final byte direction;
        private final String label;
        private final int hash;

        Key(Object pk, String id, byte direction, String label) {
            this.pk = pk;
            this.id = id;
            this.direction = direction;
            this.label = label;
            this.hash = (31 * (31 * Objects.hashCode(pk) + Objects.hashCode(id)) + direction) * 31 + Objects.hashCode(label);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && hash == k.hash && direction == k.direction && Objects.equals(id, k.id)
                    && Objects.equals(label, k.label) && Objects.equals(pk, k.pk);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** A decoded list, or (hops null) only how many entries there are ({@code count()} after a hop). */
    private static final class Cached extends StampCheckedCache.Entry {
        private final List<Hop> hops;
        private final long count;

        Cached(long stamp, int bytes, List<Hop> hops, long count) {
            super(stamp, bytes);
            this.hops = hops;
            this.count = count;
        }
    }

    private final StampCheckedCache<Key, Cached> lists;
    private final long maxBytes;

    AdjacencyCache(long maxBytes) {
        this.lists = new StampCheckedCache<>(maxBytes);
        this.maxBytes = maxBytes;
    }

    /** The cached list if it was read at {@code stamp}, else null. */
    List<Hop> get(Object pk, String id, byte direction, String label, long stamp) {
        if (!lists.enabled()) {
            return null;
        }
        Cached c = lists.get(new Key(pk, id, direction, label), stamp);
        return c == null ? null : c.hops;
    }

    /** How many entries there are if a list or a count was cached at {@code stamp}, else -1. */
    long count(Object pk, String id, byte direction, String label, long stamp) {
        if (!lists.enabled()) {
            return -1;
        }
        Cached c = lists.get(new Key(pk, id, direction, label), stamp);
        return c == null ? -1 : c.hops != null ? c.hops.size() : c.count;
    }

    /**
     * Keeps a count of entries read at {@code stamp} (asked when no list is kept for it at that stamp) unless the
     * stamp is no longer {@code stampNow} (a write came in between).
     */
    void putCount(Object pk, String id, byte direction, String label, long stamp, long stampNow, long count) {
        if (!lists.enabled()) {
            return;
        }
        lists.putIfCurrent(new Key(pk, id, direction, label), new Cached(stamp, 96 + 2 * id.length(), null, count),
                stampNow);
    }

    /** Keeps a list read at {@code stamp} unless the stamp is no longer {@code stampNow} (a write came in between). */
    void put(Object pk, String id, byte direction, String label, long stamp, long stampNow, List<Hop> hops) {
        if (!lists.enabled()) {
            return;
        }
        int size = 96;
        for (Hop h : hops) {
            size += 120 + 2 * (h.otherId().length() + h.edgeId().length())
                    + (h.properties() == null ? 0 : 16 + ItemCache.estimateStored(h.properties().length)); // parsed too
        }
        if (size > maxBytes / 8) {
            return; // one vertex with a huge degree would evict everything else
        }
        lists.putIfCurrent(new Key(pk, id, direction, label), new Cached(stamp, size, hops, hops.size()), stampNow);
    }

    void clear() {
        lists.clear();
    }
}

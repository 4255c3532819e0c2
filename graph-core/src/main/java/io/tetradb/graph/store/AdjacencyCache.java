package io.tetradb.graph.store;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.tetradb.graph.store.GraphStore.Hop;

/**
 * A vertex's decoded adjacency entries per direction and label, each with the core write stamp it was read at, so
 * repeated hops over the same vertices run from memory. Exact: out-entries live in the vertex's own logical partition
 * (an edge is written with its source), so they are current while that partition's stamp is unchanged; in-entries
 * are written by the transactions of their edges' partitions, so they are current while the container's stamp
 * ({@code WriteStamps.any()}) is unchanged. Bounded by bytes (an estimate); past it, arbitrary lists are dropped.
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
    private record Cached(long stamp, List<Hop> hops, long count, int bytes) {
    }

    private final ConcurrentHashMap<Key, Cached> lists = new ConcurrentHashMap<>();
    private final long maxBytes;
    private final AtomicLong bytes = new AtomicLong();

    AdjacencyCache(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** The cached list if it was read at {@code stamp}, else null. */
    List<Hop> get(Object pk, String id, byte direction, String label, long stamp) {
        if (maxBytes == 0) {
            return null;
        }
        Cached c = lists.get(new Key(pk, id, direction, label));
        return c != null && c.stamp() == stamp ? c.hops() : null;
    }

    /** How many entries there are if a list or a count was cached at {@code stamp}, else -1. */
    long count(Object pk, String id, byte direction, String label, long stamp) {
        if (maxBytes == 0) {
            return -1;
        }
        Cached c = lists.get(new Key(pk, id, direction, label));
        return c == null || c.stamp() != stamp ? -1 : c.hops() != null ? c.hops().size() : c.count();
    }

    /** Keeps a count of entries read at {@code stamp} (unless a list is kept for it at that stamp). */
    void putCount(Object pk, String id, byte direction, String label, long stamp, long count) {
        if (maxBytes == 0) {
            return;
        }
        int size = 96 + 2 * id.length();
        if (bytes.get() + size > maxBytes) {
            evict();
        }
        Cached old = lists.put(new Key(pk, id, direction, label), new Cached(stamp, null, count, size));
        bytes.addAndGet(size - (old == null ? 0 : old.bytes()));
    }

    void put(Object pk, String id, byte direction, String label, long stamp, List<Hop> hops) {
        if (maxBytes == 0) {
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
        if (bytes.get() + size > maxBytes) {
            evict();
        }
        Cached old = lists.put(new Key(pk, id, direction, label), new Cached(stamp, hops, hops.size(), size));
        bytes.addAndGet(size - (old == null ? 0 : old.bytes()));
    }

    void clear() {
        lists.clear();
        bytes.set(0);
    }

    private void evict() {
        int drop = Math.max(1, lists.size() / 4);
        for (Iterator<Map.Entry<Key, Cached>> it = lists.entrySet().iterator(); it.hasNext() && drop > 0; drop--) {
            Cached c = it.next().getValue();
            it.remove();
            bytes.addAndGet(-c.bytes());
        }
    }
}

package io.tetradb.core.store;

import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a face read from the core, kept with the write stamp ({@link WriteStamps}) it read <em>before</em> that read:
 * the core bumps a stamp after every applied write, so while the stamp is unchanged the entry is still what a read
 * would give, and a lookup is a hit only then. The one rule of the faces' exact caches (the Mongo face's point
 * replies, the graph face's items and adjacency lists): an entry whose stamp moved before it was kept could never be
 * hit ({@link #putIfCurrent}), a bumped stamp is a miss ({@link #get}). Which stamp (a partition's, the container's
 * {@link WriteStamps#any()}) and what else makes an entry usable is the face's.
 * <p>Bounded by the bytes its entries say they take, and optionally by their number; past either, arbitrary entries
 * are dropped until a quarter of both is free. A bound of 0 holds nothing. Lookups allocate nothing beyond the
 * caller's key.
 *
 * @param <K> the face's key (cache its hash: a lookup is a map lookup)
 * @param <E> the face's entry, with its stamp and size
 */
public final class StampCheckedCache<K, E extends StampCheckedCache.Entry> {
    /** A cached value's stamp and size; a face's entry class adds what it keeps. */
    public abstract static class Entry {
        private final long stamp;
        private final int bytes;

        /** {@code bytes}: the entry's estimated heap size, counted in the cache's bound. */
        protected Entry(long stamp, int bytes) {
            this.stamp = stamp;
            this.bytes = bytes;
        }

        /** The write stamp read before the read that gave this entry. */
        public final long stamp() {
            return stamp;
        }

        /** The estimated heap size counted in the bound (a face whose entries grow adds to it: {@link #resized}). */
        public int bytes() {
            return bytes;
        }
    }

    private final ConcurrentHashMap<K, E> entries = new ConcurrentHashMap<>();
    private final AtomicLong bytes = new AtomicLong();
    private final long maxBytes;
    private final int maxEntries;

    /** Bounded by bytes only. */
    public StampCheckedCache(long maxBytes) {
        this(maxBytes, Integer.MAX_VALUE);
    }

    public StampCheckedCache(long maxBytes, int maxEntries) {
        this.maxBytes = maxBytes;
        this.maxEntries = maxEntries;
    }

    /** Whether it keeps anything (neither bound is 0). */
    public boolean enabled() {
        return maxBytes > 0 && maxEntries > 0;
    }

    /** The entry at {@code key} if it was read at {@code stamp} (no write since), else null. */
    public E get(K key, long stamp) {
        E e = entries.get(key);
        return e != null && e.stamp() == stamp ? e : null;
    }

    /**
     * The entry at {@code key} whatever its stamp, or null: for a face that can still use a stale one (the graph's
     * item cache revalidates it by etag). Not a hit: check its stamp.
     */
    public E peek(K key) {
        return entries.get(key);
    }

    /**
     * Keeps {@code entry} unless {@code stampNow} — the same stamp read again after the read — differs from the
     * entry's: then a write came in between, the entry might hold what it overwrote and could never be hit, so it
     * would only take room. Whether it was kept.
     */
    public boolean putIfCurrent(K key, E entry, long stampNow) {
        if (entry.stamp() != stampNow) {
            return false;
        }
        return put(key, entry);
    }

    /**
     * Keeps {@code entry} at {@code key} (replacing what was there) without asking whether its stamp is still the
     * current one: only for a face whose stale entries are still of use (see {@link #peek}); a stale entry is never a
     * {@link #get} hit. Whether it was kept (not when the cache is off).
     */
    public boolean put(K key, E entry) {
        if (!enabled()) {
            return false;
        }
        int size = entry.bytes();
        if (bytes.get() + size > maxBytes || entries.size() >= maxEntries) {
            shed(size);
        }
        E old = entries.put(key, entry);
        bytes.addAndGet(old == null ? size : size - old.bytes());
        return true;
    }

    /** Whether {@code entry} is still the one at {@code key} and {@code more} bytes fit in the bound. */
    public boolean canGrow(K key, E entry, long more) {
        return bytes.get() + more <= maxBytes && entries.get(key) == entry;
    }

    /** Counts a change of a held entry's {@link Entry#bytes()} by {@code delta} (after {@link #canGrow}). */
    public void resized(long delta) {
        bytes.addAndGet(delta);
    }

    /** Drops the entry at {@code key}, if any. */
    public void remove(K key) {
        E old = entries.remove(key);
        if (old != null) {
            bytes.addAndGet(-old.bytes());
        }
    }

    public void clear() {
        entries.clear();
        bytes.set(0);
    }

    /** The bytes held (the entries' estimates). */
    public long bytes() {
        return bytes.get();
    }

    /** The entries held. */
    public int size() {
        return entries.size();
    }

    /** Drops arbitrary entries (map order) until a quarter of both bounds is free beside {@code incoming} bytes. */
    private synchronized void shed(int incoming) {
        long byteTarget = maxBytes * 3 / 4 - incoming;
        long entryTarget = (long) maxEntries * 3 / 4;
        Iterator<Map.Entry<K, E>> it = entries.entrySet().iterator();
        while ((bytes.get() > byteTarget || entries.size() > entryTarget) && it.hasNext()) {
            Map.Entry<K, E> e = it.next();
            if (entries.remove(e.getKey(), e.getValue())) {
                bytes.addAndGet(-e.getValue().bytes());
            }
        }
    }
}

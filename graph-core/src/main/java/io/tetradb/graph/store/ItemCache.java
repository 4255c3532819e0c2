package io.tetradb.graph.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Parsed items by address, each with the etag it was read at. Never trusted on its own: a read sends the cached
 * etag as {@code If-None-Match} and the core answers 304 when the stored item is still that version, so the read
 * costs one storage lookup instead of parsing the item's JSON again (the largest cost of a traversal that reads
 * vertex properties). Any writer, through any face, changes the etag, so a stale entry is never returned.
 *
 * <p>The cached nodes are shared: callers must not change them (elements copy an item before changing it).
 * Bounded: past {@code capacity} entries, arbitrary entries are dropped.
 */
final class ItemCache {
    private record Key(Object pk, String id) {
    }

    /** A cached item and the etag it was read at. */
    record Entry(ObjectNode item, String etag) {
    }

    private final ConcurrentHashMap<Key, Entry> items = new ConcurrentHashMap<>();
    private final int capacity;

    ItemCache(int capacity) {
        this.capacity = capacity;
    }

    /** The cached item at (pk, id), or null. */
    Entry get(Object pk, String id) {
        return capacity == 0 ? null : items.get(new Key(pk, id));
    }

    /** The etag a cached item was read at (null when it has none: then it cannot be validated). */
    static String etag(ObjectNode item) {
        JsonNode e = item.get(Layout.ETAG);
        return e == null ? null : e.asText();
    }

    void put(Object pk, String id, ObjectNode item) {
        String etag = etag(item);
        if (capacity == 0 || etag == null) {
            return;
        }
        if (items.size() >= capacity) {
            evict();
        }
        items.put(new Key(pk, Objects.requireNonNull(id)), new Entry(item, etag));
    }

    void remove(Object pk, String id) {
        items.remove(new Key(pk, id));
    }

    /** Drops about a quarter of the entries (in hash order: arbitrary ones). */
    private void evict() {
        int drop = Math.max(1, capacity / 4);
        for (Iterator<Key> it = items.keySet().iterator(); it.hasNext() && drop > 0; drop--) {
            it.next();
            it.remove();
        }
    }
}

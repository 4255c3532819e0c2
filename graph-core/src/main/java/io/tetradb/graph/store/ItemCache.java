package io.tetradb.graph.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.store.StampCheckedCache;

import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.Objects;

/**
 * Parsed items (vertices, mostly) by address, each with the etag it was read at and its write stamp then (the core's
 * {@code WriteStamps.stamp(pk, id)}: the item's, so writes of other items of its partition — an edge added — leave it
 * current; item-stamps, session 29). Exact: while the stamp is unchanged no write reached the item,
 * so the item is returned without asking the core at all; once it changed, a read sends the cached etag as
 * {@code If-None-Match} and the core answers 304 when the item is still that version (one storage lookup, no parse).
 * Any writer, through any face, bumps the stamp and changes the etag, so a stale entry is never returned. The stamp
 * rule and the bounds are the core's {@link StampCheckedCache}; the etag, the kept values and their size are this
 * cache's.
 *
 * <p>The cached nodes are shared: callers must not change them (elements copy an item before changing it).
 * Bounded by entries and by bytes (an estimate of the parsed tree): past either, arbitrary entries are dropped.
 */
final class ItemCache {
    /**
     * An address. A plain class, not a record: a record's equals and hashCode go through invokedynamic method
     * handles, which showed as a tenth of {@code path-2}'s samples in this map's lookups (graph-trav).
     */
    private static final class Key {
        private final Object pk;
        private final String id;
        private final int hash;

        Key(Object pk, String id) {
            this.pk = pk;
            this.id = id;
            this.hash = 31 * Objects.hashCode(pk) + Objects.hashCode(id);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && hash == k.hash && Objects.equals(id, k.id) && Objects.equals(pk, k.pk);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /**
     * A cached item, the etag it was read at, its write stamp before that read, its estimated size; and
     * (graph-trav) the values last asked of it by {@code values(k1, ...)} after a hop, so that repeated traversals
     * reaching the vertex do not look the fields up and convert them again. The item never changes while it is
     * cached (a write makes a new entry), so the values stay exact with it.
     */
    static final class Entry extends StampCheckedCache.Entry {
        private final Key keyOf;
        private final ObjectNode item;
        private final String etag;
        private volatile Values values;

        Entry(Key keyOf, ObjectNode item, String etag, long stamp, int bytes) {
            super(stamp, bytes);
            this.keyOf = keyOf;
            this.item = item;
            this.etag = etag;
        }

        ObjectNode item() {
            return item;
        }

        String etag() {
            return etag;
        }

        /** The estimated size, the kept values included. */
        @Override
        public int bytes() {
            Values v = values;
            return super.bytes() + (v == null ? 0 : v.bytes());
        }

        /** The values kept for these keys, or null. */
        List<Object> values(String[] keys) {
            Values v = values;
            return v != null && Arrays.equals(v.keys(), keys) ? v.list() : null;
        }
    }

    /** A vertex's values of some keys, immutable, with their estimated size. */
    private record Values(String[] keys, List<Object> list, int bytes) {
    }

    private final StampCheckedCache<Key, Entry> items;

    ItemCache(int capacity, long maxBytes) {
        this.items = new StampCheckedCache<>(maxBytes, capacity);
    }

    boolean enabled() {
        return items.enabled();
    }

    /** The cached item at (pk, id) whatever its stamp (a stale one is revalidated by its etag), or null. */
    Entry get(Object pk, String id) {
        return items.enabled() ? items.peek(new Key(pk, id)) : null;
    }

    /** The cached item at (pk, id) if it was read at {@code stamp} (current while its stamp is it). */
    Entry current(Object pk, String id, long stamp) {
        return items.enabled() ? items.get(new Key(pk, id), stamp) : null;
    }

    /** The etag a cached item was read at (null when it has none: then it cannot be validated). */
    static String etag(ObjectNode item) {
        JsonNode e = item.get(Layout.ETAG);
        return e == null ? null : e.asText();
    }

    Entry put(Object pk, String id, ObjectNode item, long stamp) {
        if (!items.enabled()) {
            return null;
        }
        return put(pk, id, item, stamp, estimate(item));
    }

    /**
     * As {@link #put(Object, String, ObjectNode, long)} with the size given: for a tree decoded when first touched
     * (the core's lazy trees), whose walk by {@link #estimate} would decode it whole. Kept even when the stamp moved
     * during the read (unlike the Mongo face's replies): never a hit then, but its etag still saves a parse (304).
     */
    Entry put(Object pk, String id, ObjectNode item, long stamp, int size) {
        String etag = etag(item);
        if (!items.enabled() || etag == null) {
            return null;
        }
        Key key = new Key(pk, Objects.requireNonNull(id));
        Entry e = new Entry(key, item, etag, stamp, size);
        items.put(key, e);
        return e;
    }

    /**
     * Keeps {@code list} as the entry's values of {@code keys} (replacing others) when every value is immutable (a
     * caller may keep or change what it is given); counted in the bytes held, within the same bound.
     */
    void keepValues(Entry e, String[] keys, List<Object> list) {
        int size = 48 + 8 * keys.length;
        for (Object v : list) {
            if (!(v instanceof String || v instanceof Integer || v instanceof Long || v instanceof Double
                    || v instanceof Boolean || v instanceof Float || v instanceof Short || v instanceof Byte
                    || v instanceof java.math.BigDecimal || v instanceof java.math.BigInteger || v instanceof UUID
                    || v instanceof java.time.OffsetDateTime)) {
                return; // a List, Map, Date or buffer could be changed by whoever is handed it
            }
            size += 24; // the reference and a boxed number; a String is the cached tree's own
        }
        if (!items.canGrow(e.keyOf, e, size)) {
            return;
        }
        Values old = e.values;
        e.values = new Values(keys.clone(), List.copyOf(list), size);
        items.resized(size - (old == null ? 0 : old.bytes()));
    }

    void remove(Object pk, String id) {
        items.remove(new Key(pk, id));
    }

    void clear() {
        items.clear();
    }

    /** The estimated bytes held. */
    long bytes() {
        return items.bytes();
    }

    /** Whether an item is cached at (pk, id) with this write stamp (current while its stamp is it). */
    boolean holds(Object pk, String id, long stamp) {
        return current(pk, id, stamp) != null;
    }

    /**
     * A tree's heap size once decoded, from its stored binary (TB1) length: {@link #estimate} of air-routes'
     * vertices and of random property lists is 3-6 times their stored bytes, so 8 times bounds it from above.
     */
    static int estimateStored(int storedBytes) {
        return 64 + 8 * storedBytes;
    }

    /** A parsed tree's heap size, roughly: a node's header plus its text. */
    static int estimate(JsonNode n) {
        if (n.isObject()) {
            int size = 64;
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                size += 48 + 2 * f.getKey().length() + estimate(f.getValue());
            }
            return size;
        }
        if (n.isArray()) {
            int size = 40;
            for (JsonNode e : n) {
                size += 8 + estimate(e);
            }
            return size;
        }
        return n.isTextual() ? 56 + 2 * n.textValue().length() : 24;
    }
}

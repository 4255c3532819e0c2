package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Parsed items of index seeks by document key, each tied to the exact stored version it was parsed from: the lsn in
 * the stored bytes' header (a logical partition's lsn grows with every write, and a key's collection id is never
 * reused) and the stored length. A seek that meets the same version again (the graph face reads a vertex's edges
 * through the same seeks over and over) gets a copy of the parsed tree instead of parsing the JSON again, which
 * is most of the cost of a small indexed query. Callers own what they get (a deep copy: value nodes are shared,
 * containers copied), so nothing they change reaches the cache.
 *
 * <p>Bounded by entries ({@value #DEFAULT_CAPACITY} by default, system property {@code tetradb.parsedItemCache};
 * 0 turns it off) and by the stored bytes of what it holds ({@value #MAX_BYTES} bytes; a parsed tree takes a few
 * times its JSON), and it keeps no item over {@value #MAX_ITEM_BYTES} bytes: an entry bound alone would let a few
 * thousand large documents hold gigabytes. Past a bound, arbitrary entries are dropped. Full scans do not use it
 * (a scan would only churn it).
 */
final class ParsedItemCache {
    static final int DEFAULT_CAPACITY = 50_000;
    static final long MAX_BYTES = 32L << 20;
    static final int MAX_ITEM_BYTES = 16 << 10;

    private record Entry(long lsn, int length, ObjectNode item) {
    }

    private final ConcurrentHashMap<ByteBuffer, Entry> items = new ConcurrentHashMap<>();
    private final AtomicLong bytes = new AtomicLong();
    private final int capacity;

    ParsedItemCache(int capacity) {
        this.capacity = capacity;
    }

    static ParsedItemCache fromSystemProperty() {
        return new ParsedItemCache(Integer.getInteger("tetradb.parsedItemCache", DEFAULT_CAPACITY));
    }

    /** The item stored under {@code docKey} as {@code stored}, parsed (or copied from the parse of that version). */
    ObjectNode parse(ItemCodec codec, byte[] docKey, byte[] stored) {
        if (capacity <= 0 || stored.length > MAX_ITEM_BYTES) {
            return codec.parse(stored);
        }
        ByteBuffer key = ByteBuffer.wrap(docKey);
        long lsn = ItemCodec.lsn(stored);
        Entry e = items.get(key);
        if (e != null && e.lsn() == lsn && e.length() == stored.length) {
            return copy(e.item());
        }
        ObjectNode item = codec.parse(stored);
        if (items.size() >= capacity || bytes.get() + stored.length > MAX_BYTES) {
            evict();
        }
        Entry previous = items.put(key, new Entry(lsn, stored.length, copy(item)));
        bytes.addAndGet(stored.length - (previous == null ? 0 : previous.length()));
        return item;
    }

    /**
     * A deep copy (value nodes are immutable and shared) into maps sized for their fields: Jackson's
     * {@code deepCopy} grows each map from the default size, which costs as much again for items of 15 fields.
     */
    static ObjectNode copy(ObjectNode n) {
        Map<String, JsonNode> fields = new LinkedHashMap<>(Math.max(4, (int) (n.size() / 0.75f) + 1));
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            JsonNode v = f.getValue();
            fields.put(f.getKey(), v instanceof ObjectNode o ? copy(o) : v.isContainerNode() ? v.deepCopy() : v);
        }
        return new ObjectNode(JsonNodeFactory.instance, fields);
    }

    /** Drops about a quarter of the entries (in hash order: arbitrary ones). */
    private void evict() {
        int drop = Math.max(1, capacity / 4);
        for (Iterator<Entry> it = items.values().iterator(); it.hasNext() && drop > 0; drop--) {
            bytes.addAndGet(-it.next().length());
            it.remove();
        }
    }
}

package io.tetradb.core.item;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * The fields of an object decoded from a TB1 item: the map under the {@code ObjectNode} a point read gives its
 * caller. Insertion-ordered like the {@code LinkedHashMap} Jackson uses, but held in parallel arrays (names, values)
 * with an open-addressing index of positions once an object has more than {@value #LINEAR} fields,
 * instead of one entry object per field: building the read's tree put every field through {@code HashMap.putVal}
 * and a new {@code LinkedHashMap.Entry}, about a third of the build. A full {@link Map}: the caller may change the
 * node as any other (put, remove, iterate and remove), and equals/hashCode are {@link AbstractMap}'s, so it equals a
 * {@code LinkedHashMap} of the same fields. Not thread-safe for changes, as Jackson's nodes are not; concurrent
 * readers of an unchanged object are safe (its index is built on the first lookup and published whole).
 *
 * <p>core-read: a decoded object is filled by {@link #append} (the format's names are distinct within an object, so no
 * lookup per field) and its index is built only when a name is first looked up: a reader that iterates, serialises or
 * copies the item never pays for it; the names' hashes are the Strings' own (cached in them).
 */
final class ItemFields extends AbstractMap<String, JsonNode> {
    /** Up to this many fields a lookup scans the names; beyond, the index is built and kept. */
    static final int LINEAR = 8;

    private String[] names;
    private JsonNode[] values;
    private int size;
    /** The index of positions, or null until a lookup needs one (and after a change that moved positions). */
    private Index index;
    private int modCount;
    /** core-read: whether a name starting with '_' was appended (a system property may be there already). */
    private boolean underscored;

    /**
     * Slot → position + 1 (0: empty), sized for the arrays' capacity. Built in its constructor, so a reader that sees
     * the reference sees the slots filled (final field semantics), whichever thread built it.
     */
    private static final class Index {
        final int[] slots;

        Index(String[] names, int size, int capacity) {
            slots = new int[tableSize(capacity)];
            for (int i = 0; i < size; i++) {
                place(slots, spread(hash(names[i])), i);
            }
        }
    }

    ItemFields(int capacity) {
        int n = Math.max(2, capacity);
        names = new String[n];
        values = new JsonNode[n];
    }

    private static int tableSize(int fields) {
        return Integer.highestOneBit(Math.max(4, fields) * 2 - 1) << 1; // a power of two, at least twice the fields
    }

    private static int hash(Object key) {
        return key == null ? 0 : key.hashCode();
    }

    private static int spread(int h) {
        return h ^ (h >>> 16);
    }

    private static void place(int[] slots, int spreadHash, int position) {
        int mask = slots.length - 1;
        int s = spreadHash & mask;
        while (slots[s] != 0) {
            s = (s + 1) & mask;
        }
        slots[s] = position + 1;
    }

    private int find(Object key) {
        if (size <= LINEAR && index == null) {
            for (int i = 0; i < size; i++) {
                String n = names[i];
                if (n == key || (n != null && n.equals(key))) {
                    return i;
                }
            }
            return -1;
        }
        Index x = index;
        if (x == null) {
            x = new Index(names, size, names.length);
            index = x;
        }
        int[] slots = x.slots;
        int h = hash(key);
        int mask = slots.length - 1;
        for (int s = spread(h) & mask; ; s = (s + 1) & mask) {
            int p = slots[s];
            if (p == 0) {
                return -1;
            }
            String n = names[p - 1];
            if (n == key || (n != null && hash(n) == h && n.equals(key))) {
                return p - 1;
            }
        }
    }

    /**
     * core-read: adds a field the caller knows is not there yet (a decoded object's names are distinct), without
     * looking it up.
     */
    void append(String key, JsonNode value) {
        if (size == names.length) {
            grow();
        }
        names[size] = key;
        values[size] = value;
        if (index != null) {
            place(index.slots, spread(hash(key)), size);
        }
        if (key != null && !key.isEmpty() && key.charAt(0) == '_') {
            underscored = true;
        }
        size++;
        modCount++;
    }

    /** core-read: true when no name appended by {@link #append} starts with '_' (so no system property is here). */
    boolean noUnderscoredNames() {
        return !underscored;
    }

    private void grow() {
        int n = names.length * 2;
        names = java.util.Arrays.copyOf(names, n);
        values = java.util.Arrays.copyOf(values, n);
        index = null; // sized for the old capacity: built again when next needed
    }

    @Override
    public JsonNode get(Object key) {
        int i = find(key);
        return i < 0 ? null : values[i];
    }

    @Override
    public boolean containsKey(Object key) {
        return find(key) >= 0;
    }

    @Override
    public JsonNode put(String key, JsonNode value) {
        int i = find(key);
        if (i >= 0) {
            JsonNode old = values[i];
            values[i] = value;
            return old;
        }
        append(key, value);
        return null;
    }

    @Override
    public JsonNode remove(Object key) {
        int i = find(key);
        if (i < 0) {
            return null;
        }
        JsonNode old = values[i];
        removeAt(i);
        return old;
    }

    private void removeAt(int i) {
        int tail = size - i - 1;
        System.arraycopy(names, i + 1, names, i, tail);
        System.arraycopy(values, i + 1, values, i, tail);
        size--;
        names[size] = null;
        values[size] = null;
        modCount++;
        index = null; // positions after i moved down: built again when next needed
    }

    @Override
    public void clear() {
        java.util.Arrays.fill(names, 0, size, null);
        java.util.Arrays.fill(values, 0, size, null);
        size = 0;
        modCount++;
        index = null;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public boolean isEmpty() {
        return size == 0;
    }

    @Override
    public Set<Map.Entry<String, JsonNode>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Map.Entry<String, JsonNode>> iterator() {
                return new Fields();
            }

            @Override
            public int size() {
                return size;
            }

            @Override
            public void clear() {
                ItemFields.this.clear();
            }
        };
    }

    /** In insertion order; {@code remove()} supported, changes by others fail fast as in {@code HashMap}. */
    private final class Fields implements Iterator<Map.Entry<String, JsonNode>> {
        private int next;
        private int last = -1;
        private int expected = modCount;

        @Override
        public boolean hasNext() {
            return next < size;
        }

        @Override
        public Map.Entry<String, JsonNode> next() {
            if (modCount != expected) {
                throw new ConcurrentModificationException();
            }
            if (next >= size) {
                throw new NoSuchElementException();
            }
            last = next++;
            return new Field(names[last], values[last]);
        }

        @Override
        public void remove() {
            if (last < 0) {
                throw new IllegalStateException();
            }
            if (modCount != expected) {
                throw new ConcurrentModificationException();
            }
            removeAt(last);
            next = last;
            last = -1;
            expected = modCount;
        }
    }

    /** One field; {@code setValue} writes through to the map, as a {@code HashMap} entry does. */
    private final class Field extends AbstractMap.SimpleEntry<String, JsonNode> {
        Field(String name, JsonNode value) {
            super(name, value);
        }

        @Override
        public JsonNode setValue(JsonNode value) {
            JsonNode old = super.setValue(value);
            int i = find(getKey());
            if (i >= 0) {
                values[i] = value;
            }
            return old;
        }
    }
}

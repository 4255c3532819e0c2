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
 * caller. Insertion-ordered like the {@code LinkedHashMap} Jackson uses, but held in parallel arrays (names, values,
 * name hashes) with an open-addressing index of positions once an object has more than {@value #LINEAR} fields,
 * instead of one entry object per field: building the read's tree put every field through {@code HashMap.putVal}
 * and a new {@code LinkedHashMap.Entry}, about a third of the build. A full {@link Map}: the caller may change the
 * node as any other (put, remove, iterate and remove), and equals/hashCode are {@link AbstractMap}'s, so it equals a
 * {@code LinkedHashMap} of the same fields. Not thread-safe, as Jackson's nodes are not.
 */
final class ItemFields extends AbstractMap<String, JsonNode> {
    /** Up to this many fields a lookup scans the hashes; beyond, the index is kept. */
    static final int LINEAR = 8;

    private String[] names;
    private JsonNode[] values;
    private int[] hashes;
    private int size;
    /** Slot → position + 1 (0: empty); null while the object has at most {@link #LINEAR} fields. */
    private int[] index;
    private int modCount;

    ItemFields(int capacity) {
        int n = Math.max(2, capacity);
        names = new String[n];
        values = new JsonNode[n];
        hashes = new int[n];
        if (n > LINEAR) {
            index = new int[tableSize(n)];
        }
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

    private int find(Object key) {
        int h = hash(key);
        if (index == null) {
            for (int i = 0; i < size; i++) {
                if (hashes[i] == h && Objects.equals(names[i], key)) {
                    return i;
                }
            }
            return -1;
        }
        int mask = index.length - 1;
        for (int s = spread(h) & mask; ; s = (s + 1) & mask) {
            int p = index[s];
            if (p == 0) {
                return -1;
            }
            if (hashes[p - 1] == h && Objects.equals(names[p - 1], key)) {
                return p - 1;
            }
        }
    }

    private void indexPosition(int position) {
        int mask = index.length - 1;
        int s = spread(hashes[position]) & mask;
        while (index[s] != 0) {
            s = (s + 1) & mask;
        }
        index[s] = position + 1;
    }

    private void reindex() {
        if (size <= LINEAR && names.length <= LINEAR) {
            index = null;
            return;
        }
        index = new int[tableSize(Math.max(size, names.length))];
        for (int i = 0; i < size; i++) {
            indexPosition(i);
        }
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
        if (size == names.length) {
            int n = names.length * 2;
            names = java.util.Arrays.copyOf(names, n);
            values = java.util.Arrays.copyOf(values, n);
            hashes = java.util.Arrays.copyOf(hashes, n);
            names[size] = key; // placed first, so that the new index holds it too
            hashes[size] = hash(key);
            values[size] = value;
            size++;
            modCount++;
            reindex();
            return null;
        }
        names[size] = key;
        hashes[size] = hash(key);
        values[size] = value;
        if (index != null) {
            indexPosition(size);
        }
        size++;
        modCount++;
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
        System.arraycopy(hashes, i + 1, hashes, i, tail);
        size--;
        names[size] = null;
        values[size] = null;
        modCount++;
        if (index != null) {
            reindex(); // positions after i moved down
        }
    }

    @Override
    public void clear() {
        java.util.Arrays.fill(names, 0, size, null);
        java.util.Arrays.fill(values, 0, size, null);
        size = 0;
        modCount++;
        if (index != null) {
            java.util.Arrays.fill(index, 0);
        }
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

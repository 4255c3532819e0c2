package io.tetradb.core.store;

import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.WriteSet;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The index entries one write set removes and adds, handed to it in key order. RocksDB's memtable (a skip list)
 * starts each insert from where the previous one ended, so keys that arrive sorted are inserted with a few
 * comparisons near that spot instead of a descent from the top through cold memory: for a 100-item batch with 19
 * entries per item, sorting halves the CPU time of the write (measured: 28 → 15 µs per item). The keys are kept in
 * plain arrays (index-cost: no list copy before the sort). Session 23 (index-write): a new version's
 * {@link IndexEntryKeys} is kept whole until the write set is built (no growing array of its keys), and the keys
 * are handed over in the sort's order from one per-thread array (no sorted copy).
 */
final class IndexWrites {
    private static final byte[] EMPTY = new byte[0];

    private final KeyArray deletes = new KeyArray();
    private final KeyArray puts = new KeyArray();
    /** index-write: the entry lists of versions with nothing to diff against, and how many keys they hold. */
    private IndexEntryKeys[] added = NO_LISTS;
    private int lists;
    private int addedKeys;
    private static final IndexEntryKeys[] NO_LISTS = new IndexEntryKeys[0];
    /** One thread's array of the keys to sort (emptied after each use). */
    private static final ThreadLocal<byte[][][]> FLAT = ThreadLocal.withInitial(() -> new byte[1][][]);

    /**
     * What turns one item's stored entries {@code was} into {@code is}: the entries only one side has. A new item
     * (nothing stored) needs no comparison; a value repeated in an array repeats its entry, a harmless re-put.
     */
    void diff(List<ByteBuffer> was, List<ByteBuffer> is) {
        if (was.isEmpty()) {
            if (is instanceof IndexEntryKeys keys) {
                add(keys);
            } else {
                puts.addAll(is);
            }
            return;
        }
        if (is.isEmpty()) { // a delete (the TTL purge's every item): no sets, no hashing of long keys
            deletes.addAll(was); // a repeated entry is deleted twice, harmlessly
            return;
        }
        Set<ByteBuffer> wasSet = new HashSet<>(was);
        Set<ByteBuffer> isSet = new HashSet<>(is);
        for (ByteBuffer entry : wasSet) {
            if (!isSet.contains(entry)) {
                deletes.add(entry.array());
            }
        }
        for (ByteBuffer entry : isSet) {
            if (!wasSet.contains(entry)) {
                puts.add(entry.array());
            }
        }
    }

    private void add(IndexEntryKeys keys) {
        if (keys.isEmpty()) {
            return;
        }
        if (lists == added.length) {
            added = Arrays.copyOf(added, Math.max(16, 2 * lists));
        }
        added[lists++] = keys;
        addedKeys += keys.size();
    }

    /** Adds the deletes, then the puts, each in ascending key order (no key is both: they are a diff). */
    void addTo(WriteSet ws) {
        int n = puts.n + addedKeys;
        if (deletes.n == 0 && n == 0) {
            return; // pw-lean: nothing to sort (a container without indexing)
        }
        ws.room(deletes.n + n); // graph-load6: a bulk transaction's index keys are most of its write set
        if (deletes.n > 0) {
            int[] order = IndexKeyOrder.order(deletes.keys, deletes.n); // write-cost: grouped by path, then sorted
            for (int i = 0; i < deletes.n; i++) {
                ws.delete(Space.INDEX, deletes.keys[order[i]]);
            }
        }
        if (n == 0) {
            return;
        }
        byte[][][] holder = FLAT.get();
        byte[][] keys = holder[0];
        if (keys == null || keys.length < n) {
            keys = new byte[Math.max(n, keys == null ? 0 : 2 * keys.length)][];
            if (n <= 1 << 16) { // a bulk chunk's larger arrays are not kept
                holder[0] = keys;
            }
        }
        try {
            System.arraycopy(puts.keys, 0, keys, 0, puts.n);
            int at = puts.n;
            for (int i = 0; i < lists; i++) {
                added[i].copyTo(keys, at);
                at += added[i].size();
            }
            int[] order = IndexKeyOrder.order(keys, n);
            for (int i = 0; i < n; i++) {
                ws.put(Space.INDEX, keys[order[i]], EMPTY);
            }
        } finally {
            Arrays.fill(keys, 0, n, null); // the keys are the write set's now, not this thread's
        }
    }

    /** A growing array of keys. */
    private static final class KeyArray {
        private static final byte[][] NONE = new byte[0][];
        /** pw-lean: none until the first key (a container without indexing has none on any write). */
        byte[][] keys = NONE;
        int n;

        void add(byte[] key) {
            if (n == keys.length) {
                keys = Arrays.copyOf(keys, Math.max(32, 2 * n));
            }
            keys[n++] = key;
        }

        void addAll(List<ByteBuffer> entries) {
            int size = entries.size();
            if (n + size > keys.length) {
                keys = Arrays.copyOf(keys, Math.max(2 * keys.length, n + size));
            }
            for (int i = 0; i < size; i++) {
                keys[n++] = entries.get(i).array();
            }
        }
    }
}

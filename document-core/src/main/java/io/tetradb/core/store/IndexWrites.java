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
 * plain arrays (index-cost: no list copy before the sort).
 */
final class IndexWrites {
    private static final byte[] EMPTY = new byte[0];

    private final KeyArray deletes = new KeyArray();
    private final KeyArray puts = new KeyArray();

    /**
     * What turns one item's stored entries {@code was} into {@code is}: the entries only one side has. A new item
     * (nothing stored) needs no comparison; a value repeated in an array repeats its entry, a harmless re-put.
     */
    void diff(List<ByteBuffer> was, List<ByteBuffer> is) {
        if (was.isEmpty()) {
            puts.addAll(is);
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

    /** Adds the deletes, then the puts, each in ascending key order (no key is both: they are a diff). */
    void addTo(WriteSet ws) {
        if (deletes.n == 0 && puts.n == 0) {
            return; // pw-lean: nothing to sort (a container without indexing)
        }
        ws.room(deletes.n + puts.n); // graph-load6: a bulk transaction's index keys are most of its write set
        for (byte[] key : IndexKeyOrder.sorted(deletes.keys, deletes.n)) { // write-cost: grouped by path, then sorted
            ws.delete(Space.INDEX, key);
        }
        for (byte[] key : IndexKeyOrder.sorted(puts.keys, puts.n)) {
            ws.put(Space.INDEX, key, EMPTY);
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

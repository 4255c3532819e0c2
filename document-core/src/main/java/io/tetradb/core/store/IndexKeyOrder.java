package io.tetradb.core.store;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Index entry keys in ascending unsigned byte order (the order RocksDB's memtable inserts cheaply, see
 * {@link IndexWrites}), sorted cheaper than one sort of the whole list: keys are first grouped by their 8-byte head
 * {@code collId · pathId} (one counting pass, the groups kept in the order the items gave them), then each group is
 * sorted from byte 8 on. Within a path the items of a batch often come in order already (ascending ids, equal or
 * rising values), which the stable merge sort finds as runs in linear time; a sort of the whole list sees a batch's
 * keys interleaved path by path and finds no runs. The order is exactly {@link Arrays#compareUnsigned}'s: two keys
 * with different heads compare as their heads do.
 */
final class IndexKeyOrder {
    /** Below this, one plain sort costs less than grouping. */
    private static final int GROUPED_FROM = 64;
    private static final int HEAD = 8;
    private static final Comparator<byte[]> AFTER_HEAD =
            (a, b) -> Arrays.compareUnsigned(a, HEAD, a.length, b, HEAD, b.length);

    private IndexKeyOrder() {
    }

    /** {@code keys} in ascending unsigned order, as a new array. */
    static byte[][] sorted(List<byte[]> keys) {
        int n = keys.size();
        byte[][] in = keys.toArray(new byte[0][]);
        if (n < GROUPED_FROM) {
            Arrays.sort(in, Arrays::compareUnsigned);
            return in;
        }
        // distinct heads in an open-addressing table; group[i] is key i's slot
        int capacity = Integer.highestOneBit(Math.max(16, n) * 2);
        long[] heads = new long[capacity];
        int[] counts = new int[capacity]; // 0: free slot
        int[] slotOf = new int[n];
        int distinct = 0;
        for (int i = 0; i < n; i++) {
            byte[] k = in[i];
            if (k.length < HEAD) { // not an entry key: the plain sort
                Arrays.sort(in, Arrays::compareUnsigned);
                return in;
            }
            long h = head(k);
            int s = (int) mix(h) & (capacity - 1);
            while (counts[s] != 0 && heads[s] != h) {
                s = (s + 1) & (capacity - 1);
            }
            if (counts[s] == 0) {
                heads[s] = h;
                distinct++;
            }
            counts[s]++;
            slotOf[i] = s;
        }
        // the groups' order: their heads ascending (unsigned), then each group's start
        int[] order = new int[distinct];
        int d = 0;
        for (int s = 0; s < capacity; s++) {
            if (counts[s] != 0) {
                order[d++] = s;
            }
        }
        Integer[] boxed = new Integer[distinct];
        for (int i = 0; i < distinct; i++) {
            boxed[i] = order[i];
        }
        Arrays.sort(boxed, (x, y) -> Long.compareUnsigned(heads[x], heads[y]));
        int[] start = new int[capacity];
        int at = 0;
        for (Integer s : boxed) {
            start[s] = at;
            at += counts[s];
        }
        byte[][] out = new byte[n][];
        int[] next = start.clone();
        for (int i = 0; i < n; i++) {
            out[next[slotOf[i]]++] = in[i];
        }
        for (Integer s : boxed) {
            if (counts[s] > 1) {
                Arrays.sort(out, start[s], start[s] + counts[s], AFTER_HEAD);
            }
        }
        return out;
    }

    private static long head(byte[] k) {
        long h = 0;
        for (int i = 0; i < HEAD; i++) {
            h = (h << 8) | (k[i] & 0xFF);
        }
        return h;
    }

    private static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        return h ^ (h >>> 33);
    }
}

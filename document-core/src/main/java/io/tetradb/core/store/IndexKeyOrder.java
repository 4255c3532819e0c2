package io.tetradb.core.store;

import io.tetradb.core.storage.KeyWords;

import java.util.Arrays;
import java.util.List;

/**
 * Index entry keys in ascending unsigned byte order (the order RocksDB's memtable inserts cheaply, see
 * {@link IndexWrites}), sorted cheaper than one sort of the whole list: keys are first grouped by their 8-byte head
 * {@code collId · pathId} (one counting pass, the groups kept in the order the items gave them), then each group is
 * sorted from byte 8 on. Within a path the items of a batch often come in order already (ascending ids, equal or
 * rising values), which the merge sort finds as runs in linear time; a sort of the whole list sees a batch's keys
 * interleaved path by path and finds no runs. The order is exactly {@link Arrays#compareUnsigned}'s.
 *
 * <p>Issue 17, index-cost: the sort moves positions, not keys, and compares the next 8 bytes of each key as one
 * unsigned number read once per key (zero-padded, so a shorter key never sorts after a longer one it is a prefix of);
 * only keys equal in their first 16 bytes compare their arrays. No boxing, no comparator objects, no {@code TimSort}
 * instances (JIT-recompiled per key array type: graph-load's finding); the scratch arrays are kept per thread.
 */
final class IndexKeyOrder {
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);
    /** Runs shorter than this are sorted by insertion. */
    private static final int INSERTION = 12;

    private IndexKeyOrder() {
    }

    /** {@code keys} in ascending unsigned order, as a new array. */
    static byte[][] sorted(List<byte[]> keys) {
        return sorted(keys.toArray(new byte[0][]), keys.size());
    }

    /** {@code keys[0, n)} in ascending unsigned order, as a new array ({@code keys} itself is not changed). */
    static byte[][] sorted(byte[][] keys, int n) {
        byte[][] out = new byte[n][];
        int[] order = order(keys, n);
        for (int i = 0; i < n; i++) {
            out[i] = keys[order[i]];
        }
        return out;
    }

    /**
     * The positions {@code 0..n-1} of {@code keys[0, n)} in their keys' ascending unsigned order ({@code keys} is not
     * changed). Session 23 (index-write): the thread's scratch array, valid until the thread's next sort, so a caller
     * that takes the keys in this order at once (IndexWrites) copies no array of them.
     */
    static int[] order(byte[][] keys, int n) {
        Scratch s = n <= Scratch.KEPT ? SCRATCH.get().ensure(n) : new Scratch().ensure(n);
        if (n <= 1) {
            if (n == 1) {
                s.order[0] = 0;
            }
            return s.order;
        }
        try {
            order(keys, n, s);
            return s.order;
        } finally {
            s.clearTable();
        }
    }

    private static void order(byte[][] keys, int n, Scratch s) {
        int[] order = s.order;
        int[] tmp = s.tmp;
        long[] tails = s.tails;
        // distinct heads in an open-addressing table
        int capacity = s.table(n);
        long[] heads = s.heads;
        int[] counts = s.counts; // 0: free slot
        int[] slotOf = s.slotOf;
        int distinct = 0;
        for (int i = 0; i < n; i++) {
            byte[] k = keys[i];
            long h = KeyWords.padded(k, 0);
            tails[i] = KeyWords.padded(k, 8);
            int slot = (int) mix(h) & (capacity - 1);
            while (counts[slot] != 0 && heads[slot] != h) {
                slot = (slot + 1) & (capacity - 1);
            }
            if (counts[slot] == 0) {
                heads[slot] = h;
                s.slots[distinct++] = slot;
                s.distinct = distinct;
            }
            counts[slot]++;
            slotOf[i] = slot;
        }
        // the groups in ascending head order, each group's keys in the items' order
        int[] slots = s.slots;
        sortPositions(slots, tmp, 0, distinct, heads, null);
        int[] start = s.start;
        int at = 0;
        for (int g = 0; g < distinct; g++) {
            start[slots[g]] = at;
            at += counts[slots[g]];
        }
        for (int i = 0; i < n; i++) {
            order[start[slotOf[i]]++] = i;
        }
        int from = 0;
        for (int g = 0; g < distinct; g++) {
            int to = from + counts[slots[g]];
            if (to - from > 1) {
                sortPositions(order, tmp, from, to, tails, keys);
            }
            from = to;
        }
        s.distinct = distinct;
    }

    /**
     * Positions {@code a[from, to)} ordered by {@code words[position]} (unsigned), ties by the rest of
     * {@code keys[position]} when {@code keys} is given (for heads it is not: distinct heads never tie); stable.
     * Graph-load5 (issue 18): bottom-up — insertion-sorted blocks, then merge passes — so heads and tails share one
     * small loop that C2 compiles once, where the two recursive sorts before were each inlined into themselves and
     * into {@code sorted} (≈ 4 s of a fresh JVM's C2 time in the first loads). A merge of two blocks already in
     * order is skipped, so runs the items gave stay linear.
     */
    private static void sortPositions(int[] a, int[] tmp, int from, int to, long[] words, byte[][] keys) {
        for (int lo = from; lo < to; lo += INSERTION) {
            int hi = Math.min(lo + INSERTION, to);
            for (int i = lo + 1; i < hi; i++) {
                int x = a[i];
                int j = i - 1;
                while (j >= lo && compare(a[j], x, words, keys) > 0) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = x;
            }
        }
        for (int width = INSERTION; width < to - from; width *= 2) {
            for (int lo = from; lo + width < to; lo += 2 * width) {
                int mid = lo + width;
                if (compare(a[mid - 1], a[mid], words, keys) > 0) {
                    merge(a, tmp, lo, mid, Math.min(lo + 2 * width, to), words, keys);
                }
            }
        }
    }

    /** Merges the ordered {@code a[lo, mid)} and {@code a[mid, hi)}; the left one first on ties. */
    private static void merge(int[] a, int[] tmp, int lo, int mid, int hi, long[] words, byte[][] keys) {
        System.arraycopy(a, lo, tmp, lo, mid - lo);
        int i = lo;
        int j = mid;
        int o = lo;
        while (i < mid && j < hi) {
            a[o++] = compare(tmp[i], a[j], words, keys) <= 0 ? tmp[i++] : a[j++];
        }
        while (i < mid) {
            a[o++] = tmp[i++];
        }
    }

    /** Two positions by their words; on a tie (keys of one zero-padded head), by the rest of their keys. */
    private static int compare(int x, int y, long[] words, byte[][] keys) {
        int c = Long.compareUnsigned(words[x], words[y]);
        return c != 0 || keys == null ? c : compareRest(keys[x], keys[y]);
    }

    /** Two keys equal in their first 16 (zero-padded) bytes. */
    private static int compareRest(byte[] a, byte[] b) {
        // both at least 16 bytes long: their first 16 are equal; otherwise a padded byte may hide a length
        return a.length >= 16 && b.length >= 16
                ? Arrays.compareUnsigned(a, 16, a.length, b, 16, b.length)
                : Arrays.compareUnsigned(a, b);
    }

    private static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        return h ^ (h >>> 33);
    }

    /** One thread's arrays, kept between sorts up to {@link #KEPT} keys. */
    private static final class Scratch {
        static final int KEPT = 1 << 16;
        int[] order = new int[0];
        int[] tmp = new int[0];
        long[] tails = new long[0];
        int[] slotOf = new int[0];
        int[] slots = new int[0];
        long[] heads = new long[0];
        int[] counts = new int[0];
        int[] start = new int[0];
        /** Slots of {@link #counts} in use: {@code slots[0, distinct)}. */
        int distinct;

        Scratch ensure(int n) {
            if (order.length < n) {
                int size = Math.max(n, 2 * order.length);
                order = new int[size];
                tmp = new int[size];
                tails = new long[size];
                slotOf = new int[size];
                slots = new int[size];
            }
            return this;
        }

        /** The table's capacity for {@code n} keys (a power of two, at least twice n); its counts are all 0. */
        int table(int n) {
            int capacity = Integer.highestOneBit(Math.max(16, n) * 2);
            if (counts.length < capacity) {
                heads = new long[capacity];
                counts = new int[capacity];
                start = new int[capacity];
            }
            return capacity;
        }

        /** Frees the slots the last sort used, so the next finds the table empty. */
        void clearTable() {
            for (int g = 0; g < distinct; g++) {
                counts[slots[g]] = 0;
            }
            distinct = 0;
        }
    }
}

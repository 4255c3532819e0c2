package io.tetradb.core.bulk;

import java.util.Arrays;

/**
 * The put order of one space's keys in a bulk transaction, sorted (graph-load, issue 18, session 13): a stable merge
 * sort of positions by the keys' unsigned byte order, so that of equal keys the later put stays later. Its own code,
 * not {@code List.sort} over the write set's records: that ran {@code java.util.TimSort} on arrays of records while
 * the core's index path runs it on {@code byte[][]}, and C2's code for TimSort was thrown away and compiled again each
 * time the array type changed ({@code array_check} deoptimisations: 45–48 in a JVM's first five air-routes loads,
 * 29–35 with this and {@code IndexKeyOrder}'s primitive head sort). Keys already in
 * order (a transaction's index entries, sorted by {@code IndexKeyOrder}) cost one comparison per key.
 */
final class KeyOrder {
    /** Below this, insertion sort. */
    private static final int SMALL = 12;

    private KeyOrder() {
    }

    /** The positions of {@code keys} in ascending key order; equal keys in their given order. */
    static int[] of(byte[][] keys) {
        int n = keys.length;
        int[] order = new int[n];
        boolean ascending = true;
        for (int i = 0; i < n; i++) {
            order[i] = i;
            if (i > 0 && ascending && compare(keys[i - 1], keys[i]) > 0) {
                ascending = false;
            }
        }
        if (!ascending) {
            sort(order, new int[n], 0, n, keys);
        }
        return order;
    }

    private static void sort(int[] a, int[] tmp, int lo, int hi, byte[][] keys) {
        if (hi - lo <= SMALL) {
            for (int i = lo + 1; i < hi; i++) {
                int x = a[i];
                int j = i - 1;
                while (j >= lo && compare(keys[a[j]], keys[x]) > 0) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = x;
            }
            return;
        }
        int mid = (lo + hi) >>> 1;
        sort(a, tmp, lo, mid, keys);
        sort(a, tmp, mid, hi, keys);
        if (compare(keys[a[mid - 1]], keys[a[mid]]) <= 0) {
            return; // the halves are in order already
        }
        System.arraycopy(a, lo, tmp, lo, hi - lo);
        int i = lo, j = mid, o = lo;
        while (i < mid && j < hi) {
            a[o++] = compare(keys[tmp[j]], keys[tmp[i]]) < 0 ? tmp[j++] : tmp[i++]; // ties: the left (earlier) first
        }
        while (i < mid) {
            a[o++] = tmp[i++];
        }
        while (j < hi) {
            a[o++] = tmp[j++];
        }
    }

    private static int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }
}

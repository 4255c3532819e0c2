package io.tetradb.core.bulk;

import io.tetradb.core.storage.KeyWords;
import io.tetradb.core.storage.WriteSet;

import java.util.Arrays;

/**
 * One transaction's writes of one space put in ascending unsigned key order ({@link Arrays#compareUnsigned}), stable
 * (of equal keys the later put stays later), for {@link BulkChunk#add}. Graph-load4 (issue 18): this replaced
 * {@code Arrays.sort} with a comparator, whose {@code TimSort} was ≈ 6 % of a bulk load's samples and one of C2's
 * largest jobs in a fresh JVM (compiled up to nine times per JVM as its type profile changed). Index writes arrive
 * sorted already ({@code IndexWrites}): one linear check finds that. Otherwise every key of one transaction shares
 * the partition's long prefix ({@code collId · EPK · pk}), so keys are compared by the 8 bytes after the prefix they
 * all share, read once per key as one unsigned number; only keys equal there compare their arrays. Positions move,
 * not records; the merge sort finds runs already in order in linear time.
 */
final class RunOrder {
    /** Runs shorter than this are sorted by insertion. */
    private static final int INSERTION = 12;

    private RunOrder() {
    }

    /** {@code writes} in ascending key order: the array itself when it was in order, else a new one. */
    static WriteSet.Write[] sorted(WriteSet.Write[] writes) {
        int n = writes.length;
        if (inOrder(writes)) {
            return writes;
        }
        int shared = sharedPrefix(writes);
        long[] words = new long[n];
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            words[i] = KeyWords.padded(writes[i].key(), shared);
            order[i] = i;
        }
        mergeSort(order, new int[n], 0, n, words, writes, shared + 8);
        WriteSet.Write[] out = new WriteSet.Write[n];
        for (int i = 0; i < n; i++) {
            out[i] = writes[order[i]];
        }
        return out;
    }

    private static boolean inOrder(WriteSet.Write[] writes) {
        for (int i = 1; i < writes.length; i++) {
            if (Arrays.compareUnsigned(writes[i - 1].key(), writes[i].key()) > 0) {
                return false;
            }
        }
        return true;
    }

    /** How many leading bytes every key shares with the first (at most the shortest key's length). */
    private static int sharedPrefix(WriteSet.Write[] writes) {
        byte[] first = writes[0].key();
        int shared = first.length;
        for (int i = 1; i < writes.length && shared > 0; i++) {
            byte[] k = writes[i].key();
            int m = Arrays.mismatch(first, 0, shared, k, 0, Math.min(shared, k.length));
            if (m >= 0) {
                shared = m;
            } else {
                shared = Math.min(shared, k.length);
            }
        }
        return shared;
    }

    /** Positions {@code a[from, to)} ordered by their keys; stable. */
    private static void mergeSort(int[] a, int[] tmp, int from, int to, long[] words, WriteSet.Write[] writes,
                                  int past) {
        if (to - from < INSERTION) {
            for (int i = from + 1; i < to; i++) {
                int x = a[i];
                int j = i - 1;
                while (j >= from && compare(a[j], x, words, writes, past) > 0) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = x;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        mergeSort(a, tmp, from, mid, words, writes, past);
        mergeSort(a, tmp, mid, to, words, writes, past);
        if (compare(a[mid - 1], a[mid], words, writes, past) <= 0) {
            return; // already in order: a run
        }
        System.arraycopy(a, from, tmp, from, mid - from);
        int i = from;
        int j = mid;
        int o = from;
        while (i < mid && j < to) {
            a[o++] = compare(tmp[i], a[j], words, writes, past) <= 0 ? tmp[i++] : a[j++];
        }
        while (i < mid) {
            a[o++] = tmp[i++];
        }
    }

    /**
     * Two keys that share their first {@code past - 8} bytes: the next 8 (zero-padded), then, on a tie, the rest, or
     * the whole arrays when one is shorter than {@code past} (a padded byte may hide a length).
     */
    private static int compare(int x, int y, long[] words, WriteSet.Write[] writes, int past) {
        int c = Long.compareUnsigned(words[x], words[y]);
        if (c != 0) {
            return c;
        }
        byte[] a = writes[x].key();
        byte[] b = writes[y].key();
        return a.length >= past && b.length >= past
                ? Arrays.compareUnsigned(a, past, a.length, b, past, b.length)
                : Arrays.compareUnsigned(a, b);
    }
}

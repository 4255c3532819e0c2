package io.tetradb.core.store;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The grouped sort of index keys gives exactly the unsigned byte order of one plain sort. */
class IndexKeyOrderTest {
    @Test
    void groupedOrderIsTheUnsignedByteOrder() {
        SplittableRandom r = new SplittableRandom(17);
        for (int round = 0; round < 2_000; round++) {
            int n = r.nextInt(300);
            int heads = 1 + r.nextInt(40);
            List<byte[]> keys = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                keys.add(key(r, heads));
            }
            if (r.nextInt(20) == 0 && n > 0) {
                keys.set(r.nextInt(n), new byte[r.nextInt(8)]); // a key shorter than the head: the plain sort
            }
            byte[][] expected = keys.toArray(new byte[0][]);
            Arrays.sort(expected, Arrays::compareUnsigned);
            byte[][] actual = IndexKeyOrder.sorted(keys);
            assertEquals(expected.length, actual.length);
            for (int i = 0; i < expected.length; i++) {
                assertArrayEquals(expected[i], actual[i], "round " + round + ", key " + i);
            }
        }
    }

    /**
     * index-cost: keys as long as entry keys whose first 16 bytes often tie (the sort compares bytes 8–15 as one
     * number, then the arrays), of every length around 8 and 16 (zero padding must not reorder a prefix), in one
     * thread's calls of very different sizes one after the other (the per-thread table must start empty each time).
     */
    @Test
    void longKeysWithTiedPrefixesAndReusedScratchSortAsTheUnsignedByteOrder() {
        SplittableRandom r = new SplittableRandom(23);
        for (int round = 0; round < 600; round++) {
            int n = round % 7 == 0 ? 2_000 + r.nextInt(3_000) : r.nextInt(150);
            int heads = 1 + r.nextInt(r.nextBoolean() ? 3 : 60);
            byte[][] keys = new byte[n][];
            for (int i = 0; i < n; i++) {
                byte[] k = new byte[r.nextInt(10) == 0 ? r.nextInt(20) : 16 + r.nextInt(40)];
                int h = r.nextInt(heads);
                for (int j = 0; j < k.length; j++) {
                    k[j] = j < 8 ? (byte) (j == 3 ? 0x80 | h : h * 7)
                            : j < 16 ? (byte) (r.nextInt(8) == 0 ? 0x00 : r.nextInt(8) == 0 ? 0xFF : 0x41)
                            : (byte) (r.nextInt(3) == 0 ? 0x90 + r.nextInt(3) : r.nextInt(3));
                }
                keys[i] = k;
            }
            if (n > 10 && r.nextBoolean()) { // runs already in order, as a batch's ascending ids give them
                Arrays.sort(keys, 0, n / 2, Arrays::compareUnsigned);
            }
            byte[][] before = keys.clone();
            byte[][] expected = keys.clone();
            Arrays.sort(expected, Arrays::compareUnsigned);
            byte[][] actual = IndexKeyOrder.sorted(keys, n);
            assertEquals(n, actual.length);
            for (int i = 0; i < n; i++) {
                assertArrayEquals(expected[i], actual[i], "round " + round + ", key " + i);
                assertSame(before[i], keys[i], "the input array is left as it was");
            }
        }
    }

    /** A head among {@code heads} (bytes above 0x7F included, so a signed comparison would be wrong), then a tail. */
    private static byte[] key(SplittableRandom r, int heads) {
        byte[] k = new byte[8 + r.nextInt(12)];
        int h = r.nextInt(heads);
        k[0] = (byte) (h * 37);
        k[3] = (byte) (h % 3 == 0 ? 0x80 : 1);
        k[7] = (byte) (h * 11);
        for (int i = 8; i < k.length; i++) {
            k[i] = (byte) (r.nextInt(4) == 0 ? 0xF0 + r.nextInt(16) : r.nextInt(4)); // many equal prefixes
        }
        return k;
    }
}

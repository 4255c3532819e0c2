package io.tetradb.core.store;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

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

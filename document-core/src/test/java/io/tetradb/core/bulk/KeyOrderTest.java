package io.tetradb.core.bulk;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * A bulk transaction's put order by key ({@link KeyOrder}) is exactly a stable sort by unsigned bytes: of equal keys
 * the earlier put comes first (the merge keeps the last one), for random keys with many shared prefixes and repeats,
 * bytes above 0x7f, keys that are prefixes of others, lists already in order, reversed, and of every small length.
 */
class KeyOrderTest {
    @Test
    void ordersAsAStableUnsignedSortDoes() {
        Random random = new Random(13);
        for (int round = 0; round < 400; round++) {
            int n = round < 40 ? round : random.nextInt(round % 3 == 0 ? 3_000 : 200);
            byte[][] keys = new byte[n][];
            for (int i = 0; i < n; i++) {
                keys[i] = new byte[random.nextInt(5)];
                for (int b = 0; b < keys[i].length; b++) {
                    keys[i][b] = (byte) (random.nextBoolean() ? random.nextInt(3) : 0x7e + random.nextInt(4));
                }
            }
            if (round % 5 == 1) {
                Arrays.sort(keys, Arrays::compareUnsigned); // already in order: the index entries' case
            } else if (round % 5 == 2) {
                Arrays.sort(keys, ((Comparator<byte[]>) Arrays::compareUnsigned).reversed());
            }
            Integer[] expected = new Integer[n];
            for (int i = 0; i < n; i++) {
                expected[i] = i;
            }
            Arrays.sort(expected, (a, b) -> Arrays.compareUnsigned(keys[a], keys[b])); // a stable sort
            assertArrayEquals(Arrays.stream(expected).mapToInt(Integer::intValue).toArray(), KeyOrder.of(keys),
                    "round " + round + ", " + n + " keys");
        }
    }
}

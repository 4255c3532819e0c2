package io.tetradb.core.bulk;

import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.WriteSet;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * A transaction's writes of one space, ordered for the chunk (graph-load4), come out exactly as a stable sort by
 * {@link Arrays#compareUnsigned} puts them: keys sharing prefixes of 0–40 bytes (the partition's), shorter than the
 * prefix plus the 8 compared bytes, prefixes of each other, zero bytes where the padding is, bytes above 0x7f,
 * repeated keys in their put order; and writes already in order come back as the same array.
 */
class RunOrderTest {
    @Test
    void writesComeOutAsAStableUnsignedSortPutsThem() {
        Random random = new Random(184);
        for (int round = 0; round < 3_000; round++) {
            byte[] shared = new byte[random.nextInt(5) == 0 ? 0 : random.nextInt(41)];
            random.nextBytes(shared);
            int n = random.nextInt(round % 50 == 0 ? 3_000 : 60);
            WriteSet.Write[] writes = new WriteSet.Write[n];
            for (int i = 0; i < n; i++) {
                byte[] key;
                if (i > 0 && random.nextInt(6) == 0) { // a repeated key, or a prefix of an earlier one
                    byte[] earlier = writes[random.nextInt(i)].key();
                    key = Arrays.copyOf(earlier, random.nextBoolean() ? earlier.length : random.nextInt(earlier.length + 1));
                } else {
                    key = new byte[random.nextInt(shared.length + 1) + random.nextInt(random.nextInt(4) == 0 ? 30 : 10)];
                    System.arraycopy(shared, 0, key, 0, Math.min(shared.length, key.length));
                    for (int b = shared.length; b < key.length; b++) {
                        key[b] = (byte) random.nextInt(3 + 253 * (b % 2)); // zeros, small bytes, bytes above 0x7f
                    }
                }
                writes[i] = new WriteSet.Write(Space.DOCS, key, new byte[] {(byte) (i >> 8), (byte) i}, null);
            }
            WriteSet.Write[] expected = writes.clone();
            Arrays.sort(expected, (a, b) -> Arrays.compareUnsigned(a.key(), b.key())); // stable
            WriteSet.Write[] got = RunOrder.sorted(writes.clone());
            assertArrayEquals(expected, got, "round " + round + ", " + n + " writes, shared prefix " + shared.length);
            assertSame(expected, RunOrder.sorted(expected), "writes in order are not copied");
        }
    }
}

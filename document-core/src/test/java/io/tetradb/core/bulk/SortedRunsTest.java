package io.tetradb.core.bulk;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A chunk's sorted runs, merged, give every key once in ascending unsigned order with the value of its last put
 * (runs added later are later puts, and inside a run a later record), across slab boundaries and for records larger
 * than a slab; and the slabs are reused after a reset. Session 15: the merge compares cached 16-byte key heads
 * first, so keys also share prefixes of 14 and 20 bytes (heads equal or differing only in their last bytes, keys
 * shorter and longer than the heads, zero bytes where the padding is).
 */
class SortedRunsTest {
    private static final java.util.Comparator<byte[]> UNSIGNED = Arrays::compareUnsigned;

    @Test
    void mergedRunsEqualOneSortWithTheLastPutWinning() throws Exception {
        Random random = new Random(18);
        ChunkSlabs slabs = new ChunkSlabs();
        for (int round = 0; round < 9; round++) { // the slabs of one round are reused by the next
            byte[] shared = new byte[new int[] {0, 14, 20}[round % 3]];
            random.nextBytes(shared);
            SortedRuns runs = new SortedRuns(slabs);
            TreeMap<byte[], byte[]> expected = new TreeMap<>(UNSIGNED);
            int runCount = 2 + random.nextInt(300);
            for (int r = 0; r < runCount; r++) {
                List<byte[][]> puts = new ArrayList<>();
                int n = random.nextInt(400);
                for (int i = 0; i < n; i++) {
                    byte[] key = new byte[1 + random.nextInt(random.nextInt(10) == 0 ? 300 : 6)
                            + (random.nextInt(8) == 0 ? 0 : shared.length)];
                    int prefix = Math.min(key.length - 1, shared.length);
                    System.arraycopy(shared, 0, key, 0, prefix);
                    for (int b = prefix; b < key.length; b++) {
                        key[b] = (byte) random.nextInt(4 + 250 * (b % 2)); // many shared prefixes, bytes above 0x7f
                    }
                    byte[] value = new byte[r < 2 && i == 0 ? ChunkSlabs.SLAB_BYTES + 10 : random.nextInt(600)]; // two over a slab
                    random.nextBytes(value);
                    puts.add(new byte[][] {key, value});
                }
                puts.sort((a, b) -> UNSIGNED.compare(a[0], b[0])); // stable: equal keys keep their put order
                long[] run = new long[puts.size()];
                for (int i = 0; i < run.length; i++) {
                    run[i] = slabs.append(puts.get(i)[0], puts.get(i)[1]);
                    expected.put(puts.get(i)[0], puts.get(i)[1]);
                }
                runs.add(run);
            }
            List<byte[][]> got = new ArrayList<>();
            runs.forEach((k, v) -> got.add(new byte[][] {bytes(k), bytes(v)}));
            assertEquals(expected.size(), got.size());
            int i = 0;
            for (var e : expected.entrySet()) {
                assertArrayEquals(e.getKey(), got.get(i)[0], "key " + i);
                assertArrayEquals(e.getValue(), got.get(i)[1], "value of key " + i);
                i++;
            }
            slabs.reset();
        }
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}

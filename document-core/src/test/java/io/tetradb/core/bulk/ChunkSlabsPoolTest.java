package io.tetradb.core.bulk;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * graph-warm (issue 18): the slabs a chunk lets go of serve the next chunk of any bulk load (a new {@link ChunkSlabs},
 * as each load's chunk has), at most 16 of them, never a record's own oversized array; a reused slab's old bytes are
 * never read back.
 */
class ChunkSlabsPoolTest {
    @Test
    void aLaterLoadsChunkWritesIntoTheSlabsAnEarlierOneGaveBack() {
        ChunkSlabs.clearPool();
        ChunkSlabs first = new ChunkSlabs();
        byte[] big = new byte[ChunkSlabs.SLAB_BYTES / 2 + 1];
        Arrays.fill(big, (byte) 0x5a);
        long a = first.append(key(1), big);
        long b = first.append(key(2), big); // does not fit: a second slab
        long huge = first.append(key(3), new byte[ChunkSlabs.SLAB_BYTES + 1]); // its own array, never pooled
        byte[] slabA = first.slab(a), slabB = first.slab(b), slabHuge = first.slab(huge);
        assertTrue(slabA != slabB);
        first.reset();
        assertEquals(2, ChunkSlabs.pooled());

        ChunkSlabs next = new ChunkSlabs(); // the next load's chunk
        long c = next.append(key(9), new byte[] {1, 2, 3});
        byte[] slabC = next.slab(c);
        assertTrue(slabB == slabC, "the slab given back last is taken first");
        assertEquals(1, ChunkSlabs.pooled());
        int o = ChunkSlabs.offset(c);
        assertEquals(key(9).length, ChunkSlabs.keyLength(slabC, o));
        assertEquals(3, ChunkSlabs.valueLength(slabC, o));
        assertArrayEquals(key(9), Arrays.copyOfRange(slabC, o + 8, o + 8 + key(9).length));
        assertArrayEquals(new byte[] {1, 2, 3}, Arrays.copyOfRange(slabC, o + 8 + key(9).length, o + 11 + key(9).length));
        long d = next.append(key(10), big); // no room left in slabB's first half? it fits: same slab
        long e = next.append(key(11), big); // the second half is full: the pool's other slab
        assertTrue(slabB == next.slab(d), "the small record's slab takes the next record too");
        assertTrue(slabA == next.slab(e), "then the pool's other slab");
        assertEquals(0, ChunkSlabs.pooled());
        assertTrue(slabHuge.length > ChunkSlabs.SLAB_BYTES); // its own array, which the pool never took
    }

    @Test
    void thePoolHoldsAtMostSixteenSlabs() {
        ChunkSlabs.clearPool();
        ChunkSlabs chunk = new ChunkSlabs();
        byte[] value = new byte[ChunkSlabs.SLAB_BYTES - 64];
        for (int i = 0; i < 17; i++) {
            chunk.append(key(i), value); // one slab each
        }
        chunk.reset();
        assertEquals(16, ChunkSlabs.pooled());
        ChunkSlabs.clearPool();
    }

    private static byte[] key(int i) {
        return ("key-" + i).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
}

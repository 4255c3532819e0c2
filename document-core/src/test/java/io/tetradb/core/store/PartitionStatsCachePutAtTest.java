package io.tetradb.core.store;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * pw-next: a transaction's write-back goes into the slot its first look-up found the partition's entry in
 * ({@link PartitionStatsCache#putAt}). With three partitions on one pair of slots, taking turns: each write-back is
 * what the next look-up of its partition finds, never an older entry, and it never takes the other partition's slot.
 */
class PartitionStatsCachePutAtTest {
    @Test
    void theWriteBackReplacesTheFoundEntryInItsSlotAndLeavesTheOtherSlotsPartition() {
        PartitionStatsCache cache = new PartitionStatsCache();
        List<byte[]> sharing = new ArrayList<>(); // partitions whose entries compete for one pair of slots
        Random r = new Random(9);
        byte[] first = lp(r);
        sharing.add(first);
        while (sharing.size() < 3) {
            byte[] lp = lp(r);
            if ((PartitionStatsCache.slot(lp) | 1) == (PartitionStatsCache.slot(first) | 1)) {
                sharing.add(lp);
            }
        }
        byte[] a = sharing.get(0);
        byte[] b = sharing.get(1);
        cache.put(a, new LogicalPartitionStats(1, 1, 1), new byte[]{1}, null);
        cache.put(b, new LogicalPartitionStats(2, 2, 2), null, null);
        for (long lsn = 2; lsn < 200; lsn++) {
            PartitionStatsCache.Entry found = cache.entry(a);
            assertEquals(lsn - 1, found.stats().lsn());
            cache.putAt(found, new LogicalPartitionStats(lsn, lsn, lsn), new byte[]{(byte) lsn}, null);
            PartitionStatsCache.Entry now = cache.entry(a);
            assertEquals(lsn, now.stats().lsn(), "the write-back is what the next look-up finds");
            assertArrayEquals(new byte[]{(byte) lsn}, now.idBound());
            assertEquals(found.slot(), now.slot());
            assertEquals(2, cache.entry(b).stats().lsn(), "the other slot's partition stays");
            assertSame(cache.entry(b), cache.entry(b));
        }
        // a third partition takes one of the two slots (the full put); the found entry's successor then goes back
        // into its own slot, evicting whoever took it, and the partition is never held twice
        PartitionStatsCache.Entry found = cache.entry(a);
        cache.put(sharing.get(2), new LogicalPartitionStats(3, 3, 4), null, null); // even lsn: the first slot of the pair
        cache.putAt(found, new LogicalPartitionStats(500, 500, 500), null, null);
        assertEquals(500, cache.entry(a).stats().lsn());
        cache.forget(a);
        assertNull(cache.entry(a), "forgotten: no older entry of it is left in the other slot");
        // longer bounds than kept are dropped, as in a full put
        cache.put(a, new LogicalPartitionStats(1, 1, 1), null, null);
        cache.putAt(cache.entry(a), new LogicalPartitionStats(2, 2, 2), new byte[PartitionStatsCache.MAX_BOUND_BYTES + 1], null);
        assertNull(cache.entry(a).idBound());
    }

    private static byte[] lp(Random r) {
        byte[] b = new byte[4 + 16 + 1 + r.nextInt(12)];
        r.nextBytes(b);
        return b;
    }
}

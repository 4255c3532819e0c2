package io.tetradb.core.store;

import io.tetradb.core.bulk.BulkLoad;
import io.tetradb.core.feed.StoredPartitionStats;
import io.tetradb.core.storage.CountingEngine;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.StorageEngine;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * batch-cpu: a partition's statistics are read with one get when it was never written (no record, so no partition
 * index key carries any), and with the two reads in their order otherwise ({@link StoredPartitionStats#read}).
 */
class StatsAbsentFirstTest extends PartitionStatsFixture {
    private static ItemOperation create(String p, String id) {
        return ItemOperation.create(M.createObjectNode().put("id", id).put("pk", p).put("f", "x" + id));
    }

    /** What the reader did before: the newest partition index key, then the record, the newer of the two. */
    private static byte[] bothReads(StorageEngine engine, ContainerStore c, String p) {
        byte[] key = statsKey(c, p);
        byte[] carried = StoredPartitionStats.newestCarried(engine, c.collId(), Arrays.copyOfRange(key, 5, key.length));
        byte[] record = engine.get(Space.META, key);
        if (carried == null) {
            return record;
        }
        return record != null && lsn(record) >= lsn(carried) ? record : carried;
    }

    private static long lsn(byte[] stats) {
        return ByteBuffer.wrap(stats, 16, 8).getLong();
    }

    @Test
    void aPartitionNeverWrittenIsAnsweredWithoutACursorOverTheFeed() {
        System.setProperty("tetradb.write.statsRecordEvery", "1024");
        try (CoreStore s = open()) {
            ContainerStore c = container(s);
            c.execute(pk("p"), create("p", "a")); // the record
            c.execute(pk("p"), create("p", "b")); // carried by the partition index key only
            CountingEngine counting = new CountingEngine(s.engine());
            assertNull(StoredPartitionStats.read(counting, statsKey(c, "never")));
            assertEquals(0, counting.cursors.get(), "a partition without a record is not looked for in the feed");
            byte[] written = StoredPartitionStats.read(counting, statsKey(c, "p"));
            assertEquals(1, counting.cursors.get(), "a written partition still takes the newest index key");
            assertNotNull(written);
            assertEquals(2, lsn(written), "the carried statistics, newer than the record's");
            assertEquals(2, LogicalPartitionStats.decode(written).items());
        }
    }

    @Test
    void everyWritePathLeavesNoCarriedStatisticsWithoutARecord() throws Exception {
        System.setProperty("tetradb.write.statsRecordEvery", "4"); // records and carried keys both lag in turn
        List<String> partitions = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            partitions.add("p" + i);
        }
        for (int round = 0; round < 3; round++) {
            try (CoreStore s = open()) {
                ContainerStore c = round == 0 ? container(s) : s.container("db", "c");
                for (int i = 0; i < partitions.size(); i++) {
                    String p = partitions.get(i);
                    String id = round + "-" + i;
                    switch (i % 4) {
                        case 0 -> c.execute(pk(p), create(p, id)); // point creates
                        case 1 -> c.executeBatch(pk(p), List.of(create(p, id + "x"), create(p, id + "y"),
                                create(p, id + "z"))); // batches
                        case 2 -> { // a partition emptied again: created, replaced, deleted
                            c.execute(pk(p), create(p, id));
                            c.execute(pk(p), ItemOperation.replace(id, M.createObjectNode().put("id", id)
                                    .put("pk", p).put("f", "r"), null));
                            c.execute(pk(p), ItemOperation.delete(id, null));
                        }
                        default -> { } // left to the bulk load below
                    }
                }
                try (BulkLoad bulk = c.beginBulkLoad()) {
                    assertNotNull(bulk);
                    for (int i = 3; i < partitions.size(); i += 4) {
                        String p = partitions.get(i);
                        bulk.write(pk(p), List.of(create(p, round + "-b" + i), create(p, round + "-c" + i)));
                    }
                    bulk.commit();
                }
                s.changeFeeds().pruner().pruneOnce(); // moves carried statistics of deleted keys into records
                List<String> asked = new ArrayList<>(partitions);
                for (int i = 0; i < 8; i++) {
                    asked.add("never" + i);
                }
                for (String p : asked) {
                    byte[] expected = bothReads(s.engine(), c, p);
                    assertArrayEquals(expected, StoredPartitionStats.read(s.engine(), statsKey(c, p)), p);
                    assertEquals(p.startsWith("never"), expected == null, p);
                }
                PartitionStatsCacheTest.assertRecounted(s, c, itemsAfter(round + 1));
            }
        }
    }

    /** Items left after {@code rounds} rounds: per round 6 point creates, 6 batches of 3, 6 bulk writes of 2. */
    private static int itemsAfter(int rounds) {
        return rounds * (6 + 6 * 3 + 6 * 2);
    }
}

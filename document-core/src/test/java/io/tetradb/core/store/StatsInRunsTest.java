package io.tetradb.core.store;

import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PhysicalPartition;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * core-stats: a transaction's statistics ride in its change feed partition index key and the META record is written
 * only now and then ({@link io.tetradb.core.feed.StoredPartitionStats}); every reader takes the newer of the two, the
 * pruner keeps what a key it deletes carried, and directories of either layout read.
 */
class StatsInRunsTest extends PartitionStatsFixture {
    private static void create(ContainerStore c, String p, String id) {
        c.execute(pk(p), ItemOperation.create(M.createObjectNode().put("id", id).put("pk", p).put("f", "x" + id)));
    }

    @Test
    void pointWritesLeaveTheRecordAndAColdReaderStillSeesTheNewestRun() {
        System.setProperty("tetradb.write.statsRecordEvery", "2");
        try (CoreStore s = open()) {
            ContainerStore c = container(s);
            create(c, "p", "a"); // lsn 1: the partition's first write writes the record
            c.execute(pk("p"), ItemOperation.delete("a", null)); // lsn 2: a multiple of 2, the record again (0 items)
            create(c, "p", "b"); // lsn 3: carried by its partition index key only
            assertEquals(2, PartitionStatsCacheTest.recordOnly(s, lp(c, "p")).lsn());
            assertEquals(0, PartitionStatsCacheTest.recordOnly(s, lp(c, "p")).items(), "the record says empty");
            assertEquals(1, PartitionStatsCacheTest.stored(s, lp(c, "p")).items());
            assertEquals(3, PartitionStatsCacheTest.stored(s, lp(c, "p")).lsn());
        }
        try (CoreStore s = open()) { // a cold cache
            ContainerStore c = s.container("db", "c");
            // the create check trusts the statistics: read from the record alone the partition is empty and the
            // create would overwrite "b"
            StoreException e = assertThrows(StoreException.class, () -> create(c, "p", "b"));
            assertEquals(409, e.status());
            create(c, "p", "c");
            PartitionStatsCacheTest.assertRecounted(s, c, 2);
            assertEquals(2, c.partitionMap().partitions().stream().mapToLong(PhysicalPartition::items).sum());
        }
    }

    @Test
    void thePrunerKeepsTheStatisticsOfTheNewestRunItDeletes() {
        try (CoreStore s = open()) {
            ContainerStore c = container(s);
            create(c, "p", "a"); // lsn 1, the record
            create(c, "p", "b"); // lsn 2, carried
            c.execute(pk("p"), ItemOperation.delete("b", null)); // lsn 3, carried by a tombstone's run
            s.changeFeeds().pruner().pruneOnce(); // no retention: b's create and its tombstone go, with their keys
            assertEquals(3, PartitionStatsCacheTest.recordOnly(s, lp(c, "p")).lsn(), "moved into the record");
        }
        try (CoreStore s = open()) {
            ContainerStore c = s.container("db", "c");
            LogicalPartitionStats st = PartitionStatsCacheTest.stored(s, lp(c, "p"));
            assertEquals(3, st.lsn(), "the lsn after the delete, not the record's of the first write");
            assertEquals(1, st.items());
            create(c, "p", "d"); // lsn 4: no lsn handed out twice
            PartitionStatsCacheTest.assertRecounted(s, c, 2);
        }
    }

    @Test
    void directoriesOfEitherLayoutReadAndContinueExactly() {
        String[] layouts = {"0", "1024", "0", "1024"}; // a record in every transaction (the layout before), or runs
        int items = 0;
        for (int round = 0; round < layouts.length; round++) {
            System.setProperty("tetradb.write.statsRecordEvery", layouts[round]);
            try (CoreStore s = open()) {
                ContainerStore c = round == 0 ? container(s) : s.container("db", "c");
                PartitionStatsCacheTest.assertRecounted(s, c, items); // what the previous layout left
                for (int i = 0; i < 30; i++) {
                    String p = "p" + (i % 3);
                    create(c, p, round + "-" + i);
                    items++;
                    if (i % 5 == 4) {
                        c.execute(pk(p), ItemOperation.delete(round + "-" + (i - 3), null));
                        items--;
                    }
                }
                s.changeFeeds().pruner().pruneOnce();
                PartitionStatsCacheTest.assertRecounted(s, c, items);
                if (layouts[round].equals("0")) { // the record alone is exact, as before
                    for (String p : List.of("p0", "p1", "p2")) {
                        assertEquals(PartitionStatsCacheTest.stored(s, lp(c, p)),
                                PartitionStatsCacheTest.recordOnly(s, lp(c, p)));
                    }
                } else {
                    assertTrue(List.of("p0", "p1", "p2").stream().anyMatch(p -> PartitionStatsCacheTest
                            .recordOnly(s, lp(c, p)).lsn() < PartitionStatsCacheTest.stored(s, lp(c, p)).lsn()),
                            "some record lags its partition's newest run");
                }
            }
        }
    }
}

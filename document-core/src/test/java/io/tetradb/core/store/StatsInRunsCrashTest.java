package io.tetradb.core.store;

import io.tetradb.testing.KilledChild;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * core-stats: a child JVM writes (point creates, replaces, deletes, small mixed batches) while the feed pruner runs
 * every 20 ms; the test SIGKILLs it at a random moment and reopens the store: every partition's statistics (the
 * record or the newest feed partition index key, whichever is newer) equal a recount of its items, the physical
 * partitions' counts too. Some record must lag its partition's newest run when checked, so a reader that ignored
 * the runs would fail here.
 */
class StatsInRunsCrashTest {
    static final int ROUNDS = 4;

    @Test
    void killedWriterLeavesEveryPartitionsStatisticsExact(@TempDir Path dir) throws Exception {
        long seed = KilledChild.seed();
        Random random = new Random(seed);
        Set<String> lagging = new HashSet<>();
        for (int round = 0; round < ROUNDS; round++) {
            int killAfter = 30 + random.nextInt(200);
            KilledChild child = KilledChild.start(StatsInRunsCrashWriter.class,
                    List.of("-Dtetradb.feed.pruneIntervalMillis=20"), dir.toString(), Integer.toString(round));
            int[] acks = {0};
            // SIGKILL in the middle of later writes
            child.readUntilKilled(Duration.ofSeconds(120), KilledChild.FAILED, "seed " + seed,
                    line -> line.startsWith("ACK ") && ++acks[0] >= killAfter);
            assertEquals(killAfter, acks[0], "the writer stopped early (seed " + seed + ")");
            try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) {
                ContainerStore c = s.container("db", "c");
                for (int p = 0; p < StatsInRunsCrashWriter.PARTITIONS; p++) { // before anything writes a record
                    var pk = io.tetradb.core.partition.PartitionKeyValue.of(java.util.List.of(
                            io.tetradb.core.partition.PartitionKeyValue.component("p" + p)));
                    byte[] lp = Keys.concat(c.collIdBytes(), pk.epk(), pk.encoded());
                    if (!PartitionStatsCacheTest.recordOnly(s, lp).equals(PartitionStatsCacheTest.stored(s, lp))) {
                        lagging.add(round + "/" + ByteBuffer.wrap(lp));
                    }
                }
                long[] items = {0};
                c.scan(io.tetradb.core.partition.EpkRange.FULL, stored -> {
                    items[0]++;
                    return true;
                });
                PartitionStatsCacheTest.assertRecounted(s, c, (int) items[0]);
                assertEquals(items[0], c.partitionMap().partitions().stream()
                        .mapToLong(io.tetradb.core.partition.PhysicalPartition::items).sum(), "seed " + seed);
            }
        }
        assertTrue(!lagging.isEmpty(), "no record lagged its newest run: the test did not exercise the runs");
    }
}

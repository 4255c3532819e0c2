package io.tetradb.core.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

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
        Random random = new Random();
        long seed = Long.getLong("tetradb.crash.seed", random.nextLong());
        random.setSeed(seed);
        Set<String> lagging = new HashSet<>();
        for (int round = 0; round < ROUNDS; round++) {
            int killAfter = 30 + random.nextInt(200);
            Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), "-Dtetradb.feed.pruneIntervalMillis=20",
                    StatsInRunsCrashWriter.class.getName(), dir.toString(), Integer.toString(round))
                    .redirectErrorStream(true).start();
            int acks = 0;
            try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8))) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                String line;
                while ((line = out.readLine()) != null) {
                    if (line.startsWith("ACK ") && ++acks >= killAfter) {
                        break;
                    } else if (line.startsWith("FAILED") || line.contains("Exception")) {
                        fail("writer failed (seed " + seed + "): " + line);
                    }
                    if (System.nanoTime() > deadline) {
                        fail("writer too slow (seed " + seed + ")");
                    }
                }
                child.destroyForcibly(); // SIGKILL, in the middle of later writes
                assertTrue(child.waitFor(30, TimeUnit.SECONDS), "child did not die");
            }
            assertEquals(killAfter, acks, "the writer stopped early (seed " + seed + ")");
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

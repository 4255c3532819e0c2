package io.tetradb.core.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.StoreException;
import io.tetradb.core.feed.StoredPartitionStats;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PhysicalPartition;
import io.tetradb.core.storage.KeyValue;
import io.tetradb.core.storage.Space;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * crash-fixture: the recount at a container's open reads every partition's statistics in two merged forward scans
 * ({@link StoredPartitionStats#scan}) instead of a reverse seek and a get per partition; what it reads must be what
 * the per-partition reading ({@link StoredPartitionStats#read}) finds, for every range a physical partition can have,
 * with records lagging their newest index key, partitions without statistics in their keys, runs longer than the
 * merge reads, and after the pruner moved statistics into records.
 */
class PartitionStatsScanTest extends PartitionStatsFixture {
    private static ObjectNode item(String p, String id, Random random) {
        return M.createObjectNode().put("id", id).put("pk", p).put("f", "x".repeat(random.nextInt(40)));
    }

    /** Random creates, upserts, deletes and batches; some partitions get long runs of index keys. */
    private static void write(ContainerStore c, Random random, int partitions) {
        for (int i = 0; i < partitions; i++) {
            String p = "p" + i;
            int writes = i == 1 ? 3 * StoredPartitionStats.LONG_RUN // runs around and far past what the merge reads
                    : i % 50 == 0 ? StoredPartitionStats.LONG_RUN - 3 + i % 7 : 1 + random.nextInt(5);
            for (int w = 0; w < writes; w++) {
                String id = "i" + random.nextInt(3);
                switch (random.nextInt(4)) {
                    case 0 -> c.execute(pk(p), ItemOperation.upsert(item(p, id, random), null));
                    case 1 -> c.executeBatch(pk(p), List.of(ItemOperation.upsert(item(p, id, random), null),
                            ItemOperation.upsert(item(p, id + "b", random), null)));
                    case 2 -> {
                        try {
                            c.execute(pk(p), ItemOperation.delete(id, null));
                        } catch (StoreException absent) {
                            // 404: nothing written
                        }
                    }
                    default -> c.execute(pk(p), ItemOperation.upsert(item(p, "i" + w, random), null));
                }
            }
        }
    }

    @Test
    void theMergedScanReadsWhatThePerPartitionReadingReadsOverEveryRange() {
        System.setProperty("tetradb.write.statsRecordEvery", "4"); // records lag their newest key most of the time
        System.setProperty("tetradb.feed.pruneIntervalMillis", "3600000"); // the test prunes when it wants to
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        try (CoreStore s = open()) {
            ContainerStore c = container(s);
            ContainerStore other = s.createContainer("db", "d", PartitionKeyDefinition.of("/pk"), null, null, 400,
                    null); // a neighbour container's keys must not leak into c's scan
            write(c, random, 400);
            write(other, random, 30);
            assertTrue(longestRun(s, c) > StoredPartitionStats.LONG_RUN, "no run longer than the merge reads");
            assertTrue(lagging(s, c) > 0, "no record lagged its newest index key");
            assertScansAgree(s, c, random, seed);

            s.changeFeeds().pruner().pruneOnce(); // superseded runs go; what they carried moves into records
            write(c, random, 40); // then more writes on top
            assertScansAgree(s, c, random, seed);
        }
        // a reopen recounts the physical partitions through the merged scan: the items stored
        try (CoreStore s = open()) {
            ContainerStore c = s.container("db", "c");
            long[] items = {0};
            c.scan(io.tetradb.core.partition.EpkRange.FULL, stored -> {
                items[0]++;
                return true;
            });
            assertEquals(items[0], c.partitionMap().partitions().stream().mapToLong(PhysicalPartition::items).sum());
            PartitionStatsCacheTest.assertRecounted(s, c, (int) items[0]);
        }
    }

    @Test
    void aDirectoryWrittenWithTheRecordInEveryTransactionScansTheSame() {
        System.setProperty("tetradb.write.statsRecordEvery", "0");
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        try (CoreStore s = open()) {
            ContainerStore c = container(s);
            write(c, random, 120);
            assertScansAgree(s, c, random, seed);
        }
    }

    /**
     * {@code readPartitionStatistics} ({@link ContainerStore#statistics}) reads every partition through the merged scan
     * too (the item reads' {@code scanPartitionStats}): what it reads of each partition, and the five largest it shows,
     * equal a recount of the stored items — with records lagging their newest index key, after a prune moved what
     * pruned runs carried into records and more writes on top, and after a reopen.
     */
    @Test
    void readPartitionStatisticsEqualsARecountOverLaggingRecordsAndPrunedRuns() {
        System.setProperty("tetradb.write.statsRecordEvery", "4");
        System.setProperty("tetradb.feed.pruneIntervalMillis", "3600000");
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        String filler = "y".repeat(1500);
        try (CoreStore s = open()) {
            ContainerStore c = container(s);
            write(c, random, 200);
            for (int k = 0; k < 7; k++) { // the largest: 10, 13, ... 28 point creates, most ending between records
                String p = "big" + k;
                for (int i = 0; i < 10 + 3 * k; i++) {
                    c.execute(pk(p), ItemOperation.create(M.createObjectNode().put("id", "b" + i).put("pk", p)
                            .put("f", filler)));
                }
            }
            assertStatisticsRecounted(s, c, "written (seed " + seed + ")", true);

            s.changeFeeds().pruner().pruneOnce();
            for (int i = 0; i < 25; i++) { // big0 becomes the largest; big6 loses items
                c.execute(pk("big0"), ItemOperation.create(M.createObjectNode().put("id", "more" + i).put("pk", "big0")
                        .put("f", filler)));
            }
            for (int i = 0; i < 3; i++) {
                c.execute(pk("big6"), ItemOperation.delete("b" + i, null));
            }
            write(c, random, 40);
            assertStatisticsRecounted(s, c, "pruned, then written (seed " + seed + ")", true);
        }
        try (CoreStore s = open()) {
            assertStatisticsRecounted(s, s.container("db", "c"), "reopened (seed " + seed + ")", false);
        }
    }

    /**
     * Every partition {@code c.reads().scanPartitionStats} hands over has the items and bytes a recount finds (and
     * every counted partition is handed over); the statistics' five largest are the recount's five largest.
     */
    private static void assertStatisticsRecounted(CoreStore s, ContainerStore c, String when, boolean someLag) {
        Map<String, long[]> counted = new HashMap<>(); // EPK (hex) → items, bytes
        PartitionStatsCacheTest.recount(s, c).forEach((lp, n) -> counted.put(epkHex(lp.array(), 4), n));
        byte[] prefix = Keys.statsPrefix(c.collId());
        if (someLag) { // a reader of the records alone would count some partition wrong
            assertTrue(PartitionStatsCacheTest.recount(s, c).entrySet().stream().anyMatch(e -> PartitionStatsCacheTest
                    .recordOnly(s, e.getKey().array()).items() != e.getValue()[0]),
                    "no record lagged its partition's items: " + when);
        }
        Map<String, long[]> read = new HashMap<>();
        c.reads().scanPartitionStats(prefix, Keys.concat(prefix, new byte[]{(byte) 0xFF}), kv -> {
            LogicalPartitionStats st = LogicalPartitionStats.decode(kv.value());
            read.put(epkHex(kv.key(), prefix.length), new long[]{st.items(), st.bytes()});
            return true;
        });
        for (Map.Entry<String, long[]> e : counted.entrySet()) {
            long[] r = read.get(e.getKey());
            assertTrue(r != null, "partition " + e.getKey() + " not read: " + when);
            assertEquals(e.getValue()[0], r[0], "items of " + e.getKey() + ": " + when);
            assertEquals(e.getValue()[1], r[1], "bytes of " + e.getKey() + ": " + when);
        }
        read.forEach((epk, r) -> assertEquals(counted.containsKey(epk) ? counted.get(epk)[0] : 0, r[0],
                "items of " + epk + ", which holds none: " + when));

        List<PartitionStatistics.Physical> physical = c.statistics().physicalPartitions();
        assertEquals(1, physical.size(), "one physical partition: its five largest are the container's");
        List<PartitionStatistics.Logical> top = physical.get(0).largestLogicalPartitions();
        assertEquals(Math.min(5, counted.size()), top.size(), when);
        long smallestShown = Long.MAX_VALUE;
        for (int i = 0; i < top.size(); i++) {
            PartitionStatistics.Logical l = top.get(i);
            long[] n = counted.get(l.epk());
            assertTrue(n != null, "shown partition " + l.partitionKey() + " holds no items: " + when);
            assertEquals(n[0], l.itemCount(), "items of " + l.partitionKey() + ": " + when);
            assertEquals(n[1], l.bytes(), "bytes of " + l.partitionKey() + ": " + when);
            assertTrue(l.bytes() <= smallestShown, "largest first: " + when);
            smallestShown = l.bytes();
        }
        java.util.Set<String> shown = new java.util.HashSet<>();
        top.forEach(l -> shown.add(l.epk()));
        for (Map.Entry<String, long[]> e : counted.entrySet()) {
            if (!shown.contains(e.getKey())) {
                assertTrue(e.getValue()[1] <= smallestShown, "partition " + e.getKey() + " (" + e.getValue()[1]
                        + " B) larger than one shown (" + smallestShown + " B): " + when);
            }
        }
    }

    /** The EPK (16 bytes: one partition key level) at {@code at} of a key, in the statistics' hex. */
    private static String epkHex(byte[] key, int at) {
        return io.tetradb.core.partition.EffectivePartitionKey.toHex(Arrays.copyOfRange(key, at, at + 16));
    }

    /** The merged scan equals the per-partition reading over the whole container and random EPK ranges. */
    private static void assertScansAgree(CoreStore s, ContainerStore c, Random random, long seed) {
        byte[] prefix = Keys.statsPrefix(c.collId());
        List<byte[][]> ranges = new ArrayList<>();
        ranges.add(new byte[][]{new byte[0], {(byte) 0xFF}});
        for (int i = 0; i < 30; i++) {
            byte[] a = randomBound(random);
            byte[] b = randomBound(random);
            ranges.add(Arrays.compareUnsigned(a, b) <= 0 ? new byte[][]{a, b} : new byte[][]{b, a});
        }
        for (byte[][] range : ranges) {
            byte[] from = Keys.concat(prefix, range[0]);
            byte[] to = Keys.concat(prefix, range[1]);
            List<KeyValue> perPartition = perPartition(s, from, to);
            List<KeyValue> merged = new ArrayList<>();
            StoredPartitionStats.scan(s.engine(), from, to, merged::add);
            assertSame(perPartition, merged, "range " + Arrays.toString(range[0]) + ".." + Arrays.toString(range[1])
                    + " (seed " + seed + ")");
            if (perPartition.size() > 2) { // a visitor that stops early stops the scan there
                int stopAfter = 1 + random.nextInt(perPartition.size() - 1);
                List<KeyValue> some = new ArrayList<>();
                StoredPartitionStats.scan(s.engine(), from, to, kv -> some.add(kv) && some.size() < stopAfter);
                assertSame(perPartition.subList(0, stopAfter), some, "stopped (seed " + seed + ")");
            }
        }
    }

    /** Each statistics record in {@code [from, to)} with its partition's statistics read alone ({@code read}). */
    private static List<KeyValue> perPartition(CoreStore s, byte[] from, byte[] to) {
        List<KeyValue> out = new ArrayList<>();
        s.engine().scan(Space.META, from, to,
                kv -> out.add(new KeyValue(kv.key(), StoredPartitionStats.read(s.engine(), kv.key()))));
        return out;
    }

    private static byte[] randomBound(Random random) {
        byte[] b = new byte[1 + random.nextInt(3)];
        random.nextBytes(b);
        return b;
    }

    private static void assertSame(List<KeyValue> expected, List<KeyValue> actual, String what) {
        assertEquals(expected.size(), actual.size(), "partitions in " + what);
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i).key(), actual.get(i).key(), what);
            assertArrayEquals(expected.get(i).value(), actual.get(i).value(), "statistics of partition " + i + " in "
                    + what);
        }
    }

    /** The most partition index keys one partition of {@code c} has. */
    private static int longestRun(CoreStore s, ContainerStore c) {
        Map<ByteBuffer, Integer> runs = new HashMap<>();
        byte[] from = ByteBuffer.allocate(5).putInt(c.collId()).put((byte) 'P').array();
        byte[] to = ByteBuffer.allocate(5).putInt(c.collId()).put((byte) 'Q').array();
        s.engine().scan(Space.FEED, from, to, kv -> {
            runs.merge(ByteBuffer.wrap(Arrays.copyOfRange(kv.key(), 5, kv.key().length - 8)), 1, Integer::sum);
            return true;
        });
        return runs.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    }

    /** How many of {@code c}'s records are older than what the partition's statistics read. */
    private static int lagging(CoreStore s, ContainerStore c) {
        int[] n = {0};
        s.engine().scan(Space.META, Keys.statsPrefix(c.collId()), Keys.statsPrefix(c.collId() + 1), kv -> {
            if (!Arrays.equals(kv.value(), StoredPartitionStats.read(s.engine(), kv.key()))) {
                n[0]++;
            }
            return true;
        });
        return n[0];
    }
}

package io.tetradb.core.storage;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.ItemCodec;
import io.tetradb.document.CosmosChangeFeedRequestOptions;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.FeedRange;
import io.tetradb.document.FeedResponse;
import io.tetradb.testing.KilledChild;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * core-wal: with {@link WalRecycling#ATOMIC} (the default) every family flushes at each WAL switch and the next
 * switch overwrites a recycled WAL file. A child JVM with tiny memtables (a switch every few hundred writes) creates
 * items on three threads and is SIGKILLed at a random moment, four times: every acknowledged item is there, the
 * partitions' statistics count exactly the stored items (they are flushed with the items, never recounted), the
 * change feed holds exactly the stored items at their versions, and RocksDB's own log shows that recycled WAL files
 * were written (and so replayed) across the kills.
 */
class WalRecyclingCrashTest {
    static final int ROUNDS = 4;

    @Test
    void killedWriterOnRecycledWalFilesLosesNothingAcknowledgedAndStatisticsStayExact(@TempDir Path dir)
            throws Exception {
        long seed = KilledChild.seed();
        Random random = new Random(seed);
        Set<String> acknowledged = new HashSet<>();
        for (int round = 0; round < ROUNDS; round++) {
            int killAfter = 400 + random.nextInt(1600);
            KilledChild child = KilledChild.start(WalRecyclingCrashWriter.class,
                    List.of("-Dtetradb.rocks.writeBufferBytes=" + (128 << 10), "-Dtetradb.rocks.walRecycling=atomic"),
                    dir.toString(), Integer.toString(round));
            int[] acks = {0};
            child.readUntilKilled(Duration.ofSeconds(120), line -> line.contains("Exception") || line.contains("Error"),
                    "seed " + seed, line -> {
                        if (!line.startsWith("ACK ")) {
                            return false;
                        }
                        acknowledged.add(line.substring(4));
                        return ++acks[0] >= killAfter; // then SIGKILL, while the writers are in later creates
                    });
            assertEquals(killAfter, acks[0], "the writer stopped early (seed " + seed + ")");
            verify(dir, acknowledged, seed);
        }
        assertTrue(recycledWalFiles(dir) > 0, "no WAL file was recycled, so the test did not test recycling");
    }

    private static void verify(Path dir, Set<String> acknowledged, long seed) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            ContainerStore store = client.coreStore().container("wal", "c");
            CosmosContainer c = client.getDatabase("wal").getContainer("c");
            Map<String, Long> stored = new HashMap<>();
            store.scan(io.tetradb.core.partition.EpkRange.FULL, bytes -> {
                ObjectNode item = store.codec().parse(bytes);
                stored.put(item.get("id").asText(), ItemCodec.lsn(bytes));
                return true;
            });
            for (String id : acknowledged) {
                assertTrue(stored.containsKey(id), "acknowledged item " + id + " lost (seed " + seed + ")");
            }
            long counted = c.readPartitionStatistics().physicalPartitions().stream()
                    .mapToLong(p -> p.itemCount()).sum();
            assertEquals(stored.size(), counted, "the statistics count the stored items (seed " + seed + ")");
            Map<String, Long> inFeed = new HashMap<>();
            for (FeedResponse<ObjectNode> page : c.queryChangeFeed(CosmosChangeFeedRequestOptions
                    .createForProcessingFromBeginning(FeedRange.forFullRange()).setMaxItemCount(1000),
                    ObjectNode.class).iterableByPage()) {
                for (ObjectNode n : page.getResults()) {
                    assertEquals(null, inFeed.put(n.get("id").asText(), n.get("_lsn").asLong()),
                            "an item twice in the feed (seed " + seed + ")");
                }
            }
            assertEquals(stored, inFeed, "the feed holds exactly the stored items at their versions (seed " + seed + ")");
        }
    }

    /** How often RocksDB's info logs (current and rolled) say a WAL file was taken from the recycle list. */
    private static long recycledWalFiles(Path dir) throws Exception {
        long n = 0;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith("LOG")).toList()) {
                try (Stream<String> lines = Files.lines(f, StandardCharsets.ISO_8859_1)) {
                    n += lines.filter(l -> l.contains("from recycle list")).count();
                }
            }
        }
        return n;
    }
}

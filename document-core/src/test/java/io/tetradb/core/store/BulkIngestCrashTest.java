package io.tetradb.core.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.feed.ChangeFeedMode;
import io.tetradb.core.feed.ChangeFeedPage;
import io.tetradb.core.feed.ChangeFeedRequest;
import io.tetradb.core.partition.EpkRange;
import io.tetradb.core.storage.RocksEngine;
import io.tetradb.testing.KilledChild;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A child JVM bulk-loads chunks ({@link BulkCrashWriter}); it dies in the middle of a chunk's commit, at each stage
 * of it (halted there, as a SIGKILL would stop it) and at random moments (SIGKILL). After each death the store is
 * reopened: every chunk is whole or absent (never torn), every acknowledged one is there, a chunk whose intent was
 * written is finished (rolled forward) and one that died before is absent; indexes and adjacency entries are
 * consistent with the items, the partitions' statistics count them, and the change feed holds each item once in lsn
 * order per partition; no intent or chunk file is left.
 */
class BulkIngestCrashTest {
    static final int PER_CHUNK = BulkCrashWriter.ITEMS_PER_PARTITION * BulkCrashWriter.PARTITIONS.size();

    @Test
    void aKilledBulkLoadLeavesWholeChunksOnly(@TempDir Path dir) throws Exception {
        long seed = KilledChild.seed();
        Random random = new Random(seed);
        Set<String> acknowledged = new HashSet<>();
        // stage at which the child halts (N-th chunk reaching it), and whether that chunk must be there after
        List<String> stages = List.of("files:2", "intent:2", "ingested-INDEX:1", "ingested-FEED:3", "ingested-DOCS:2",
                "kill", "kill", "kill");
        for (int round = 0; round < stages.size(); round++) {
            String stage = stages.get(round);
            List<String> options = new ArrayList<>(List.of(
                    "-Dtetradb.itemFormat=" + System.getProperty("tetradb.itemFormat", "binary")));
            if (!stage.equals("kill")) {
                options.add("-Dtetradb.test.bulkHaltAt=" + stage);
            }
            KilledChild child = KilledChild.start(BulkCrashWriter.class, options, dir.toString(),
                    Integer.toString(round));
            int killAfter = 1 + random.nextInt(4);
            List<String> acks = new ArrayList<>();
            // SIGKILL in the middle of the next chunk (random rounds); a halted child's output ends by itself
            child.readUntilKilled(Duration.ofSeconds(120), KilledChild.FAILED, "seed " + seed + ", " + stage, line -> {
                if (!line.startsWith("ACK ")) {
                    return false;
                }
                String[] parts = line.split(" ");
                acks.add(parts[1] + "-" + parts[2]);
                return stage.equals("kill") && acks.size() >= killAfter;
            });
            acknowledged.addAll(acks);
            Map<String, Integer> chunks = verify(dir, acknowledged, seed + " " + stage);
            if (!stage.equals("kill")) {
                int n = Integer.parseInt(stage.substring(stage.indexOf(':') + 1));
                assertEquals(n - 1, acks.size(), "acknowledged before the halt (" + stage + ")");
                String dying = round + "-" + (n - 1);
                assertEquals(!stage.startsWith("files"), chunks.containsKey(dying),
                        "a chunk whose intent was durable is finished, one before is absent (" + stage + ")");
            }
        }
    }

    /** Checks the store after a death; returns the items per chunk found. */
    private static Map<String, Integer> verify(Path dir, Set<String> acknowledged, String what) {
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) {
            assertEquals(0, ((RocksEngine) s.engine()).pendingIngests(), "intents left (" + what + ")");
            assertFalse(Files.exists(dir.resolve("bulk-ingest")), "chunk files left (" + what + ")");
            ContainerStore c = s.container("db", "g");
            Map<String, Integer> perChunk = new HashMap<>();
            Map<String, Long> lsnOf = new HashMap<>();
            c.scan(EpkRange.FULL, stored -> {
                ObjectNode item = c.codec().parse(stored);
                perChunk.merge(item.get("chunk").asText(), 1, Integer::sum);
                lsnOf.put(item.get("pk").asText() + "/" + item.get("id").asText(), ItemCodec.lsn(stored));
                return true;
            });
            for (String chunk : acknowledged) {
                assertEquals(PER_CHUNK, perChunk.getOrDefault(chunk, 0), "acknowledged chunk " + chunk + " (" + what + ")");
            }
            perChunk.forEach((chunk, n) -> assertEquals(PER_CHUNK, n, "chunk " + chunk + " is torn (" + what + ")"));
            ContainerStore.IndexCheck indexes = c.checkIndexes();
            assertTrue(indexes.consistent(), indexes + " (" + what + ")");
            GraphAdjacency.Check adjacency = c.graphAdjacency().check();
            assertTrue(adjacency.consistent(), adjacency + " (" + what + ")");
            assertEquals(lsnOf.size(), BulkIngestTest.items(c), "partition statistics count the items (" + what + ")");
            // the change feed from the beginning: each stored item once, at its stored lsn, in lsn order per partition
            Map<String, Long> inFeed = new HashMap<>();
            Map<String, Long> last = new HashMap<>();
            long position = 0;
            while (true) {
                ChangeFeedPage page = c.changeFeed().read(new ChangeFeedRequest(ChangeFeedMode.LATEST_VERSION, null,
                        null, position, 0, 1000));
                for (ChangeFeedPage.Change ch : page.changes()) {
                    ObjectNode item = ch.tree(BulkIngestTest.M);
                    String pk = item.get("pk").asText();
                    long lsn = item.get("_lsn").asLong();
                    assertTrue(lsn > last.getOrDefault(pk, 0L), "lsn order in " + pk + " (" + what + ")");
                    last.put(pk, lsn);
                    assertEquals(null, inFeed.put(pk + "/" + item.get("id").asText(), lsn), "twice (" + what + ")");
                }
                position = page.continuation();
                if (page.caughtUp()) {
                    break;
                }
            }
            assertEquals(lsnOf, inFeed, "the feed holds every stored item at its version (" + what + ")");
            return perChunk;
        }
    }
}

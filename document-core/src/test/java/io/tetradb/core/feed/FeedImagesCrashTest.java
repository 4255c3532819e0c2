package io.tetradb.core.feed;

import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.CoreStore;
import io.tetradb.core.store.StoreConfig;
import io.tetradb.testing.KilledChild;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * feed-images (docs/feed-images.md §6.1, §7): a child JVM writes creates, replaces, deletes and batches on three
 * threads in 20 partitions of a container keeping all versions for 1 s, its pruner passing every 50 ms, and prints
 * each acknowledged version's hash; the test SIGKILLs it at a random moment, four times. After each reopen
 * {@code checkImages()} is clean (every record's referred image present, no version-image key without its owner) and
 * every image an all-versions page shows — {@code current} at the record's lsn, {@code previous} at its previous lsn,
 * in the container's pages and in each partition key's — is, for an acknowledged version, that version's bytes.
 */
class FeedImagesCrashTest {
    static final int ROUNDS = 4;

    @Test
    void killedWriterAndPrunerLeaveEveryVersionImageOfAnAcknowledgedVersionExact(@TempDir Path dir) throws Exception {
        long seed = KilledChild.seed();
        System.out.println("FeedImagesCrashTest seed " + seed);
        Random random = new Random(seed);
        Map<String, String> acknowledged = new HashMap<>(); // "pk id lsn" -> sha256 of the image
        long currents = 0;
        long previouses = 0;
        for (int round = 0; round < ROUNDS; round++) {
            int killAfter = 100 + random.nextInt(700);
            KilledChild child = KilledChild.start(FeedImagesCrashWriter.class,
                    List.of("-Dtetradb.feed.pruneIntervalMillis=50"), dir.toString(), Integer.toString(round));
            int[] transactions = {0};
            child.readUntilKilled(Duration.ofSeconds(120), KilledChild.FAILED, "seed " + seed, line -> {
                acknowledge(acknowledged, line, seed);
                return line.startsWith("TX ") && ++transactions[0] >= killAfter; // then SIGKILL, amid later writes
            });
            assertEquals(killAfter, transactions[0], "the writer stopped early (seed " + seed + ")");
            for (String line : child.linesAfterKill()) {
                acknowledge(acknowledged, line, seed); // returned before the kill landed: acknowledged too
            }
            long[] seen = verify(dir, acknowledged, seed, round);
            currents += seen[0];
            previouses += seen[1];
        }
        System.out.println("FeedImagesCrashTest: " + acknowledged.size() + " acknowledged versions; images checked: "
                + currents + " current, " + previouses + " previous");
        assertTrue(currents > 0 && previouses > 0, "no image of an acknowledged version checked (seed " + seed + ")");
    }

    private static void acknowledge(Map<String, String> acknowledged, String line, long seed) {
        if (line.startsWith("ACK ")) {
            String[] f = line.split(" ");
            String before = acknowledged.put(f[1] + " " + f[2] + " " + f[3], f[4]);
            assertTrue(before == null || before.equals(f[4]),
                    "one version acknowledged with two contents (seed " + seed + "): " + line);
        }
    }

    /** Checks the reopened store; returns how many current and previous images of acknowledged versions it checked. */
    private static long[] verify(Path dir, Map<String, String> acknowledged, long seed, int round) {
        String at = "seed " + seed + " round " + round;
        System.setProperty("tetradb.feed.pruneIntervalMillis", "0"); // nothing prunes while the check reads
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) {
            ContainerStore c = s.container("db", "c");
            ChangeFeed feed = c.changeFeed();
            ChangeFeed.ImageCheck check = feed.checkImages();
            assertTrue(check.clean(), at + ": " + check);
            long[] seen = new long[2];
            read(feed, null, acknowledged, at, seen);
            for (int p = 0; p < FeedImagesCrashWriter.PARTITIONS; p++) {
                read(feed, PartitionKeyValue.of(List.of(PartitionKeyValue.component("p" + p))), acknowledged, at,
                        seen);
            }
            long versionKeys = 0;
            try (var cursor = s.changeFeeds().engine().cursor(io.tetradb.core.storage.Space.FEED,
                    FeedKeys.versionImages(feed.collId()), FeedKeys.versionImagesEnd(feed.collId()), false)) {
                while (cursor.next()) {
                    versionKeys++;
                }
            }
            System.out.println("FeedImagesCrashTest " + at + ": " + versionKeys + " version-image keys, images checked "
                    + seen[0] + " current, " + seen[1] + " previous");
            return seen;
        } finally {
            System.clearProperty("tetradb.feed.pruneIntervalMillis");
        }
    }

    private static void read(ChangeFeed feed, PartitionKeyValue key, Map<String, String> acknowledged, String at,
                             long[] seen) {
        PartitionKeyDefinition definition = PartitionKeyDefinition.of("/pk");
        long position = 0;
        while (true) {
            ChangeFeedPage page = feed.read(new ChangeFeedRequest(ChangeFeedMode.ALL_VERSIONS_AND_DELETES, null, key,
                    position, 0, 500));
            for (ChangeFeedPage.Change ch : page.changes()) {
                ChangeRecord r = ch.record();
                String pk = ChangeFeedJson.partitionKey(r, definition).components().get(0).asText();
                if (r.operationType() == ChangeRecord.OperationType.DELETE) {
                    assertNull(r.current(), at + ": a delete with a current image");
                } else {
                    seen[0] += check(acknowledged, pk + " " + r.id() + " " + r.lsn(), r.current(), at, r);
                }
                if (r.operationType() != ChangeRecord.OperationType.CREATE) {
                    seen[1] += check(acknowledged, pk + " " + r.id() + " " + r.previousLsn(), r.previous(), at, r);
                }
            }
            position = page.continuation();
            if (page.caughtUp()) {
                return;
            }
        }
    }

    private static int check(Map<String, String> acknowledged, String version, byte[] image, String at, ChangeRecord r) {
        assertTrue(image != null, at + ": a change shown without its image " + version + " " + r);
        String hash = acknowledged.get(version);
        if (hash == null) {
            return 0; // written but killed before it was acknowledged (or an intermediate version's neighbour)
        }
        assertEquals(hash, FeedImagesCrashWriter.sha256(image), at + ": the image of acknowledged version " + version);
        return 1;
    }
}

package io.tetradb.core.store;

import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.testing.KilledChild;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A child JVM changes the indexing policy while a writer upserts, and is SIGKILLed after a random number of rebuild
 * chunks. Every other round the store is left as the kill left it, so the next child resumes the rebuild and may be
 * killed during the resume. After each verified round: the rebuild resumed and finished, the entries are exactly the
 * current policy's, and the logical sizes count exactly those entries.
 */
class IndexRebuildCrashTest {
    static final int ROUNDS = 4;

    @Test
    void killedMidRebuildResumesAndEndsConsistent(@TempDir Path dir) throws Exception {
        long seed = KilledChild.seed();
        Random random = new Random(seed);
        for (int round = 0; round < ROUNDS; round++) {
            int killAfterChunks = 1 + random.nextInt(40);
            KilledChild child = KilledChild.start(RebuildCrashWriter.class, List.of(), dir.toString(),
                    Long.toString(random.nextLong()));
            int[] chunks = {0};
            // SIGKILL in the middle of later chunks and writes
            child.readUntilKilled(Duration.ofSeconds(120), line -> line.contains("Exception"), "seed " + seed,
                    line -> line.equals("CHUNK") && ++chunks[0] >= killAfterChunks || line.equals("DONE"));
            if (round % 2 == 1 || round == ROUNDS - 1) {
                verify(dir, seed);
            }
        }
    }

    private static void verify(Path dir, long seed) throws InterruptedException {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            ContainerStore cs = client.coreStore().container("db", "c");
            cs.awaitIndexRebuild();
            assertFalse(cs.isIndexRebuilding(), "seed " + seed);
            ContainerStore.IndexCheck check = cs.checkIndexes();
            assertTrue(check.consistent(), check + " (seed " + seed + ")");
            assertEquals(IndexRebuildTest.expectedBytes(client.coreStore(), cs), IndexRebuildTest.storedBytes(cs),
                    "sizes (seed " + seed + ")");
        }
    }
}

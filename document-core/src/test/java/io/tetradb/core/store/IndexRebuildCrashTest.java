package io.tetradb.core.store;

import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

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
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        for (int round = 0; round < ROUNDS; round++) {
            int killAfterChunks = 1 + random.nextInt(40);
            Process child = new ProcessBuilder(javaBin(), "-cp", System.getProperty("java.class.path"),
                    RebuildCrashWriter.class.getName(), dir.toString(), Long.toString(random.nextLong()))
                    .redirectErrorStream(true).start();
            int chunks = 0;
            try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                String line;
                while ((line = out.readLine()) != null) {
                    if (line.equals("CHUNK") && ++chunks >= killAfterChunks || line.equals("DONE")) {
                        break;
                    }
                    if (line.contains("Exception")) {
                        fail("child failed (seed " + seed + "): " + line);
                    }
                    if (System.nanoTime() > deadline) {
                        fail("child too slow (seed " + seed + ")");
                    }
                }
                child.destroyForcibly(); // SIGKILL, in the middle of later chunks and writes
                assertTrue(child.waitFor(30, TimeUnit.SECONDS), "child did not die");
            }
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

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}

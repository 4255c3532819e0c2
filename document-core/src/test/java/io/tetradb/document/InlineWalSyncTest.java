package io.tetradb.document;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * SYNC writes with the inline WAL sync switched on ({@code -Dtetradb.wal.inlineSync=true}): writers alone sync in the
 * write, writers of a busy partition share group syncs; every acknowledged write is there after a reopen.
 */
class InlineWalSyncTest {
    static final ObjectMapper M = new ObjectMapper();

    @Test
    void writersAloneAndWritersOfOnePartitionAreAllDurable(@TempDir Path dir) throws Exception {
        String was = System.getProperty("tetradb.wal.inlineSync");
        System.setProperty("tetradb.wal.inlineSync", "true");
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).durability(Durability.SYNC).buildClient()) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer("c", "/pk");
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            for (int i = 0; i < 50; i++) { // one writer: every write syncs inline
                c.createItem(M.createObjectNode().put("id", "solo-" + i).put("pk", "solo"));
            }
            ExecutorService pool = Executors.newFixedThreadPool(6);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < 60; i++) { // half on one hot partition (group syncs), half spread
                        String pk = thread % 2 == 0 ? "hot" : "p" + thread;
                        c.createItem(M.createObjectNode().put("id", thread + "-" + i).put("pk", pk));
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(120, TimeUnit.SECONDS);
            }
            pool.shutdown();
        } finally {
            if (was == null) {
                System.clearProperty("tetradb.wal.inlineSync");
            } else {
                System.setProperty("tetradb.wal.inlineSync", was);
            }
        }
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            long n = c.queryItems("SELECT VALUE COUNT(1) FROM c", new CosmosQueryRequestOptions(), Long.class)
                    .stream().findFirst().orElseThrow();
            assertEquals(50 + 6 * 60, n);
            assertEquals(180, c.queryItems("SELECT * FROM c WHERE c.pk = 'hot'", new CosmosQueryRequestOptions(),
                    ObjectNode.class).stream().count());
        }
    }
}

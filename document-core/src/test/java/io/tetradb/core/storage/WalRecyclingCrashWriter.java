package io.tetradb.core.storage;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;

import java.nio.file.Path;

/**
 * The child process of {@link WalRecyclingCrashTest}: three threads create items one by one (SYNC, so each waits for
 * the group fsync) and print {@code ACK id} once a create returned, until the process is killed. Run with tiny
 * memtables, so the families flush and the WAL switches (to recycled files) every few hundred writes.
 */
public final class WalRecyclingCrashWriter {
    static final int THREADS = 3;
    static final int PARTITIONS = 20;

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int round = Integer.parseInt(args[1]);
        ObjectMapper m = new ObjectMapper();
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabaseIfNotExists("wal");
            client.getDatabase("wal").createContainerIfNotExists("c", "/pk");
            CosmosContainer c = client.getDatabase("wal").getContainer("c");
            Thread[] writers = new Thread[THREADS];
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                writers[t] = new Thread(() -> {
                    for (long n = 0; ; n++) {
                        String id = round + "-" + thread + "-" + n;
                        c.createItem(m.createObjectNode().put("id", id).put("pk", "p" + (n * 7 + thread) % PARTITIONS)
                                .put("fill", "w".repeat(200 + (int) (n % 300))));
                        synchronized (System.out) {
                            System.out.println("ACK " + id);
                            System.out.flush();
                        }
                    }
                });
                writers[t].start();
            }
            for (Thread w : writers) {
                w.join();
            }
        }
    }
}

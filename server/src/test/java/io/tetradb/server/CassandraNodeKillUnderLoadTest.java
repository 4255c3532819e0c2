package io.tetradb.server;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosBatch;
import com.azure.cosmos.models.CosmosBatchResponse;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import com.fasterxml.jackson.databind.JsonNode;
import com.mongodb.client.MongoCollection;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntPredicate;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Kill one Cassandra node (SIGKILL) under write load through the faces: a writer per face (Cosmos items, Mongo
 * documents, Tables entities, Cosmos transactional batches, Tables transactions of 4 each) writes through two TetraDB
 * servers on one keyspace and records every acknowledged write; node 3 is killed mid-run, the writers go on at QUORUM
 * with one node down, then the node is restarted and the writers go on again. After: every acknowledged write is
 * there and every batch is whole or absent (none torn). That node 3 rejoined as a replica is shown by killing node 1
 * afterwards: QUORUM then needs node 3, and everything is still read back and written. Only with {@code -Pcluster}.
 */
@Tag("cluster")
@Timeout(1500)
class CassandraNodeKillUnderLoadTest {
    private static final int BATCH = 4;
    /** Acknowledged writes each writer must reach in a phase before the test moves on. */
    private static final int PER_PHASE = 15;
    @TempDir
    static Path dir;
    static ClusterServers servers;
    static long classStart;

    @BeforeAll
    static void start() {
        classStart = System.nanoTime();
        servers = ClusterServers.start("tetradb_kill", 2, dir);
        System.out.printf("CLUSTER kill cluster_start_s=%.1f%n", servers.clusterStartSeconds);
    }

    @AfterAll
    static void stop() {
        if (servers != null) {
            servers.close();
        }
        System.out.printf("CLUSTER kill class_total_s=%.1f%n", (System.nanoTime() - classStart) / 1e9);
    }

    @Test
    void everyAcknowledgedWriteSurvivesANodeKilledUnderLoadAndNoBatchIsTorn() throws Exception {
        List<CosmosClient> cosmos = List.of(servers.cosmos(0), servers.cosmos(1));
        cosmos.get(0).createDatabaseIfNotExists("load");
        cosmos.get(0).getDatabase("load").createContainerIfNotExists("items", "/pk");
        cosmos.get(1).getDatabase("load").createContainerIfNotExists("batches", "/pk");
        List<CosmosContainer> items = cosmos.stream().map(c -> c.getDatabase("load").getContainer("items")).toList();
        List<CosmosContainer> batches = cosmos.stream().map(c -> c.getDatabase("load").getContainer("batches"))
                .toList();
        List<MongoCollection<Document>> docs = List.of(
                servers.mongo(0).getDatabase("load").getCollection("docs"),
                servers.mongo(1).getDatabase("load").getCollection("docs"));
        servers.tables(0).createTableIfNotExists("entities");
        servers.tables(1).createTableIfNotExists("txns");
        List<TableClient> entities = List.of(servers.tables(0).getTableClient("entities"),
                servers.tables(1).getTableClient("entities"));
        List<TableClient> txns = List.of(servers.tables(0).getTableClient("txns"),
                servers.tables(1).getTableClient("txns"));

        AtomicReference<String> phase = new AtomicReference<>("before");
        List<LoadWriter> writers = List.of(
                new LoadWriter("cosmos", phase, n -> items.get(n % 2)
                        .createItem(Map.of("id", "c" + n, "pk", "p" + (n % 16), "n", n))),
                new LoadWriter("mongo", phase, n -> docs.get(n % 2).insertOne(new Document("_id", "m" + n)
                        .append("n", n))),
                new LoadWriter("tables", phase, n -> entities.get(n % 2)
                        .createEntity(new TableEntity("t" + (n % 8), "r" + n).addProperty("N", n))),
                new LoadWriter("cosmos-batch", phase, n -> {
                    CosmosBatch batch = CosmosBatch.createCosmosBatch(new PartitionKey("b" + n));
                    for (int i = 0; i < BATCH; i++) {
                        batch.createItemOperation(Map.of("id", "b" + n + "-" + i, "pk", "b" + n, "i", i));
                    }
                    CosmosBatchResponse r = batches.get(n % 2).executeCosmosBatch(batch);
                    if (!r.isSuccessStatusCode()) {
                        throw new IllegalStateException("batch " + r.getStatusCode() + "/" + r.getSubStatusCode());
                    }
                }),
                new LoadWriter("tables-txn", phase, n -> {
                    List<TableTransactionAction> actions = new ArrayList<>();
                    for (int i = 0; i < BATCH; i++) {
                        actions.add(new TableTransactionAction(TableTransactionActionType.CREATE,
                                new TableEntity("tb" + n, "r" + i).addProperty("I", i)));
                    }
                    txns.get(n % 2).submitTransaction(actions);
                }));
        List<Thread> threads = new ArrayList<>();
        for (LoadWriter w : writers) {
            Thread t = new Thread(w, "load-" + w.face);
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
        try {
            awaitAcks(writers, "before", PER_PHASE);
            long pid = servers.cluster.pid(3);
            phase.set("down");
            long killedAt = System.nanoTime();
            servers.cluster.kill(3); // SIGKILL
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "node 3 is dead");
            awaitAcks(writers, "down", PER_PHASE);
            double downSeconds = (System.nanoTime() - killedAt) / 1e9;
            phase.set("restarting");
            long restartAt = System.nanoTime();
            servers.cluster.restart(3, 240);
            double restartSeconds = (System.nanoTime() - restartAt) / 1e9;
            phase.set("after");
            awaitAcks(writers, "after", PER_PHASE);
            System.out.printf("KILL node=3 pid=%d down_s=%.1f restart_s=%.1f%n", pid, downSeconds, restartSeconds);
        } finally {
            writers.forEach(LoadWriter::stop);
            for (Thread t : threads) {
                t.join(TimeUnit.MINUTES.toMillis(3));
            }
        }
        for (LoadWriter w : writers) {
            assertNull(w.crashed(), w.face);
            for (String p : List.of("before", "down", "restarting", "after")) {
                LoadWriter.Phase counts = w.phases.get(p);
                System.out.printf("KILL face=%s phase=%s %s%n", w.face, p, counts == null ? "none" : counts);
            }
        }

        verify(writers, items.get(1), docs.get(1), entities.get(1), batches.get(1), txns.get(1), "node 3 restarted");

        // node 3 rejoined as a replica: with node 1 killed, QUORUM needs node 3
        servers.cluster.kill(1);
        verify(writers, items.get(0), docs.get(0), entities.get(0), batches.get(0), txns.get(0), "node 1 killed");
        // idempotent writes, so that a retry after an error of unknown outcome is safe
        reading("late writes", () -> items.get(0).upsertItem(Map.of("id", "late", "pk", "late")));
        reading("late writes", () -> docs.get(1).replaceOne(new Document("_id", "late"), new Document("_id", "late"),
                new com.mongodb.client.model.ReplaceOptions().upsert(true)));
        reading("late writes", () -> {
            entities.get(0).upsertEntity(new TableEntity("late", "late"));
            return null;
        });
        assertEquals("late", reading("late reads", () -> items.get(1).readItem("late", new PartitionKey("late"),
                JsonNode.class).getItem().get("id").asText()));
        assertEquals(1L, (long) reading("late reads", () -> docs.get(0).countDocuments(new Document("_id", "late"))));
        assertEquals("late", reading("late reads", () -> entities.get(1).getEntity("late", "late").getRowKey()));
        System.out.printf("KILL retried_after_errors=%d %s%n", retried.size(), retried);
    }

    /** Every acknowledged write is there; every batch tried is whole or absent, an acknowledged one whole. */
    private static void verify(List<LoadWriter> writers, CosmosContainer items, MongoCollection<Document> docs,
                               TableClient entities, CosmosContainer batches, TableClient txns, String when) {
        Set<String> itemIds = reading(when, () -> new HashSet<>(items.queryItems("SELECT VALUE c.id FROM c",
                new CosmosQueryRequestOptions(), String.class).stream().toList()));
        Set<String> docIds = reading(when, () -> docs.find().map(d -> d.getString("_id")).into(new HashSet<>()));
        Set<String> entityKeys = reading(when, () -> entities.listEntities().stream().map(TableEntity::getRowKey)
                .collect(Collectors.toSet()));
        Map<String, Long> batchSizes = reading(when, () -> batches.queryItems("SELECT VALUE c.pk FROM c",
                new CosmosQueryRequestOptions(), String.class).stream()
                .collect(Collectors.groupingBy(pk -> pk, Collectors.counting())));
        Map<String, Long> txnSizes = reading(when, () -> txns.listEntities().stream()
                .collect(Collectors.groupingBy(TableEntity::getPartitionKey, Collectors.counting())));
        for (LoadWriter w : writers) {
            IntPredicate present = switch (w.face) {
                case "cosmos" -> n -> itemIds.contains("c" + n);
                case "mongo" -> n -> docIds.contains("m" + n);
                case "tables" -> n -> entityKeys.contains("r" + n);
                case "cosmos-batch" -> n -> batchSizes.getOrDefault("b" + n, 0L) == BATCH;
                case "tables-txn" -> n -> txnSizes.getOrDefault("tb" + n, 0L) == BATCH;
                default -> throw new IllegalStateException(w.face);
            };
            List<Integer> lost = w.acked.stream().filter(n -> !present.test(n)).sorted().toList();
            assertEquals(List.of(), lost, when + ": " + w.face + ": acknowledged writes missing");
            System.out.printf("KILL verified=%s face=%s acked=%d all_present=true%n", when.replace(' ', '_'), w.face,
                    w.acked.size());
        }
        Map<String, Long> torn = new HashMap<>();
        batchSizes.forEach((pk, size) -> {
            if (size != BATCH) {
                torn.put("cosmos " + pk, size);
            }
        });
        txnSizes.forEach((pk, size) -> {
            if (size != BATCH) {
                torn.put("tables " + pk, size);
            }
        });
        assertEquals(Map.of(), torn, when + ": torn batches (items present of " + BATCH + ")");
    }

    /** What a client retried after an error (a 5xx, a timeout) while checking, with the error; printed. */
    private static final List<String> retried = new java.util.concurrent.CopyOnWriteArrayList<>();

    /**
     * A read (or an idempotent write) of the check, retried as a client retries a server error or timeout (up to 6
     * attempts): with a node down on a loaded 2-core machine a QUORUM read can time out inside Cassandra (5 s) and
     * the face answers 500; a missing write is still a failure, as an answer is compared, never an error.
     */
    private static <T> T reading(String what, java.util.concurrent.Callable<T> read) {
        for (int attempt = 1; ; attempt++) {
            try {
                return read.call();
            } catch (Exception e) {
                if (attempt == 6) {
                    throw new AssertionError(what + ": still failing after " + attempt + " attempts", e);
                }
                retried.add(what + ": " + LoadWriter.describe(e));
            }
        }
    }

    /** Waits until every writer has {@code count} acknowledged writes in {@code phase}; the servers must serve. */
    private static void awaitAcks(List<LoadWriter> writers, String phase, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
        while (true) {
            boolean all = true;
            for (LoadWriter w : writers) {
                if (w.crashed() != null) {
                    fail(w.face + " writer crashed", w.crashed());
                }
                all &= w.acked(phase) >= count;
            }
            if (all) {
                return;
            }
            if (System.nanoTime() > deadline) {
                StringBuilder s = new StringBuilder();
                writers.forEach(w -> s.append(w.face).append(' ').append(w.phases.get(phase)).append("; "));
                fail("phase " + phase + ": not every writer reached " + count + " acknowledged writes in 300 s: " + s);
            }
            Thread.sleep(100); // polling the writers' counters, not a timing assumption
        }
    }
}

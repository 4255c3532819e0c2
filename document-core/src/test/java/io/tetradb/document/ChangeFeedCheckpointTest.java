package io.tetradb.document;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.ItemCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A busy processor checkpoints its leases at most every {@link LeasedChangeFeedProcessor#CHECKPOINT_INTERVAL_MILLIS}
 * rather than after every handled page (each checkpoint is a lease write), and once idle its leases hold the
 * position it handled (the estimated lag read from the leases falls to 0).
 */
class ChangeFeedCheckpointTest {
    static final ObjectMapper M = new ObjectMapper();
    @TempDir
    Path dir;

    @Test
    void aBusyWorkerCheckpointsAtMostEveryIntervalAndAnIdleOneSavesWhatItHandled() throws Exception {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("db");
            CosmosDatabase db = client.getDatabase("db");
            db.createContainer(new CosmosContainerProperties("feed", "/pk"),
                    ThroughputProperties.createManualThroughput(40_000)); // four feed ranges, four leases
            db.createContainer("leases", "/id");
            CosmosContainer feed = db.getContainer("feed");
            CosmosContainer leases = db.getContainer("leases");
            Set<String> delivered = ConcurrentHashMap.newKeySet();
            AtomicInteger pages = new AtomicInteger();
            // renewals far apart: the lease writes counted are the takes and the checkpoints
            ChangeFeedProcessorOptions options = new ChangeFeedProcessorOptions().setStartFromBeginning(true)
                    .setLeaseAcquireInterval(Duration.ofMillis(100)).setLeaseRenewInterval(Duration.ofSeconds(60))
                    .setLeaseExpirationInterval(Duration.ofSeconds(120)).setFeedPollDelay(Duration.ofMillis(200));
            ChangeFeedProcessor p = new ChangeFeedProcessorBuilder().hostName("h").feedContainer(feed)
                    .leaseContainer(leases).options(options).handleChanges(changes -> {
                        pages.incrementAndGet();
                        changes.forEach(n -> delivered.add(n.get("id").asText()));
                    }).buildChangeFeedProcessor();
            long started = System.nanoTime();
            p.start();
            int n = 3000;
            for (int i = 0; i < n; i++) {
                feed.createItem(M.createObjectNode().put("id", "i" + i).put("pk", "p" + (i % 50)));
            }
            ChangeFeedProcessorTest.await("every change delivered", () -> delivered.size() == n);
            // idle: each worker saves its handled position within a checkpoint interval
            LeasedChangeFeedProcessor leased = (LeasedChangeFeedProcessor) p;
            ChangeFeedProcessorTest.await("every lease at the end of the feed", () -> leased
                    .estimatedLagOfSavedLeases().values().stream().allMatch(lag -> lag == 0));
            long elapsedMillis = (System.nanoTime() - started) / 1_000_000;
            long leaseWrites = 0;
            List<ObjectNode> docs = new ArrayList<>();
            leases.queryItems("SELECT * FROM c", new CosmosQueryRequestOptions(), ObjectNode.class).forEach(docs::add);
            assertEquals(4, docs.size());
            ContainerStore store = leases.store();
            for (ObjectNode lease : docs) {
                String id = lease.get("id").asText();
                byte[] stored = store.read(new PartitionKey(id).toValue(1), id, null).stored();
                leaseWrites += ItemCodec.lsn(stored); // every write of the lease: create, take, checkpoints
            }
            long bound = docs.size() * (3 + elapsedMillis / LeasedChangeFeedProcessor.CHECKPOINT_INTERVAL_MILLIS);
            System.out.println("change feed checkpoints: " + leaseWrites + " lease writes for " + pages.get()
                    + " handled pages in " + elapsedMillis + " ms");
            assertTrue(leaseWrites <= bound, leaseWrites + " lease writes in " + elapsedMillis + " ms for "
                    + pages.get() + " handled pages: more than one per lease per interval (" + bound + ")");
            p.stop();
        }
    }

    /**
     * While a worker is busy its lease may hold a position up to a checkpoint interval old; the estimated lag of this
     * host's own leases counts from what its workers handled (the lease is kept from being checkpointed here by an
     * hour-long interval, so the two differ for certain).
     */
    @Test
    void estimatedLagOfABusyWorkerCountsFromWhatItHandled() throws Exception {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("db");
            CosmosDatabase db = client.getDatabase("db");
            db.createContainer(new CosmosContainerProperties("feed", "/pk")); // one feed range, one lease
            db.createContainer("leases", "/id");
            CosmosContainer feed = db.getContainer("feed");
            for (int i = 0; i < 30; i++) {
                feed.createItem(M.createObjectNode().put("id", "i" + i).put("pk", "p" + (i % 5)));
            }
            java.util.concurrent.CountDownLatch secondPage = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
            AtomicInteger handled = new AtomicInteger();
            ChangeFeedProcessorOptions options = new ChangeFeedProcessorOptions().setStartFromBeginning(true)
                    .setMaxItemCount(10).setLeaseAcquireInterval(Duration.ofMillis(100))
                    .setLeaseRenewInterval(Duration.ofSeconds(60)).setLeaseExpirationInterval(Duration.ofSeconds(120));
            LeasedChangeFeedProcessor p = (LeasedChangeFeedProcessor) new ChangeFeedProcessorBuilder().hostName("h")
                    .feedContainer(feed).leaseContainer(db.getContainer("leases")).options(options)
                    .handleChanges(changes -> {
                        if (handled.get() == 10) { // the second page: busy until the test lets it go
                            secondPage.countDown();
                            try {
                                release.await();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        }
                        handled.addAndGet(changes.size());
                    }).buildChangeFeedProcessor();
            p.checkpointInterval(Duration.ofHours(1));
            p.start();
            try {
                assertTrue(secondPage.await(io.tetradb.testing.TestTime.patience(Duration.ZERO).toSeconds(),
                        java.util.concurrent.TimeUnit.SECONDS), "second page not handed");
                // the first page (10 changes) is handled, the second is in the handler: 20 still to handle
                java.util.Map<String, Integer> lag = p.getEstimatedLag();
                assertEquals(1, lag.size());
                assertEquals(20, lag.values().iterator().next(), "lag from the handled position");
                // the lease itself still holds the start: a lag read from it alone says 30
                assertEquals(30, p.estimatedLagOfSavedLeases().values().iterator().next());
            } finally {
                release.countDown();
            }
            p.stop();
        }
    }
}

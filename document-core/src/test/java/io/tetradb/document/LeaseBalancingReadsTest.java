package io.tetradb.document;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The balancer reads the leases it knows by point reads and lists them with a query only when one is gone, the known
 * ones stop covering the feed ranges, or every {@link LeasedChangeFeedProcessor#PASSES_PER_LISTING} passes.
 */
class LeaseBalancingReadsTest {
    static final ObjectMapper M = new ObjectMapper();
    @TempDir
    Path dir;

    @Test
    void passesPointReadTheKnownLeasesAndAGoneLeaseIsListedAndMadeAgain() throws Exception {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("db");
            CosmosDatabase db = client.getDatabase("db");
            db.createContainer(new CosmosContainerProperties("feed", "/pk"),
                    ThroughputProperties.createManualThroughput(40_000)); // four feed ranges, four leases
            db.createContainer("leases", "/id");
            CosmosContainer feed = db.getContainer("feed");
            CosmosContainer leases = db.getContainer("leases");
            Set<String> delivered = ConcurrentHashMap.newKeySet();
            LeasedChangeFeedProcessor p = (LeasedChangeFeedProcessor) new ChangeFeedProcessorBuilder().hostName("h")
                    .feedContainer(feed).leaseContainer(leases)
                    .options(new ChangeFeedProcessorOptions().setStartFromBeginning(true)
                            .setLeaseAcquireInterval(Duration.ofMillis(20)).setLeaseRenewInterval(Duration.ofSeconds(60))
                            .setLeaseExpirationInterval(Duration.ofSeconds(120)))
                    .handleChanges(changes -> changes.forEach(n -> delivered.add(n.get("id").asText())))
                    .buildChangeFeedProcessor();
            p.start();
            ChangeFeedProcessorTest.await("four leases taken", () -> p.ownedLeases().size() == 4);
            int passes0 = p.balancingPasses();
            int listings0 = p.leaseListings();
            ChangeFeedProcessorTest.await("40 more passes", () -> p.balancingPasses() >= passes0 + 40);
            int passes = p.balancingPasses() - passes0;
            int listings = p.leaseListings() - listings0;
            // one listing per pass before; now one per PASSES_PER_LISTING passes (plus the pass in flight)
            assertTrue(listings <= passes / LeasedChangeFeedProcessor.PASSES_PER_LISTING + 1,
                    listings + " listings in " + passes + " passes");

            // a lease removed behind the balancer's back (as another host's split removes its parent): the point
            // read misses it, the pass lists the leases, makes the missing one again and takes it
            List<ObjectNode> all = new ArrayList<>();
            leases.queryItems("SELECT * FROM c", new CosmosQueryRequestOptions(), ObjectNode.class).forEach(all::add);
            assertEquals(4, all.size());
            String gone = all.get(0).get("id").asText();
            int listingsBefore = p.leaseListings();
            leases.deleteItem(gone, new PartitionKey(gone), new CosmosItemRequestOptions());
            ChangeFeedProcessorTest.await("the lease made again", () -> {
                try {
                    leases.readItem(gone, new PartitionKey(gone), ObjectNode.class);
                    return true;
                } catch (CosmosException e) {
                    return false;
                }
            });
            assertTrue(p.leaseListings() > listingsBefore, "the pass that missed the lease listed them");
            // every range is still processed: changes in all four ranges arrive
            for (int i = 0; i < 200; i++) {
                feed.createItem(M.createObjectNode().put("id", "i" + i).put("pk", "p" + i));
            }
            ChangeFeedProcessorTest.await("every change delivered", () -> delivered.size() == 200);
            ChangeFeedProcessorTest.await("four leases owned", () -> p.ownedLeases().size() == 4);
            p.stop();
        }
    }
}

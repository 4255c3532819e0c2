package io.tetradb.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.testing.TestTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The change feed processor: leases in a container, hosts sharing ranges, a host killed, restarts, splits. */
class ChangeFeedProcessorTest {
    static final ObjectMapper M = new ObjectMapper();
    @TempDir
    Path dir;
    CosmosClient client;
    CosmosContainer feed;
    CosmosContainer leases;
    final List<ChangeFeedProcessor> processors = new ArrayList<>();

    @BeforeEach
    void open() {
        openClient(new CosmosClientBuilder().dataDirectory(dir));
    }

    void openClient(CosmosClientBuilder builder) {
        client = builder.buildClient();
        client.createDatabaseIfNotExists("db");
        CosmosDatabase db = client.getDatabase("db");
        try {
            // 40,000 RU/s: four physical partitions, so four feed ranges and four leases
            db.createContainer(new CosmosContainerProperties("feed", "/pk"),
                    ThroughputProperties.createManualThroughput(40_000));
            db.createContainer("leases", "/id");
        } catch (CosmosException exists) {
            // reopened
        }
        feed = db.getContainer("feed");
        leases = db.getContainer("leases");
    }

    @AfterEach
    void close() {
        processors.forEach(ChangeFeedProcessor::stop);
        client.close();
    }

    static ChangeFeedProcessorOptions fastOptions() {
        return new ChangeFeedProcessorOptions().setStartFromBeginning(true)
                .setLeaseAcquireInterval(Duration.ofMillis(100)).setLeaseRenewInterval(Duration.ofMillis(100))
                .setLeaseExpirationInterval(Duration.ofMillis(600)).setFeedPollDelay(Duration.ofMillis(200));
    }

    /** A processor that records every delivery; deliveries.get(id) counts how often each item arrived. */
    LeasedChangeFeedProcessor processor(String host, Map<String, AtomicInteger> deliveries) {
        return processor(host, deliveries, fastOptions());
    }

    LeasedChangeFeedProcessor processor(String host, Map<String, AtomicInteger> deliveries,
                                        ChangeFeedProcessorOptions options) {
        LeasedChangeFeedProcessor p = (LeasedChangeFeedProcessor) new ChangeFeedProcessorBuilder().hostName(host)
                .feedContainer(feed).leaseContainer(leases).options(options)
                .handleChanges(changes -> changes.forEach(n -> deliveries.computeIfAbsent(n.get("id").asText(),
                        i -> new AtomicInteger()).incrementAndGet()))
                .buildChangeFeedProcessor();
        processors.add(p);
        return p;
    }

    void write(int from, int to) {
        for (int i = from; i < to; i++) {
            feed.createItem(M.createObjectNode().put("id", "i" + i).put("pk", "p" + (i % 50)).put("v", i));
        }
    }

    /** Polls until {@code condition} holds; fails only when it never does (a hung processor, not a slow machine). */
    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        TestTime.waitUntil(what, condition);
    }

    static Set<String> ids(int from, int to) {
        Set<String> s = new HashSet<>();
        for (int i = from; i < to; i++) {
            s.add("i" + i);
        }
        return s;
    }

    @Test
    void twoHostsShareTheRangesAndOneKilledLosesNothing() throws Exception {
        assertEquals(4, feed.getFeedRanges().size());
        Map<String, AtomicInteger> delivered = new ConcurrentHashMap<>();
        LeasedChangeFeedProcessor a = processor("host-a", delivered);
        LeasedChangeFeedProcessor b = processor("host-b", delivered);
        a.start();
        b.start();
        await("both hosts own two leases each",
                () -> a.ownedLeases().size() == 2 && b.ownedLeases().size() == 2);
        List<ObjectNode> leaseDocs = new ArrayList<>();
        leases.queryItems("SELECT * FROM c", new CosmosQueryRequestOptions(), ObjectNode.class).forEach(leaseDocs::add);
        assertEquals(4, leaseDocs.size(), "one lease per feed range");
        assertTrue(leaseDocs.stream().allMatch(l -> l.hasNonNull("ContinuationToken") && l.hasNonNull("Owner")));

        Thread writer = new Thread(() -> write(0, 2000));
        writer.start();
        await("some changes delivered", () -> delivered.size() >= 500);
        a.kill(); // mid-stream, no lease released: they must expire before b takes them
        writer.join();
        await("host b owns all four leases", () -> b.ownedLeases().size() == 4);
        await("every change delivered after the kill", () -> delivered.keySet().containsAll(ids(1000, 2000)));
        assertEquals(ids(0, 2000), delivered.keySet(), "nothing else delivered");
        int duplicates = delivered.values().stream().mapToInt(n -> n.get() - 1).sum();
        System.out.println("change feed processor: 2000 changes, " + duplicates + " delivered twice or more");
        assertTrue(duplicates < 2000);
    }

    /**
     * One host at a time, so no lease expiry is needed: stop() releases the leases. Every renewal is late (expiry
     * 1 ms, renewals a minute apart), as the 600 ms expiry was on a machine at load 25 — a flake: the host took its own
     * leases again from their last checkpoints, its idle workers' handled positions were lost, and the release saved
     * positions behind what was delivered. Checkpoints are rare too (a minute), so a host that took its own leases
     * again would deliver the first batch twice: it must keep the leases its workers hold however late it renews.
     */
    @Test
    void aRestartedProcessorResumesFromItsLeasesAfterReopeningTheStore() throws Exception {
        ChangeFeedProcessorOptions everyRenewalLate = fastOptions().setLeaseExpirationInterval(Duration.ofMillis(1))
                .setLeaseRenewInterval(Duration.ofMinutes(1)).setFeedPollDelay(Duration.ofMinutes(1));
        Map<String, AtomicInteger> delivered = new ConcurrentHashMap<>();
        LeasedChangeFeedProcessor a = processor("host-a", delivered, everyRenewalLate);
        a.checkpointInterval(Duration.ofMinutes(1));
        a.start();
        write(0, 300);
        await("first batch delivered", () -> delivered.keySet().containsAll(ids(0, 300)));
        int passes = a.balancingPasses();
        await("three more balancing passes, each seeing every lease expired", () -> a.balancingPasses() >= passes + 3);
        assertEquals(Set.of(1), delivered.values().stream().map(AtomicInteger::get).collect(Collectors.toSet()),
                "each change delivered once: the host kept the leases its workers hold");
        a.stop();
        processors.clear();
        write(300, 500); // written while no processor runs
        client.close();
        openClient(new CosmosClientBuilder().dataDirectory(dir));
        Map<String, AtomicInteger> after = new ConcurrentHashMap<>();
        LeasedChangeFeedProcessor again = processor("host-a2", after, everyRenewalLate);
        again.start();
        write(500, 600);
        await("the changes made while stopped and after the restart delivered",
                () -> after.keySet().containsAll(ids(300, 600)));
        assertFalse(after.keySet().stream().anyMatch(ids(0, 300)::contains),
                "nothing checkpointed before the stop is delivered again");
    }

    @Test
    void aSplitRangeIsContinuedByOneLeasePerChild() throws Exception {
        client.close();
        java.nio.file.Path other = dir.resolve("split");
        client = new CosmosClientBuilder().dataDirectory(other).splitThresholdBytes(64 * 1024).buildClient();
        client.createDatabase("db");
        client.getDatabase("db").createContainer("feed", "/pk");
        client.getDatabase("db").createContainer("leases", "/id");
        feed = client.getDatabase("db").getContainer("feed");
        leases = client.getDatabase("db").getContainer("leases");
        assertEquals(1, feed.getFeedRanges().size());
        Map<String, AtomicInteger> delivered = new ConcurrentHashMap<>();
        LeasedChangeFeedProcessor a = processor("host-a", delivered);
        a.start();
        await("the single lease taken", () -> a.ownedLeases().size() == 1);
        for (int i = 0; i < 400; i++) {
            feed.createItem(M.createObjectNode().put("id", "i" + i).put("pk", "p" + (i % 50)).put("fill", "x".repeat(900)));
        }
        client.coreStore().awaitSplits();
        int ranges = feed.getFeedRanges().size();
        assertTrue(ranges >= 2, "the container split");
        await("one lease per child range", () -> a.ownedLeases().size() == ranges);
        await("every change delivered", () -> delivered.keySet().containsAll(ids(0, 400)));
    }

    @Test
    void allVersionsAndDeletesProcessorSeesDeletes() throws Exception {
        client.getDatabase("db").createContainer(new CosmosContainerProperties("avad", "/pk")
                .setChangeFeedPolicy(ChangeFeedPolicy.createAllVersionsAndDeletesPolicy(Duration.ofHours(1))));
        CosmosContainer avad = client.getDatabase("db").getContainer("avad");
        List<ChangeFeedProcessorItem> seen = java.util.Collections.synchronizedList(new ArrayList<>());
        ChangeFeedProcessor p = new ChangeFeedProcessorBuilder().hostName("h").feedContainer(avad)
                .leaseContainer(leases).options(fastOptions())
                .handleAllVersionsAndDeletesChanges(seen::addAll).buildChangeFeedProcessor();
        processors.add(p);
        p.start();
        await("lease taken", () -> ((LeasedChangeFeedProcessor) p).ownedLeases().size() == 1);
        avad.createItem(M.createObjectNode().put("id", "x").put("pk", "a").put("v", 1));
        avad.deleteItem("x", new PartitionKey("a"), null);
        await("create and delete delivered", () -> seen.size() >= 2);
        assertEquals(ChangeFeedOperationType.CREATE, seen.get(0).getChangeFeedMetaData().getOperationType());
        assertEquals(1, seen.get(0).getCurrent().get("v").asInt());
        ChangeFeedProcessorItem delete = seen.get(1);
        assertEquals(ChangeFeedOperationType.DELETE, delete.getChangeFeedMetaData().getOperationType());
        assertEquals("x", delete.getPrevious().get("id").asText());
        assertEquals(seen.get(0).getChangeFeedMetaData().getLogSequenceNumber(),
                delete.getChangeFeedMetaData().getPreviousLogSequenceNumber());
    }
}

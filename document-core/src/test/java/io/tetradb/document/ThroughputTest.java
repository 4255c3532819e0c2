package io.tetradb.document;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Provisioned throughput and rate limiting through the document API, on a clock the test moves. */
class ThroughputTest {
    static final ObjectMapper M = new ObjectMapper();
    static final long MS = 1_000_000L;
    @TempDir
    Path dir;
    CosmosClient client;
    final AtomicLong clock = new AtomicLong(1_000_000 * MS);

    CosmosClient open(boolean rateLimiting) {
        client = new CosmosClientBuilder().dataDirectory(dir).rateLimiting(rateLimiting).buildClient();
        client.coreStore().rateLimiter().setClock(clock::get);
        return client;
    }

    @AfterEach
    void close() {
        if (client != null) {
            client.close();
        }
    }

    static ObjectNode item(String id, String pk) {
        return M.createObjectNode().put("id", id).put("pk", pk).put("v", "x".repeat(200));
    }

    CosmosContainer container(String db, ThroughputProperties t) {
        client.createDatabase(db);
        client.getDatabase(db).createContainer(new CosmosContainerProperties("c", "/pk"), t);
        return client.getDatabase(db).getContainer("c");
    }

    @Test
    void overBudgetIs429WithSubStatus3200AndRetryAfterBeforeAnyWork() {
        open(true);
        CosmosContainer c = container("db", ThroughputProperties.createManualThroughput(400));
        double spent = 0;
        int i = 0;
        while (spent < 400) {
            spent += c.createItem(item("i" + i++, "k")).getRequestCharge();
        }
        int written = i;
        CosmosException e = assertThrows(CosmosException.class, () -> c.createItem(item("late", "k")));
        assertEquals(429, e.getStatusCode());
        assertEquals(3200, e.getSubStatusCode());
        assertTrue(e.getRetryAfterDuration().toMillis() >= 1, "a retry-after: " + e.getRetryAfterDuration());
        // before any work: the refused item was not written (reads are throttled too, so let time pass first)
        clock.addAndGet(e.getRetryAfterDuration().toMillis() * MS);
        CosmosException missing = assertThrows(CosmosException.class,
                () -> c.readItem("late", new PartitionKey("k"), ObjectNode.class));
        assertEquals(404, missing.getStatusCode());
        clock.addAndGet(2000 * MS);
        assertEquals(written, c.queryItems("SELECT * FROM c", new CosmosQueryRequestOptions(), ObjectNode.class)
                .stream().count());
        // once the retry-after has passed the same request succeeds
        c.createItem(item("late", "k"));
    }

    /** RU admitted by creates in one instant of the clock until the first 429. */
    static double writeUntilThrottled(CosmosContainer c, String prefix) {
        double spent = 0;
        for (int i = 0; ; i++) {
            try {
                spent += c.createItem(item(prefix + i, "k")).getRequestCharge();
            } catch (CosmosException e) {
                assertEquals(429, e.getStatusCode());
                return spent;
            }
        }
    }

    @Test
    void burstCapacitySpendsBankedIdleRuAfterTheBudget() {
        client = new CosmosClientBuilder().dataDirectory(dir).rateLimiting(true).burstCapacity(true).buildClient();
        client.coreStore().rateLimiter().setClock(clock::get);
        CosmosContainer c = container("db", ThroughputProperties.createManualThroughput(400));
        c.createItem(item("first", "k")); // the partition's budget exists from here
        clock.addAndGet(60_000 * MS); // a minute idle banks 60 × 400 RU
        double withBurst = writeUntilThrottled(c, "b");
        assertTrue(withBurst > 2500 && withBurst < 3100, "~3,000 RU in one instant (400 + the 2,600 RU/s burst "
                + "rate): " + withBurst);
        // the same without burst capacity: one second's budget only
        client.coreStore().rateLimiter().setBurstCapacity(false);
        clock.addAndGet(60_000 * MS);
        double without = writeUntilThrottled(c, "n");
        assertTrue(without >= 400 && without < 420, "400 RU/s and the request that crossed it: " + without);
    }

    @Test
    void offByDefaultNothingIsThrottled() {
        open(false);
        CosmosContainer c = container("db", ThroughputProperties.createManualThroughput(400));
        for (int i = 0; i < 200; i++) { // ~1,000 RU in one instant of the clock
            c.createItem(item("i" + i, "k"));
        }
        assertFalse(client.coreStore().rateLimiter().isEnabled());
    }

    @Test
    void eachPhysicalPartitionHasAnEqualShareAndAHotKeyIsThrottledAlone() {
        open(true);
        // 20,000 RU/s: two physical partitions of 10,000 each
        CosmosContainer c = container("db", ThroughputProperties.createManualThroughput(20_000));
        assertEquals(2, c.readPartitionStatistics().physicalPartitions().size());
        var limiter = client.coreStore().rateLimiter();
        var budgets = limiter.budgets(client.coreStore().container("db", "c")).all();
        assertEquals(10_000, budgets.get(0).ruPerSecond(), 1e-9);
        assertEquals(10_000, budgets.get(1).ruPerSecond(), 1e-9);
        String hot = "hot";
        // find a key in the other partition
        var store = client.coreStore().container("db", "c");
        var hotBudget = limiter.budgets(store).route(io.tetradb.core.partition.PartitionKeyValue.of(com.fasterxml.jackson.databind.node.TextNode.valueOf(hot)).epk());
        String cold = null;
        for (int i = 0; cold == null; i++) {
            if (limiter.budgets(store).route(io.tetradb.core.partition.PartitionKeyValue.of(com.fasterxml.jackson.databind.node.TextNode.valueOf("k" + i)).epk()) != hotBudget) {
                cold = "k" + i;
            }
        }
        int n = 0;
        while (true) {
            try {
                c.createItem(item("h" + n++, hot));
            } catch (CosmosException e) {
                assertEquals(429, e.getStatusCode());
                break;
            }
        }
        assertTrue(n > 1000, "about 10,000 RU of writes before the hot partition throttles: " + n);
        c.createItem(item("c1", cold)); // the other partition still has its whole budget
    }

    @Test
    void containersWithoutTheirOwnShareTheDatabaseThroughput() {
        open(true);
        client.createDatabase("shared", ThroughputProperties.createManualThroughput(400));
        client.getDatabase("shared").createContainer(new CosmosContainerProperties("a", "/pk"));
        client.getDatabase("shared").createContainer(new CosmosContainerProperties("b", "/pk"));
        CosmosContainer a = client.getDatabase("shared").getContainer("a");
        CosmosContainer b = client.getDatabase("shared").getContainer("b");
        double spent = 0;
        int i = 0;
        while (spent < 400) {
            spent += a.createItem(item("i" + i++, "k")).getRequestCharge();
        }
        // b has no throughput of its own: a used up what both share
        CosmosException e = assertThrows(CosmosException.class, () -> b.createItem(item("x", "k")));
        assertEquals(429, e.getStatusCode());
        assertEquals(404, assertThrows(CosmosException.class, a::readThroughput).getStatusCode());
        assertEquals(400, client.getDatabase("shared").readThroughput().getProperties().getManualThroughput());
        // raising the database's throughput gives both more at once
        client.getDatabase("shared").replaceThroughput(ThroughputProperties.createManualThroughput(100_000));
        clock.addAndGet(1000 * MS);
        b.createItem(item("x", "k"));
    }

    @Test
    void aContainerWithItsOwnThroughputInASharedDatabaseIsApart() {
        open(true);
        client.createDatabase("shared", ThroughputProperties.createManualThroughput(400));
        client.getDatabase("shared").createContainer(new CosmosContainerProperties("a", "/pk"));
        client.getDatabase("shared").createContainer(new CosmosContainerProperties("own", "/pk"),
                ThroughputProperties.createManualThroughput(1000));
        CosmosContainer a = client.getDatabase("shared").getContainer("a");
        double spent = 0;
        for (int i = 0; spent < 400; i++) {
            spent += a.createItem(item("i" + i, "k")).getRequestCharge();
        }
        client.getDatabase("shared").getContainer("own").createItem(item("x", "k"));
        assertEquals(1000, client.getDatabase("shared").getContainer("own").readThroughput().getProperties()
                .getManualThroughput());
    }

    @Test
    void lowering429sSoonerAndIsImmediate() {
        open(true);
        CosmosContainer c = container("db", ThroughputProperties.createManualThroughput(10_000));
        ThroughputResponse r = c.replaceThroughput(ThroughputProperties.createManualThroughput(400));
        assertFalse(r.isReplacePending());
        assertEquals(400, c.readThroughput().getProperties().getManualThroughput());
        double spent = 0;
        for (int i = 0; spent < 400; i++) {
            spent += c.createItem(item("i" + i, "k")).getRequestCharge();
        }
        assertEquals(429, assertThrows(CosmosException.class, () -> c.createItem(item("x", "k"))).getStatusCode());
    }

    @Test
    void invalidThroughputIs400() {
        open(false);
        CosmosContainer c = container("db", ThroughputProperties.createManualThroughput(400));
        assertEquals(400, assertThrows(CosmosException.class,
                () -> c.replaceThroughput(ThroughputProperties.createManualThroughput(100))).getStatusCode());
        assertEquals(400, assertThrows(CosmosException.class,
                () -> c.replaceThroughput(ThroughputProperties.createAutoscaledThroughput(1500))).getStatusCode());
        assertEquals(400, c.readThroughput().getProperties().getManualThroughput());
    }

    @Test
    void autoscaleGrantsTheMaximumAndReportsTheCurrentLevel() {
        open(true);
        CosmosContainer c = container("db", ThroughputProperties.createAutoscaledThroughput(4000));
        ThroughputResponse idle = c.readThroughput();
        assertNull(idle.getProperties().getManualThroughput());
        assertEquals(4000, idle.getProperties().getAutoscaleMaxThroughput());
        assertEquals(400, idle.getCurrentThroughput(), "idle: 10 % of the maximum");
        double spent = 0;
        for (int i = 0; spent < 2000; i++) { // 2,000 RU in one second: more than 400 RU/s, within 4,000
            spent += c.createItem(item("i" + i, "k")).getRequestCharge();
        }
        clock.addAndGet(1000 * MS);
        int current = c.readThroughput().getCurrentThroughput();
        assertTrue(current >= 2000 && current <= 2100, "scaled to the busiest second: " + current);
        clock.addAndGet(120_000 * MS);
        assertEquals(400, c.readThroughput().getCurrentThroughput(), "back to 10 % after a quiet minute");
    }

    @Test
    void raisingBeyondTenThousandPerPartitionSplitsOnlineWhileWritersRun() throws Exception {
        open(false);
        CosmosContainer c = container("db", ThroughputProperties.createManualThroughput(10_000));
        assertEquals(1, c.readPartitionStatistics().physicalPartitions().size());
        int writers = 4;
        int perWriter = 300;
        Thread[] threads = new Thread[writers];
        java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(writers);
        java.util.List<Throwable> errors = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        for (int w = 0; w < writers; w++) {
            int id = w;
            threads[w] = new Thread(() -> {
                started.countDown();
                try {
                    for (int i = 0; i < perWriter; i++) {
                        c.createItem(item("w" + id + "-" + i, "k" + (i % 50)));
                    }
                } catch (Throwable t) {
                    errors.add(t);
                }
            });
            threads[w].start();
        }
        started.await();
        ThroughputResponse r = c.replaceThroughput(ThroughputProperties.createManualThroughput(30_000));
        assertEquals(30_000, r.getProperties().getManualThroughput());
        client.coreStore().throughput().awaitSplits();
        for (Thread t : threads) {
            t.join();
        }
        assertTrue(errors.isEmpty(), errors.toString());
        assertEquals(3, c.readPartitionStatistics().physicalPartitions().size());
        assertFalse(c.readThroughput().isReplacePending());
        var ids = c.queryItems("SELECT VALUE c.id FROM c", new CosmosQueryRequestOptions(), String.class)
                .stream().toList();
        assertEquals(writers * perWriter, ids.size(), "nothing lost or duplicated");
        assertEquals(writers * perWriter, new java.util.HashSet<>(ids).size());
        long items = c.readPartitionStatistics().physicalPartitions().stream().mapToLong(p -> p.itemCount()).sum();
        assertEquals(writers * perWriter, items);
        // every partition now gets a third of the 30,000
        var budgets = client.coreStore().rateLimiter().budgets(client.coreStore().container("db", "c")).all();
        assertEquals(3, budgets.size());
        budgets.forEach(b -> assertEquals(10_000, b.ruPerSecond(), 1e-9));
        // lowering is immediate and keeps the partitions
        assertFalse(c.replaceThroughput(ThroughputProperties.createManualThroughput(600)).isReplacePending());
        assertEquals(3, c.readPartitionStatistics().physicalPartitions().size());
    }
}

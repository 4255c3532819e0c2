package io.tetradb.cosmos;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.ThroughputProperties;
import com.azure.cosmos.models.ThroughputResponse;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.throughput.PartitionBudget;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rate limiting through the REST face with both real SDKs: a 400 RU/s container, a burst of writes far over budget;
 * the server answers 429 / 3200 with {@code x-ms-retry-after-ms}, the SDKs' built-in throttling retries wait and
 * every write succeeds. Raising throughput past 10,000 RU/s per partition reports the replace as pending.
 */
class RateLimitSdkTest extends ServerFixture {
    @BeforeAll
    void rateLimitingOn() {
        core.coreStore().rateLimiter().setEnabled(true);
    }

    /**
     * The limiter's clock stands still from now until the container has throttled a request, then runs again:
     * a burst is throttled however slowly a loaded machine runs it (on the wall clock a slow burst refills its
     * budget as it goes), and the SDK's retries succeed once the clock runs. Closing puts the real clock back.
     */
    private AutoCloseable clockStoppedUntilThrottled(String db, String container) {
        var limiter = core.coreStore().rateLimiter();
        long stoppedAt = System.nanoTime();
        java.util.concurrent.atomic.AtomicBoolean running = new java.util.concurrent.atomic.AtomicBoolean();
        limiter.setClock(() -> running.get() ? System.nanoTime() : stoppedAt);
        Thread watcher = new Thread(() -> {
            while (!running.get()) {
                try {
                    if (throttled(db, container) > 0) {
                        running.set(true);
                    }
                } catch (RuntimeException notCreatedYet) {
                    // the database or container does not exist yet
                }
                try {
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "throttle-watcher");
        watcher.setDaemon(true);
        watcher.start();
        return () -> {
            running.set(true);
            watcher.join();
            limiter.setClock(System::nanoTime);
        };
    }

    private long throttled(String db, String container) {
        var c = core.coreStore().container(db, container);
        long now = core.coreStore().rateLimiter().now();
        return core.coreStore().rateLimiter().budgets(c).all().stream()
                .mapToLong(b -> b.usage(now, PartitionBudget.WINDOW_SECONDS - 1).throttledTotal()).sum();
    }

    @Test
    void javaSdkRetriesThrottledWritesUntilTheyAllSucceed() throws Exception {
        String db = unique("rl");
        sdk.createDatabase(db);
        sdk.getDatabase(db).createContainer(new CosmosContainerProperties("burst", "/pk"),
                ThroughputProperties.createManualThroughput(400));
        // the SDK's throttling retry, with room for 8 writers that contend for one partition's budget
        com.azure.cosmos.CosmosClient patient = new com.azure.cosmos.CosmosClientBuilder().endpoint(endpoint()).key(KEY)
                .gatewayMode().throttlingRetryOptions(new com.azure.cosmos.ThrottlingRetryOptions()
                        .setMaxRetryAttemptsOnThrottledRequests(1000)
                        .setMaxRetryWaitTime(java.time.Duration.ofSeconds(120))).buildClient();
        CosmosContainer c = patient.getDatabase(db).getContainer("burst");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try (AutoCloseable stopped = clockStoppedUntilThrottled(db, "burst")) {
            List<Future<Integer>> writes = new ArrayList<>();
            for (int i = 0; i < 40; i++) { // 40 writes of 100 KB: about 2,000 RU against 400 RU/s
                ObjectNode item = Json.object().put("id", "n" + i).put("pk", "hot").put("pad", "x".repeat(100_000));
                writes.add(pool.submit(() -> c.createItem(item).getStatusCode()));
            }
            for (Future<Integer> w : writes) {
                assertEquals(201, w.get());
            }
            assertTrue(throttled(db, "burst") > 0, "the burst was throttled and retried");
        } finally {
            pool.shutdown();
            patient.close();
        }
        assertEquals(40, core.coreStore().container(db, "burst").statistics().physicalPartitions().get(0).itemCount());
    }

    @Test
    void javaSdkBulkRetriesTheThrottledOperationsOnly() throws Exception {
        String db = unique("rl");
        sdk.createDatabase(db);
        sdk.getDatabase(db).createContainer(new CosmosContainerProperties("bulk", "/pk"),
                ThroughputProperties.createManualThroughput(400));
        com.azure.cosmos.CosmosClient patient = new com.azure.cosmos.CosmosClientBuilder().endpoint(endpoint()).key(KEY)
                .gatewayMode().throttlingRetryOptions(new com.azure.cosmos.ThrottlingRetryOptions()
                        .setMaxRetryAttemptsOnThrottledRequests(1000)
                        .setMaxRetryWaitTime(java.time.Duration.ofSeconds(120))).buildClient();
        try (AutoCloseable stopped = clockStoppedUntilThrottled(db, "bulk")) {
            CosmosContainer c = patient.getDatabase(db).getContainer("bulk");
            List<com.azure.cosmos.models.CosmosItemOperation> ops = new ArrayList<>();
            for (int i = 0; i < 40; i++) { // 40 creates of 50 KB in two partitions: ~1,000 RU against 400 RU/s
                String pk = i % 2 == 0 ? "even" : "odd";
                ObjectNode item = Json.object().put("id", "b" + i).put("pk", pk).put("pad", "z".repeat(50_000));
                ops.add(com.azure.cosmos.models.CosmosBulkOperations.getCreateItemOperation(item,
                        new com.azure.cosmos.models.PartitionKey(pk)));
            }
            int created = 0;
            for (var r : c.executeBulkOperations(ops)) {
                assertEquals(201, r.getResponse().getStatusCode(), String.valueOf(r.getException()));
                created++;
            }
            assertEquals(40, created);
            assertTrue(throttled(db, "bulk") > 0, "some bulk operations were throttled and retried");
        } finally {
            patient.close();
        }
        assertEquals(40, core.coreStore().container(db, "bulk").statistics().physicalPartitions().get(0).itemCount());
    }

    @Test
    void aThrottledBulkOperationIsItsOwn429WhileTheOthersApply() throws Exception {
        String db = unique("rl");
        sdk.createDatabase(db);
        sdk.getDatabase(db).createContainer(new CosmosContainerProperties("rawbulk", "/pk"),
                ThroughputProperties.createManualThroughput(400));
        RawClient raw = new RawClient(endpoint(), KEY);
        StringBuilder ops = new StringBuilder("[");
        for (int i = 0; i < 10; i++) { // 10 creates of 150 KB (~70 RU each) against 400 RU/s: the last ones wait
            ops.append(i == 0 ? "" : ",").append("{\"operationType\":\"Create\",\"partitionKey\":\"[\\\"p\\\"]\",")
                    .append("\"resourceBody\":{\"id\":\"o").append(i).append("\",\"pk\":\"p\",\"pad\":\"")
                    .append("q".repeat(150_000)).append("\"}}");
        }
        ops.append("]");
        RawClient.Answer a = raw.send("POST", "/dbs/" + db + "/colls/rawbulk/docs", ops.toString(),
                Map.of("x-ms-cosmos-is-batch-request", "True", "x-ms-cosmos-batch-atomic", "False",
                        "Content-Type", "application/json"));
        assertEquals(207, a.status(), a.text());
        int applied = 0;
        int throttledOps = 0;
        for (var r : a.json()) {
            if (r.get("statusCode").asInt() == 201) {
                applied++;
            } else {
                assertEquals(429, r.get("statusCode").asInt(), r.toString());
                assertEquals(3200, r.get("subStatusCode").asInt());
                assertTrue(r.get("retryAfterMilliseconds").asLong() >= 1);
                throttledOps++;
            }
        }
        assertTrue(applied > 0 && throttledOps > 0, a.text().substring(0, Math.min(300, a.text().length())));
        assertEquals(applied, core.coreStore().container(db, "rawbulk").statistics().physicalPartitions().get(0)
                .itemCount());
    }

    @Test
    void a429CarriesSubStatus3200AndRetryAfter() throws Exception {
        String db = unique("rl");
        sdk.createDatabase(db);
        sdk.getDatabase(db).createContainer(new CosmosContainerProperties("raw", "/pk"),
                ThroughputProperties.createManualThroughput(400));
        RawClient raw = new RawClient(endpoint(), KEY);
        RawClient.Answer last = null;
        for (int i = 0; i < 20; i++) { // 500 KB writes (~230 RU): the second or third is over 400 RU/s
            last = raw.send("POST", "/dbs/" + db + "/colls/raw/docs",
                    "{\"id\":\"r" + i + "\",\"pk\":\"a\",\"pad\":\"" + "y".repeat(500_000) + "\"}",
                    Map.of("x-ms-documentdb-partitionkey", "[\"a\"]"));
            if (last.status() == 429) {
                break;
            }
        }
        assertEquals(429, last.status(), last.text());
        assertEquals("3200", last.header("x-ms-substatus"));
        assertTrue(Long.parseLong(last.header("x-ms-retry-after-ms")) >= 1);
        assertEquals("TooManyRequests", last.json().get("code").asText());
    }

    @Test
    void nodeSdkRetriesThrottledWritesUntilTheyAllSucceed() throws Exception {
        String db = unique("rlnode");
        try (AutoCloseable stopped = clockStoppedUntilThrottled(db, "burst")) {
            String out = NodeSdkTest.runScript("cosmos-throttle.mjs", Map.of(), endpoint(), KEY, db);
            assertTrue(out.contains("OK node throttle"), out);
            assertTrue(throttled(db, "burst") > 0, "the burst was throttled and retried: " + out);
        }
    }

    @Test
    void raisingPastTenThousandPerPartitionIsPendingUntilTheSplitsAreDone() throws Exception {
        String db = unique("rl");
        sdk.createDatabase(db);
        sdk.getDatabase(db).createContainer(new CosmosContainerProperties("grow", "/pk"),
                ThroughputProperties.createManualThroughput(10_000));
        CosmosContainer c = sdk.getDatabase(db).getContainer("grow");
        ThroughputResponse r = c.replaceThroughput(ThroughputProperties.createManualThroughput(30_000));
        assertEquals(30_000, (int) r.getProperties().getManualThroughput());
        core.coreStore().throughput().awaitSplits();
        assertEquals(3, core.coreStore().container(db, "grow").partitionMap().partitions().size());
        assertFalse(c.readThroughput().isReplacePending());
        // lowering is immediate
        assertFalse(c.replaceThroughput(ThroughputProperties.createManualThroughput(1000)).isReplacePending());
        assertEquals(1000, (int) c.readThroughput().getProperties().getManualThroughput());
    }

    @Test
    void autoscaleOfferReportsItsMaximumAndCurrentLevel() {
        String db = unique("rl");
        sdk.createDatabase(db);
        sdk.getDatabase(db).createContainer(new CosmosContainerProperties("auto", "/pk"),
                ThroughputProperties.createAutoscaledThroughput(4000));
        ThroughputResponse r = sdk.getDatabase(db).getContainer("auto").readThroughput();
        assertEquals(4000, r.getProperties().getAutoscaleMaxThroughput());
        try {
            sdk.getDatabase(db).getContainer("auto").replaceThroughput(ThroughputProperties.createManualThroughput(100));
            throw new AssertionError("100 RU/s was accepted");
        } catch (CosmosException e) {
            assertEquals(400, e.getStatusCode());
        }
    }
}

package io.tetradb.server.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.CosmosException;
import io.tetradb.document.ThroughputProperties;
import io.tetradb.server.ServerConfig;
import io.tetradb.server.StoreOptions;
import io.tetradb.server.TestHttp;
import io.tetradb.server.TetraDbServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A hot partition key in sight: with {@code --rate-limit on}, a container at 20,000 RU/s (two physical partitions)
 * written on one key; {@code /api/metrics} shows the hot partition over its budget and throttled, the other idle,
 * {@code /metrics} the same as Prometheus text, and the partition page draws it. The bucket clock is the test's.
 */
class ThroughputMetricsRoutesTest {
    static final ObjectMapper M = new ObjectMapper();
    static final long SECOND = 1_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void theHotPartitionIsThrottledAndShownNextToStorage() throws Exception {
        try (TetraDbServer server = new TetraDbServer(ServerConfig.ephemeral(dir),
                StoreOptions.DEFAULTS.withRateLimit(true).withSplitThresholdBytes(1L << 30)).start()) {
            AtomicLong clock = new AtomicLong(1000 * SECOND);
            server.client().coreStore().rateLimiter().setClock(clock::get);
            server.client().createDatabase("shop");
            server.client().getDatabase("shop").createContainer(new CosmosContainerProperties("orders", "/day"),
                    ThroughputProperties.createManualThroughput(20_000));
            CosmosContainer orders = server.client().getDatabase("shop").getContainer("orders");
            int throttled = 0;
            for (int i = 0; throttled < 3; i++) { // one key: everything lands in one partition
                try {
                    orders.createItem(M.createObjectNode().put("id", "o" + i).put("day", "2026-11-26")
                            .put("pad", "x".repeat(50_000)));
                } catch (CosmosException e) {
                    assertEquals(429, e.getStatusCode());
                    throttled++;
                }
            }
            clock.addAndGet(SECOND); // the second is over: the window holds it
            String admin = server.endpoint("admin").url();
            JsonNode metrics = TestHttp.json(TestHttp.get(admin, "/api/metrics"));
            assertEquals(60, metrics.get("windowSeconds").asInt());
            JsonNode c = metrics.get("containers").get(0);
            assertEquals("orders", c.get("container").asText());
            assertEquals(20_000, c.get("throughput").asInt());
            assertTrue(c.get("rateLimiting").asBoolean());
            JsonNode parts = c.get("partitions");
            assertEquals(2, parts.size());
            JsonNode hot = parts.get(0).get("throttled").asLong() > 0 ? parts.get(0) : parts.get(1);
            JsonNode cold = hot == parts.get(0) ? parts.get(1) : parts.get(0);
            assertEquals(10_000, hot.get("budgetRuPerSecond").asDouble());
            assertEquals(3, hot.get("throttled").asLong());
            assertTrue(hot.get("normalizedUtilization").asDouble() >= 1.0, hot.toString());
            assertEquals("[\"2026-11-26\"]", hot.get("topLogicalPartitions").get(0).get("partitionKey").asText());
            assertEquals(0, cold.get("throttled").asLong());
            assertEquals(0, cold.get("hottestSecondRu").asDouble());

            HttpResponse<String> prom = TestHttp.get(admin, "/metrics");
            assertEquals(200, prom.statusCode());
            assertTrue(prom.headers().firstValue("content-type").orElse("").startsWith("text/plain; version=0.0.4"));
            assertTrue(prom.body().contains("# TYPE tetradb_partition_throttled_requests_total counter"), prom.body());
            assertTrue(prom.body().contains("tetradb_partition_throttled_requests_total{database=\"shop\","
                    + "container=\"orders\",partition=\"" + hot.get("name").asText() + "\"} 3"), prom.body());
            assertTrue(prom.body().contains("tetradb_container_provisioned_ru_per_second{database=\"shop\","
                    + "container=\"orders\"} 20000"), prom.body());
            String page = TestHttp.get(admin, "/partitions").body();
            assertTrue(page.contains("api/metrics") && page.contains("normalizedUtilization"));
        }
    }

    @Test
    void splitThresholdOptionSplitsSmallContainers() throws Exception {
        try (TetraDbServer server = new TetraDbServer(ServerConfig.ephemeral(dir),
                StoreOptions.DEFAULTS.withSplitThresholdBytes(64 * 1024)).start()) {
            server.client().createDatabase("db");
            server.client().getDatabase("db").createContainer(new CosmosContainerProperties("c", "/pk"));
            CosmosContainer c = server.client().getDatabase("db").getContainer("c");
            for (int i = 0; i < 100; i++) {
                ObjectNode item = M.createObjectNode().put("id", "i" + i).put("pk", "k" + i).put("pad", "x".repeat(2000));
                c.createItem(item);
            }
            server.client().coreStore().awaitSplits();
            JsonNode parts = TestHttp.json(TestHttp.get(server.endpoint("admin").url(), "/api/partitions"))
                    .get("containers").get(0).get("physicalPartitions");
            assertTrue(parts.size() >= 2, "about 200 KB over a 64 KB threshold split: " + parts.size());
        }
    }
}

package io.tetradb.server.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.store.PartitionStatistics;
import io.tetradb.server.TestHttp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The admin endpoint against stand-in statistics: failures and the JSON mapping. */
@Timeout(600) // a hung test's bound, above the waits on TestTime's patience (2 min)
class AdminHttpServerTest {

    @Test
    void failingHandlerGives500AndTheServerKeepsServing() {
        AtomicBoolean fail = new AtomicBoolean(true);
        AdminHttpServer server = AdminHttpServer.start(InetAddress.getLoopbackAddress(), 0, () -> {
            if (fail.get()) {
                throw new IllegalStateException("store unavailable");
            }
            return List.of();
        });
        try {
            HttpResponse<String> r = TestHttp.get(server.url(), "/api/partitions");
            assertEquals(500, r.statusCode());
            assertEquals("application/json", TestHttp.contentType(r));
            JsonNode body = TestHttp.json(r);
            assertEquals("InternalServerError", body.get("code").asText());
            assertEquals("store unavailable", body.get("message").asText());

            assertEquals(200, TestHttp.get(server.url(), "/health").statusCode());
            fail.set(false);
            assertEquals("{\"containers\":[]}", TestHttp.get(server.url(), "/api/partitions").body());
        } finally {
            server.close();
        }
    }

    @Test
    void healthIsAReadinessCheckOverTheFaces() {
        Readiness readiness = new Readiness(List.of("admin", "gremlin", "mongo"));
        AdminHttpServer server = AdminHttpServer.start(InetAddress.getLoopbackAddress(), 0, List::of, readiness);
        try {
            readiness.listening("admin", server.url());
            readiness.listening("mongo", "mongodb://127.0.0.1:1");
            HttpResponse<String> starting = TestHttp.get(server.url(), "/health");
            assertEquals(503, starting.statusCode());
            JsonNode body = TestHttp.json(starting);
            assertEquals("starting", body.get("status").asText());
            assertEquals("gremlin", body.get("faces").get(1).get("name").asText());
            assertEquals("starting", body.get("faces").get(1).get("state").asText());
            assertTrue(body.get("faces").get(1).get("url").isNull());
            assertEquals("listening", body.get("faces").get(2).get("state").asText());

            readiness.listening("gremlin", "ws://127.0.0.1:2/gremlin");
            HttpResponse<String> ready = TestHttp.get(server.url(), "/health");
            assertEquals(200, ready.statusCode());
            assertEquals("ok", TestHttp.json(ready).get("status").asText());
            assertEquals("ws://127.0.0.1:2/gremlin", TestHttp.json(ready).get("faces").get(1).get("url").asText());
            JsonNode memory = TestHttp.json(ready).get("memory");
            long heapMax = Runtime.getRuntime().maxMemory();
            assertTrue(memory.get("rssBytes").asLong() > memory.get("heapUsedBytes").asLong() / 2, memory.toString());
            assertTrue(memory.get("heapUsedBytes").asLong() > 0);
            assertTrue(memory.get("heapCommittedBytes").asLong() >= memory.get("heapUsedBytes").asLong());
            assertEquals(heapMax, memory.get("heapMaxBytes").asLong());
            assertTrue(List.of("VmRSS", "jvm-committed").contains(memory.get("rssSource").asText()));

            readiness.stopping();
            HttpResponse<String> stopping = TestHttp.get(server.url(), "/health");
            assertEquals(503, stopping.statusCode());
            assertEquals("stopping", TestHttp.json(stopping).get("status").asText());
        } finally {
            server.close();
        }
    }

    @Test
    void aFaceThatFailedToStartLeavesTheServerUnready() {
        Readiness readiness = new Readiness(List.of("admin", "table"));
        readiness.listening("admin", "http://x");
        readiness.failed("table");
        assertEquals("failed", readiness.report().status());
        assertEquals(false, readiness.report().ready());
    }

    @Test
    void reportMapsEveryFieldAndFlagsNearLimit() {
        PartitionStatistics.Logical big = new PartitionStatistics.Logical(TextNode.valueOf("tenant-1"), "0A1B", 900, 9, true);
        PartitionStatistics.Logical small = new PartitionStatistics.Logical(TextNode.valueOf("tenant-2"), "2C3D", 100, 1, false);
        PartitionStatistics stats = new PartitionStatistics("db", "c", List.of("/tenant"), 1000, 5000, List.of(
                new PartitionStatistics.Physical(0, "", "20", 1000, 10, 2, List.of(big, small)),
                new PartitionStatistics.Physical(1, "20", "FF", 0, 0, 0, List.of())));

        JsonNode json = HttpResponses.JSON.valueToTree(PartitionsReport.of(List.of(stats)));

        JsonNode c = json.get("containers").get(0);
        assertEquals("db", c.get("database").asText());
        assertEquals("c", c.get("container").asText());
        assertEquals("/tenant", c.get("partitionKeyPaths").get(0).asText());
        assertEquals(1000, c.get("limits").get("logicalPartitionLimitBytes").asLong());
        assertEquals(5000, c.get("limits").get("splitThresholdBytes").asLong());
        assertEquals(1000, c.get("bytes").asLong());
        assertEquals(10, c.get("itemCount").asLong());
        JsonNode p0 = c.get("physicalPartitions").get(0);
        assertEquals(0, p0.get("id").asInt());
        assertEquals("", p0.get("minInclusive").asText());
        assertEquals("20", p0.get("maxExclusive").asText());
        assertEquals(2, p0.get("logicalPartitionCount").asLong());
        JsonNode top = p0.get("largestLogicalPartitions").get(0);
        assertEquals("tenant-1", top.get("partitionKey").asText());
        assertEquals("0A1B", top.get("epk").asText());
        assertEquals(900, top.get("bytes").asLong());
        assertEquals(9, top.get("itemCount").asLong());
        assertTrue(top.get("nearLimit").asBoolean());
        assertEquals(false, p0.get("largestLogicalPartitions").get(1).get("nearLimit").asBoolean());
        assertEquals("FF", c.get("physicalPartitions").get(1).get("maxExclusive").asText());
    }
}

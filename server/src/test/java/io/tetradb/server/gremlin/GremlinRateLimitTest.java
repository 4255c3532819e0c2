package io.tetradb.server.gremlin;

import io.tetradb.server.ServerConfig;
import io.tetradb.server.StoreOptions;
import io.tetradb.server.TestGremlin;
import io.tetradb.server.TetraDbServer;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.exception.ResponseException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With {@code --rate-limit on}, a graph whose partition has spent its RU/s answers as Cosmos DB's Gremlin API does:
 * status attributes {@code x-ms-status-code: 429}, {@code x-ms-substatus-code: 3200} and {@code x-ms-retry-after-ms}
 * as a TimeSpan; through TinkerPop's Java driver.
 */
class GremlinRateLimitTest {
    @TempDir
    static Path dataDir;
    static TetraDbServer server;
    static Cluster cluster;
    static Client client;

    @BeforeAll
    static void start() {
        server = new TetraDbServer(ServerConfig.ephemeral(dataDir).withGremlinPort(0)
                .withGraphs(List.of(GraphSpec.parse("hot=hotdb/hot/pk"),
                        GraphSpec.parse("cached=cachedb/cached/pk"))), StoreOptions.DEFAULTS.withRateLimit(true))
                .start();
        GremlinEndpoint gremlin = (GremlinEndpoint) server.endpoint("gremlin");
        cluster = TestGremlin.cluster(gremlin.address())
                .create();
        client = cluster.connect();
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aThrottledTraversalCarriesCosmosStatusAttributes() {
        ExecutionException failed = assertThrows(ExecutionException.class, () -> {
            for (int i = 0; i < 200; i++) { // 200 KB vertices (~94 RU) in one partition: 400 RU/s spent within a few
                client.submit("g_hot.addV('p').property('pk','a').property('pad', 'x' * 200000)").all().get();
            }
        });
        ResponseException e = assertInstanceOf(ResponseException.class, failed.getCause());
        Map<String, Object> attributes = e.getStatusAttributes().orElseThrow();
        assertEquals(429L, ((Number) attributes.get("x-ms-status-code")).longValue(), attributes.toString());
        assertEquals(3200L, ((Number) attributes.get("x-ms-substatus-code")).longValue());
        String retryAfter = (String) attributes.get("x-ms-retry-after-ms");
        assertTrue(retryAfter.matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{7}"), retryAfter);
        assertTrue(attributes.containsKey("x-ms-request-charge"), attributes.toString());
        assertTrue(e.getMessage().contains("Request rate is large"), e.getMessage());
    }

    @Test
    void readsAnsweredFromTheGraphsCachePayTheBudgetToo() throws Exception {
        client.submit("g_cached.addV('p').property('pk','r').property(id,'v1').property('name','x')").all().get();
        // each read is a cache hit of the graph's exact item cache (1 RU): faster than the container's 400 RU/s
        // refill, so the budget is spent within a few thousand reads unless hits skip it
        ExecutionException failed = assertThrows(ExecutionException.class, () -> {
            for (int i = 0; i < 20_000; i++) {
                client.submit("g_cached.V(['r','v1']).values('name')").all().get();
            }
        });
        ResponseException e = assertInstanceOf(ResponseException.class, failed.getCause());
        Map<String, Object> attributes = e.getStatusAttributes().orElseThrow();
        assertEquals(429L, ((Number) attributes.get("x-ms-status-code")).longValue(), attributes.toString());
    }
}

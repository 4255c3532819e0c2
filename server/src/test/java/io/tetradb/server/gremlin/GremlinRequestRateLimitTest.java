package io.tetradb.server.gremlin;

import io.tetradb.core.net.ConnectionLimits;
import io.tetradb.server.ServerConfig;
import io.tetradb.server.ServerLimits;
import io.tetradb.server.TestGremlin;
import io.tetradb.server.TetraDbServer;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.exception.ResponseException;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --max-requests-per-second} through TinkerPop's Java driver (one connection), on a clock the test moves: past
 * the rate a request gets status 429 TOO_MANY_REQUESTS and is not run; once the clock has moved a second the same
 * connection is served again.
 */
class GremlinRequestRateLimitTest {
    private static final int RATE = 20;
    @TempDir
    Path dataDir;

    @Test
    void aConnectionOverTheRateGets429AndIsServedAgainOnceTheSecondHasPassed() throws Exception {
        AtomicLong clock = new AtomicLong(3_000_000_000L);
        ConnectionLimits limits = ConnectionLimits.defaults().withMaxRequestsPerSecond(RATE).withClock(clock::get);
        try (TetraDbServer server = new TetraDbServer(ServerConfig.ephemeral(dataDir).withGremlinPort(0)
                .withGraphs(List.of(GraphSpec.parse("g=rdb/rg/pk"))), new ServerLimits(null, limits, null, null))
                .start()) {
            GremlinEndpoint gremlin = (GremlinEndpoint) server.endpoint("gremlin");
            Cluster cluster = TestGremlin.cluster(gremlin.address()).minConnectionPoolSize(1).maxConnectionPoolSize(1)
                    .create();
            try {
                Client client = cluster.connect();
                ResponseException refused = null;
                int added = 0;
                for (int i = 0; i < 10 * RATE && refused == null; i++) {
                    try {
                        client.submit("g.addV('p').property('pk','a').property('n'," + i + ")").all().get();
                        added++;
                    } catch (ExecutionException e) {
                        refused = assertInstanceOf(ResponseException.class, e.getCause());
                    }
                }
                assertNotNull(refused, "more than " + RATE + " requests in one second were all served");
                assertEquals(ResponseStatusCode.TOO_MANY_REQUESTS, refused.getResponseStatusCode());
                assertTrue(refused.getMessage().contains("Rate limiting"), refused.getMessage());
                long retryAfter = Long.parseLong((String) refused.getStatusAttributes().orElseThrow()
                        .get("x-ms-retry-after-ms"));
                assertTrue(retryAfter >= 1 && retryAfter <= 1000, "retry after " + retryAfter);
                assertTrue(added > 0 && added <= RATE, "added " + added);

                clock.addAndGet(1_000_000_000L);
                client.submit("g.addV('p').property('pk','a').property('n','after')").all().get();
                clock.addAndGet(1_000_000_000L);
                long count = client.submit("g.V().count()").one().getLong();
                assertEquals(added + 1, count, "the refused request was not run");
            } finally {
                cluster.close();
            }
        }
    }
}

package io.tetradb.cosmos;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.GatewayConnectionConfig;
import com.azure.cosmos.ThrottlingRetryOptions;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import io.tetradb.core.net.ConnectionLimits;
import io.tetradb.core.storage.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --max-requests-per-second} through the azure-cosmos Java SDK (gateway mode, one connection, throttling
 * retries off so the refusal is seen), on a clock the test moves: past the rate a request gets 429 / 3200 with the
 * Cosmos error body and {@code x-ms-retry-after-ms}, and is not run; once the clock has moved a second the client
 * is served again.
 */
class RequestRateLimitTest {
    static {
        System.setProperty("COSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED", "true");
    }

    private static final int RATE = 20;
    @TempDir
    Path dir;

    @Test
    void aConnectionOverTheRateGets429AndIsServedAgainOnceTheSecondHasPassed() {
        AtomicLong clock = new AtomicLong(7_000_000_000L);
        try (io.tetradb.document.CosmosClient store = new io.tetradb.document.CosmosClientBuilder().dataDirectory(dir)
                .durability(Durability.ASYNC).buildClient();
             CosmosHttpServer server = CosmosHttpServer.start(InetAddress.getLoopbackAddress(), 0, store,
                     CosmosRestOptions.defaults(),
                     ConnectionLimits.defaults().withMaxRequestsPerSecond(RATE).withClock(clock::get))) {
            GatewayConnectionConfig oneConnection = new GatewayConnectionConfig().setMaxConnectionPoolSize(1);
            try (CosmosClient sdk = new CosmosClientBuilder()
                    .endpoint("http://localhost:" + server.address().getPort()).key(CosmosRestOptions.EMULATOR_KEY)
                    .gatewayMode(oneConnection)
                    .throttlingRetryOptions(new ThrottlingRetryOptions().setMaxRetryAttemptsOnThrottledRequests(0))
                    .buildClient()) {
                sdk.createDatabaseIfNotExists("rate");
                sdk.getDatabase("rate").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"));
                clock.addAndGet(1_000_000_000L); // a fresh second for the writes
                CosmosContainer c = sdk.getDatabase("rate").getContainer("c");
                CosmosException refused = null;
                int written = 0;
                for (int i = 0; i < 10 * RATE && refused == null; i++) {
                    try {
                        c.createItem(Map.of("id", "i" + i, "pk", "p"));
                        written++;
                    } catch (CosmosException e) {
                        refused = e;
                    }
                }
                assertNotNull(refused, "more than " + RATE + " requests in one second were all served");
                assertEquals(429, refused.getStatusCode(), refused.getMessage());
                assertEquals(3200, refused.getSubStatusCode());
                assertTrue(refused.getMessage().contains("TooManyRequests"), refused.getMessage());
                long retryAfter = refused.getRetryAfterDuration().toMillis();
                assertTrue(retryAfter >= 1 && retryAfter <= 1000, "retry after " + retryAfter);
                assertTrue(written > 0 && written <= RATE, "written " + written);

                clock.addAndGet(1_000_000_000L);
                c.createItem(Map.of("id", "after", "pk", "p"));
                clock.addAndGet(1_000_000_000L);
                long stored = c.queryItems("SELECT VALUE COUNT(1) FROM c", new CosmosQueryRequestOptions(),
                        Long.class).stream().findFirst().orElseThrow();
                assertEquals(written + 1, stored, "the refused write was not run");
            }
        }
    }
}

package io.tetradb.table.http;

import com.azure.core.http.policy.ExponentialBackoffOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableServiceException;
import io.tetradb.core.storage.Durability;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.core.net.ConnectionLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --max-requests-per-second} through the Azure Tables Java SDK, on a clock the test moves: past the rate a
 * request gets 429 {@code TooManyRequests} with the Tables error body and {@code x-ms-retry-after-ms}, and is not
 * run; once the clock has moved a second the client is served again.
 */
class RequestRateLimitTest {
    private static final int RATE = 20;
    @TempDir
    Path dir;

    @Test
    void aConnectionOverTheRateGets429AndIsServedAgainOnceTheSecondHasPassed() {
        AtomicLong clock = new AtomicLong(5_000_000_000L);
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).durability(Durability.ASYNC)
                .buildClient();
             TableHttpServer server = TableHttpServer.start(InetAddress.getLoopbackAddress(), 0, store,
                     ConnectionLimits.defaults().withMaxRequestsPerSecond(RATE).withClock(clock::get),
                     TableHttpServer.MAX_BODY_BYTES)) {
            String cs = "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey="
                    + SharedKeyAuth.DEV_KEY + ";TableEndpoint=http://127.0.0.1:" + server.address().getPort()
                    + "/devstoreaccount1;";
            TableServiceClient service = new TableServiceClientBuilder().connectionString(cs)
                    .retryOptions(new RetryOptions(new ExponentialBackoffOptions().setMaxRetries(0)))
                    .buildClient();
            service.createTable("rate");
            TableClient table = service.getTableClient("rate");
            TableServiceException refused = null;
            int written = 0;
            for (int i = 0; i < 10 * RATE && refused == null; i++) {
                try {
                    table.upsertEntity(new TableEntity("p", "r" + i));
                    written++;
                } catch (TableServiceException e) {
                    refused = e;
                }
            }
            assertNotNull(refused, "more than " + RATE + " requests in one second were all served");
            assertEquals(429, refused.getResponse().getStatusCode());
            assertEquals("TooManyRequests", refused.getValue().getErrorCode().toString());
            assertEquals("TooManyRequests", refused.getResponse().getHeaderValue("x-ms-error-code"));
            long retryAfter = Long.parseLong(refused.getResponse().getHeaderValue("x-ms-retry-after-ms"));
            assertTrue(retryAfter >= 1 && retryAfter <= 1000, "retry after " + retryAfter);

            clock.addAndGet(1_000_000_000L);
            table.upsertEntity(new TableEntity("p", "after"));
            clock.addAndGet(1_000_000_000L);
            long stored = table.listEntities().stream().count();
            assertEquals(written + 1, stored, "the refused write was not run");
        }
    }
}

package io.tetradb.table.http;

import com.azure.core.http.policy.ExponentialBackoffOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableServiceException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rate limiting through the Tables endpoint with the Azure Tables Java SDK: a table has Cosmos DB's default
 * 400 RU/s; over it the answer is 429 {@code TooManyRequests} with the Tables error body and
 * {@code x-ms-retry-after-ms}, which the SDK's retry policy waits for until every write succeeds.
 */
class SdkRateLimitTest extends SdkTestBase {
    @BeforeAll
    void rateLimitingOn() {
        cosmos.coreStore().rateLimiter().setEnabled(true);
    }

    private TableClient client(int maxRetries) {
        return new TableServiceClientBuilder().connectionString(connectionString(KEY))
                .retryOptions(new RetryOptions(new ExponentialBackoffOptions().setMaxRetries(maxRetries)
                        .setBaseDelay(Duration.ofMillis(10)).setMaxDelay(Duration.ofSeconds(2))))
                .buildClient().getTableClient("burst");
    }

    /** About 300 KB (ten 30 KB strings): about 140 RU to write. */
    private static TableEntity entity(String row) {
        TableEntity e = new TableEntity("hot", row);
        for (int i = 0; i < 10; i++) {
            e.addProperty("pad" + i, "x".repeat(30_000));
        }
        return e;
    }

    @Test
    void overBudgetIs429WithTheTablesErrorBodyAndRetryAfter() {
        service.createTableIfNotExists("burst");
        TableClient noRetries = client(0);
        TableServiceException e = assertThrows(TableServiceException.class, () -> {
            for (int i = 0; i < 200; i++) {
                noRetries.upsertEntity(entity("r" + i));
            }
        });
        assertEquals(429, e.getResponse().getStatusCode());
        assertEquals("TooManyRequests", e.getValue().getErrorCode().toString());
        assertEquals("TooManyRequests", e.getResponse().getHeaderValue("x-ms-error-code"));
        assertTrue(Long.parseLong(e.getResponse().getHeaderValue("x-ms-retry-after-ms")) >= 1);
    }

    @Test
    void theSdksRetryPolicyWaitsAndEveryWriteSucceeds() throws Exception {
        service.createTableIfNotExists("burst2");
        TableClient patient = new TableServiceClientBuilder().connectionString(connectionString(KEY))
                .retryOptions(new RetryOptions(new ExponentialBackoffOptions().setMaxRetries(200)
                        .setBaseDelay(Duration.ofMillis(10)).setMaxDelay(Duration.ofSeconds(2))))
                .buildClient().getTableClient("burst2");
        var container = cosmos.coreStore().container("devstoreaccount1", "burst2");
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<?>> writes = new ArrayList<>();
            for (int i = 0; i < 15; i++) { // 15 entities of 300 KB: about 2,100 RU against 400 RU/s
                String row = "r" + i;
                writes.add(pool.submit(() -> patient.upsertEntity(entity(row))));
            }
            for (Future<?> w : writes) {
                w.get();
            }
        } finally {
            pool.shutdown();
        }
        long now = cosmos.coreStore().rateLimiter().now();
        long throttled = cosmos.coreStore().rateLimiter().budgets(container).all().stream()
                .mapToLong(b -> b.usage(now, 10).throttledTotal()).sum();
        assertTrue(throttled > 0, "the SDK was throttled and retried");
        assertEquals(15, patient.listEntities().stream().count());
    }
}

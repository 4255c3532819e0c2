package io.tetradb.cosmos;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.core.cancel.CallStop;
import io.tetradb.core.net.ConnectionLimits;
import io.tetradb.core.net.NanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Cosmos REST face's request time limit ({@link ConnectionLimits#requestTimeLimit}, the server's
 * {@code --request-time-limit-ms}) stops a query inside its one core call: 408 RequestTimeout with Cosmos DB's error
 * body, through the azure-cosmos SDK. A filter no index serves over 3,000 items is one page that reads them all; the
 * server's clock is frozen and moves 1 ms at each of the core's polls (every 64 rows): a row-count trigger, no timers.
 * Before, the page read every item and answered (empty), whatever the limit.
 */
class RequestTimeLimitSdkTest extends ServerFixture {
    private static final int ITEMS = 3_000;
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final AtomicInteger polls = new AtomicInteger();

    @Override
    void startOn(Path data) {
        core = new io.tetradb.document.CosmosClientBuilder().dataDirectory(data).buildClient();
        NanoClock frozen = nanos::get;
        server = CosmosHttpServer.start(InetAddress.getLoopbackAddress(), 0, core, options(),
                ConnectionLimits.defaults().withClock(frozen).withRequestTimeLimit(Duration.ofMillis(20)));
        sdk = client(KEY);
    }

    @AfterEach
    void noHook() {
        CallStop.pollHook(null);
    }

    @Test
    void aQueryPastTheLimitIs408InsideItsOnePage() throws Exception {
        sdk.createDatabaseIfNotExists("tl");
        sdk.getDatabase("tl").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"));
        ObjectMapper m = new ObjectMapper();
        io.tetradb.document.CosmosContainer direct = core.getDatabase("tl").getContainer("c");
        for (int i = 0; i < ITEMS; i++) {
            direct.createItem(m.readTree("{\"id\":\"i" + i + "\",\"pk\":\"p\",\"n\":" + i + "}"));
        }
        CosmosContainer c = sdk.getDatabase("tl").getContainer("c");
        CosmosQueryRequestOptions inP = new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey("p"));
        String sql = "SELECT * FROM c WHERE c.n * 2 = -1";
        assertEquals(0, c.queryItems(sql, inP, JsonNode.class).stream().count(), "with the clock still: answered");

        CallStop.pollHook(() -> {
            if (Thread.currentThread().getName().startsWith("cosmos-request-")) {
                polls.incrementAndGet();
                nanos.addAndGet(1_000_000);
            }
        });
        CosmosException e = assertThrows(CosmosException.class,
                () -> c.queryItems(sql, inP, JsonNode.class).stream().count());
        assertEquals(408, e.getStatusCode(), e.getMessage());
        assertTrue(e.getMessage().contains("The request exceeded its time limit and was stopped."), e.getMessage());
        assertTrue(e.getMessage().contains("RequestTimeout"), e.getMessage());
        // 20 polls a request (≈ 1,280 of 3,000 items), however often the SDK retried it
        assertEquals(0, polls.get() % 20, "polls: " + polls.get());
        assertTrue(polls.get() < ITEMS / 64 * 3, "polls: " + polls.get());

        CosmosException all = assertThrows(CosmosException.class, () -> c.queryItems(sql,
                new CosmosQueryRequestOptions(), JsonNode.class).stream().count());
        assertEquals(408, all.getStatusCode(), "a cross-partition query's page too");

        CallStop.pollHook(null);
        assertEquals(ITEMS, c.queryItems("SELECT VALUE COUNT(1) FROM c", inP, Integer.class).stream()
                .findFirst().orElseThrow(), "the server serves on; nothing changed");
    }
}

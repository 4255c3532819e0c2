package io.tetradb.document;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.partition.PartitionKeyValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Consistency levels as Cosmos DB has them: the account's default ({@link CosmosClientBuilder#consistencyLevel}),
 * request overrides that may only weaken it (a stronger one is 400), and strong / bounded-staleness reads (point
 * reads, queries, the change feed) charged twice, to the response and to the partition's budget (on a clock the test
 * moves).
 */
class ConsistencyLevelTest {
    static final ObjectMapper M = new ObjectMapper();
    static final long MS = 1_000_000L;
    @TempDir
    Path dir;
    CosmosClient client;
    final AtomicLong clock = new AtomicLong(1_000_000 * MS);

    CosmosContainer open(ConsistencyLevel account) {
        client = new CosmosClientBuilder().dataDirectory(dir).rateLimiting(true).consistencyLevel(account)
                .buildClient();
        client.coreStore().rateLimiter().setClock(clock::get);
        client.createDatabase("db");
        client.getDatabase("db").createContainer(new CosmosContainerProperties("c", "/pk"),
                ThroughputProperties.createManualThroughput(400));
        CosmosContainer c = client.getDatabase("db").getContainer("c");
        for (int i = 0; i < 3; i++) {
            c.createItem(M.createObjectNode().put("id", "i" + i).put("pk", "k").put("v", "x".repeat(200)));
        }
        return c;
    }

    @AfterEach
    void close() {
        if (client != null) {
            client.close();
        }
    }

    static CosmosItemRequestOptions at(ConsistencyLevel level) {
        return new CosmosItemRequestOptions().setConsistencyLevel(level);
    }

    /** Point reads of one item at {@code level} in one instant of the clock, from a full bucket, until the 429. */
    int readsUntilThrottled(CosmosContainer c, ConsistencyLevel level) {
        clock.addAndGet(2_000 * MS); // the bucket refills to one second of 400 RU/s
        for (int n = 0; ; n++) {
            try {
                c.readItem("i0", new PartitionKey("k"), at(level), ObjectNode.class);
            } catch (CosmosException e) {
                assertEquals(429, e.getStatusCode());
                return n;
            }
        }
    }

    double queryCharge(CosmosContainer c, ConsistencyLevel level) {
        double charge = 0;
        for (FeedResponse<ObjectNode> page : c.queryItems("SELECT * FROM c", new CosmosQueryRequestOptions()
                .setConsistencyLevel(level), ObjectNode.class).iterableByPage()) {
            charge += page.getRequestCharge();
        }
        return charge;
    }

    double feedCharge(CosmosContainer c) {
        double charge = 0;
        for (FeedResponse<ObjectNode> page : c.queryChangeFeed(CosmosChangeFeedRequestOptions
                .createForProcessingFromBeginning(FeedRange.forFullRange()), ObjectNode.class).iterableByPage()) {
            charge += page.getRequestCharge();
        }
        return charge;
    }

    @Test
    void strongAccountChargesReadsTwiceAndDrainsTheBudgetTwiceAsFast() {
        CosmosContainer c = open(ConsistencyLevel.STRONG);
        clock.addAndGet(2_000 * MS);
        assertEquals(2.0, c.readItem("i0", new PartitionKey("k"), ObjectNode.class).getRequestCharge());
        assertEquals(1.0, c.readItem("i0", new PartitionKey("k"), at(ConsistencyLevel.EVENTUAL), ObjectNode.class)
                .getRequestCharge(), "a weaker level is accepted and charged once");
        assertEquals(2.0, c.readItem("i0", new PartitionKey("k"), at(ConsistencyLevel.BOUNDED_STALENESS),
                ObjectNode.class).getRequestCharge());
        // a face without levels of its own (Mongo, Tables, Gremlin read through this) follows the account
        assertEquals(2.0, client.coreStore().container("db", "c").read(PartitionKeyValue.of(com.fasterxml.jackson.databind.node.TextNode.valueOf("k")), "i0", null)
                .requestCharge());

        double strongQuery = queryCharge(c, null);
        double eventualQuery = queryCharge(c, ConsistencyLevel.EVENTUAL);
        assertEquals(2 * eventualQuery, strongQuery, 0.011);
        double strongFeed = feedCharge(c);
        client.coreStore().consistency().setDefaultLevel(io.tetradb.core.consistency.ConsistencyLevel.SESSION);
        double sessionFeed = feedCharge(c);
        assertEquals(2 * sessionFeed, strongFeed, 0.011);
        client.coreStore().consistency().setDefaultLevel(io.tetradb.core.consistency.ConsistencyLevel.STRONG);

        // the limiter sees the doubled charge: a 400 RU/s bucket serves ~200 strong reads of 2 RU, ~400 of 1 RU
        int strong = readsUntilThrottled(c, null);
        int eventual = readsUntilThrottled(c, ConsistencyLevel.EVENTUAL);
        assertTrue(strong >= 199 && strong <= 201, "strong reads until the 429: " + strong);
        assertTrue(eventual >= 399 && eventual <= 401, "eventual reads until the 429: " + eventual);
    }

    @Test
    void requestsMayOnlyWeakenTheAccountLevel() {
        CosmosContainer c = open(ConsistencyLevel.SESSION);
        clock.addAndGet(2_000 * MS);
        for (ConsistencyLevel stronger : new ConsistencyLevel[]{ConsistencyLevel.STRONG,
                ConsistencyLevel.BOUNDED_STALENESS}) {
            CosmosException e = assertThrows(CosmosException.class,
                    () -> c.readItem("i0", new PartitionKey("k"), at(stronger), ObjectNode.class));
            assertEquals(400, e.getStatusCode());
            assertTrue(e.getMessage().contains("ConsistencyLevel " + stronger.core().cosmosName() + " specified in "
                    + "the request is invalid when service is configured with consistency level Session"),
                    e.getMessage());
            CosmosException q = assertThrows(CosmosException.class, () -> queryCharge(c, stronger));
            assertEquals(400, q.getStatusCode());
        }
        for (ConsistencyLevel weaker : new ConsistencyLevel[]{ConsistencyLevel.SESSION,
                ConsistencyLevel.CONSISTENT_PREFIX, ConsistencyLevel.EVENTUAL}) {
            assertEquals(1.0, c.readItem("i0", new PartitionKey("k"), at(weaker), ObjectNode.class)
                    .getRequestCharge());
        }
        assertEquals(1.0, c.readItem("i0", new PartitionKey("k"), ObjectNode.class).getRequestCharge(),
                "session reads are charged once");
    }
}

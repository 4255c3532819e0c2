package io.tetradb.cosmos;

import com.azure.cosmos.ConsistencyLevel;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.throughput.PartitionBudget;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Consistency levels through the REST face with the real azure-cosmos SDK: the account document reports the server's
 * default level; reads at Strong cost twice the RU and drain the partition's budget twice as fast; a request level
 * stronger than the account's is 400 with Cosmos DB's message, a weaker one is accepted and charged once.
 */
class ConsistencySdkTest extends ServerFixture {
    final AtomicLong clock = new AtomicLong(1_000_000_000_000L);

    @AfterEach
    void backToSession() {
        core.coreStore().consistency().setDefaultLevel(io.tetradb.core.consistency.ConsistencyLevel.SESSION);
    }

    /** A client that takes the account's level (no level of its own), as an application usually does. */
    CosmosClient accountLevelClient() {
        return new CosmosClientBuilder().endpoint(endpoint()).key(KEY).gatewayMode().buildClient();
    }

    CosmosContainer container(CosmosClient client, String db) {
        sdk.createDatabase(db);
        sdk.getDatabase(db).createContainer(new CosmosContainerProperties("c", "/pk"));
        CosmosContainer c = client.getDatabase(db).getContainer("c");
        for (int i = 0; i < 3; i++) {
            c.createItem(Json.object().put("id", "i" + i).put("pk", "k").put("v", "x".repeat(200)));
        }
        return c;
    }

    double queryCharge(CosmosContainer c, ConsistencyLevel level) {
        CosmosQueryRequestOptions o = new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey("k"));
        if (level != null) {
            o.setConsistencyLevel(level);
        }
        double charge = 0;
        for (FeedResponse<ObjectNode> page : c.queryItems("SELECT * FROM c", o, ObjectNode.class).iterableByPage()) {
            charge += page.getRequestCharge();
        }
        return charge;
    }

    PartitionBudget budget(String db) {
        var store = core.coreStore().container(db, "c");
        return core.coreStore().rateLimiter().budgets(store).all().get(0);
    }

    @Test
    void strongAccountIsReportedAndChargesReadsTwiceToTheResponseAndTheBudget() throws Exception {
        core.coreStore().consistency().setDefaultLevel(io.tetradb.core.consistency.ConsistencyLevel.STRONG);
        RawClient.Answer account = new RawClient(endpoint(), KEY).send("GET", "/", null, Map.of());
        assertEquals("Strong", account.json().path("userConsistencyPolicy").path("defaultConsistencyLevel").asText());
        try (CosmosClient client = accountLevelClient()) {
            String db = unique("strong");
            CosmosContainer c = container(client, db);
            assertEquals(2.0, c.readItem("i0", new PartitionKey("k"), ObjectNode.class).getRequestCharge());
            assertEquals(1.0, c.readItem("i0", new PartitionKey("k"), new CosmosItemRequestOptions()
                    .setConsistencyLevel(ConsistencyLevel.EVENTUAL), ObjectNode.class).getRequestCharge());
            assertEquals(1.0, c.readItem("i0", new PartitionKey("k"), new CosmosItemRequestOptions()
                    .setConsistencyLevel(ConsistencyLevel.SESSION), ObjectNode.class).getRequestCharge());
            // azure-cosmos sends a query's own level only as the client's; the same query costs twice at Strong
            double strong = queryCharge(c, null);
            core.coreStore().consistency().setDefaultLevel(io.tetradb.core.consistency.ConsistencyLevel.SESSION);
            assertEquals(strong, 2 * queryCharge(c, null), 0.011);
            core.coreStore().consistency().setDefaultLevel(io.tetradb.core.consistency.ConsistencyLevel.STRONG);

            // the partition's budget pays the doubled charge: on a stopped clock, 10 strong reads take 20 RU
            core.coreStore().rateLimiter().setClock(clock::get);
            c.readItem("i1", new PartitionKey("k"), ObjectNode.class); // the budget exists from here
            double before = budget(db).tokens(clock.get());
            for (int i = 0; i < 10; i++) {
                c.readItem("i1", new PartitionKey("k"), ObjectNode.class);
            }
            assertEquals(20.0, before - budget(db).tokens(clock.get()), 0.001);
            double mid = budget(db).tokens(clock.get());
            for (int i = 0; i < 10; i++) {
                c.readItem("i1", new PartitionKey("k"), new CosmosItemRequestOptions()
                        .setConsistencyLevel(ConsistencyLevel.EVENTUAL), ObjectNode.class);
            }
            assertEquals(10.0, mid - budget(db).tokens(clock.get()), 0.001);
        } finally {
            core.coreStore().rateLimiter().setClock(System::nanoTime);
        }
    }

    @Test
    void aRequestLevelStrongerThanTheAccountsIs400AndAWeakerOneIsAccepted() {
        String db = unique("session");
        CosmosContainer c = container(sdk, db);
        CosmosException e = assertThrows(CosmosException.class, () -> c.readItem("i0", new PartitionKey("k"),
                new CosmosItemRequestOptions().setConsistencyLevel(ConsistencyLevel.STRONG), ObjectNode.class));
        assertEquals(400, e.getStatusCode());
        assertTrue(e.getMessage().contains("ConsistencyLevel Strong specified in the request is invalid when service "
                + "is configured with consistency level Session"), e.getMessage());
        // a client whose own level is stronger than the account's: azure-cosmos sends it with queries, refused too
        try (CosmosClient bounded = new CosmosClientBuilder().endpoint(endpoint()).key(KEY).gatewayMode()
                .consistencyLevel(ConsistencyLevel.BOUNDED_STALENESS).buildClient()) {
            CosmosContainer strict = bounded.getDatabase(db).getContainer("c");
            CosmosException q = assertThrows(CosmosException.class, () -> queryCharge(strict, null));
            assertEquals(400, q.getStatusCode());
            assertTrue(q.getMessage().contains("ConsistencyLevel BoundedStaleness specified in the request is invalid"),
                    q.getMessage());
        }
        assertEquals(1.0, c.readItem("i0", new PartitionKey("k"), new CosmosItemRequestOptions()
                .setConsistencyLevel(ConsistencyLevel.EVENTUAL), ObjectNode.class).getRequestCharge());
        assertEquals(1.0, c.readItem("i0", new PartitionKey("k"), new CosmosItemRequestOptions()
                .setConsistencyLevel(ConsistencyLevel.CONSISTENT_PREFIX), ObjectNode.class).getRequestCharge());
        assertEquals(1.0, c.readItem("i0", new PartitionKey("k"), ObjectNode.class).getRequestCharge());
    }

    @Test
    void nodeSdkReadsAtTheAccountLevelAndMayOnlyWeakenIt() throws Exception {
        String db = unique("node");
        container(sdk, db);
        core.coreStore().consistency().setDefaultLevel(io.tetradb.core.consistency.ConsistencyLevel.STRONG);
        String out = NodeSdkTest.runScript("cosmos-consistency.mjs", Map.of(), endpoint(), KEY, db, "strong-account");
        assertTrue(out.contains("OK node consistency strong-account"), out);
        core.coreStore().consistency().setDefaultLevel(io.tetradb.core.consistency.ConsistencyLevel.SESSION);
        out = NodeSdkTest.runScript("cosmos-consistency.mjs", Map.of(), endpoint(), KEY, db, "session-account");
        assertTrue(out.contains("OK node consistency session-account"), out);
    }

    @Test
    void anUnknownLevelIs400() throws Exception {
        RawClient.Answer a = new RawClient(endpoint(), KEY).send("GET", "/dbs", null,
                Map.of("x-ms-consistency-level", "Linearizable"));
        assertEquals(400, a.status());
        assertTrue(a.text().contains("Invalid consistency level 'Linearizable'"), a.text());
    }
}

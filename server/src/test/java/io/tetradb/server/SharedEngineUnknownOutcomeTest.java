package io.tetradb.server;

import com.azure.core.http.policy.FixedDelayOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.PartitionKey;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableServiceException;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoException;
import com.mongodb.MongoWriteException;
import com.mongodb.client.ClientSession;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import io.tetradb.core.storage.WriteOutcomeUnknownException;
import io.tetradb.core.storage.partition.PartitionStore;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A write whose outcome the shared engine could not settle (on Cassandra: SERIAL reads that kept timing out after a
 * CAS write timeout, {@code OutcomeUnknownException}) reaches each face's client as its service reports a write of
 * unknown outcome, never as "not applied" nor as done: Cosmos DB 408 RequestTimeout, MongoDB ExceededTimeLimit (262;
 * on commitTransaction with the UnknownTransactionCommitResult label), Azure Table storage 500 OperationTimedOut. The
 * engine here applies the write and then reports its outcome unknown, the case where "not applied" would be a lie.
 */
@Timeout(180)
class SharedEngineUnknownOutcomeTest {
    @TempDir
    static Path dir;
    static SharedEngineServer app;
    static TetraDbServer server;
    /** Applies that happen and are then reported of unknown outcome. */
    static final AtomicInteger unknown = new AtomicInteger();

    @BeforeAll
    static void start() {
        app = SharedEngineServer.start(dir, SharedEngineUnknownOutcomeTest::unsettled);
        server = app.server;
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    /** The store, applying for real and then reporting the outcome unknown while {@link #unknown} is positive. */
    private static PartitionStore unsettled(PartitionStore inner) {
        return SharedEngineServer.aroundApply(inner, (w, apply) -> {
            Object result = apply.call();
            if (unknown.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new WriteOutcomeUnknownException("the outcome of a write is unknown (injected)", null);
            }
            return result;
        });
    }

    @Test
    void cosmosAnswers408() {
        try (CosmosClient cosmos = new CosmosClientBuilder()
                .endpoint("http://" + Endpoint.hostPort(server.endpoint("cosmos").address()))
                .key(ClusterServers.EMULATOR_KEY).gatewayMode().buildClient()) {
            cosmos.createDatabaseIfNotExists("unknown");
            cosmos.getDatabase("unknown").createContainerIfNotExists("items", "/pk");
            CosmosContainer c = cosmos.getDatabase("unknown").getContainer("items");
            ObjectNode item = JsonNodeFactory.instance.objectNode().put("id", "a").put("pk", "p").put("n", 1);
            unknown.set(1);
            CosmosException e = assertThrows(CosmosException.class,
                    () -> c.createItem(item, new PartitionKey("p"), null));
            assertEquals(408, e.getStatusCode(), e.getMessage());
            assertEquals(0, unknown.get());
            // it did happen: a read shows it (the client's way to settle a 408 on a write)
            assertEquals(1, c.readItem("a", new PartitionKey("p"), ObjectNode.class).getItem().get("n").asInt());
        } finally {
            unknown.set(0);
        }
    }

    @Test
    void mongoAnswersExceededTimeLimitAndUnknownTransactionCommitResult() {
        try (MongoClient mongo = MongoClients.create(server.endpoint("mongo").url())) {
            MongoCollection<Document> c = mongo.getDatabase("unknown").getCollection("docs");
            c.insertOne(new Document("_id", "seed"));
            unknown.set(1);
            MongoWriteException w = assertThrows(MongoWriteException.class,
                    () -> c.insertOne(new Document("_id", 1)));
            assertEquals(262, w.getCode(), w.getMessage()); // ExceededTimeLimit, not retried (no RetryableWriteError)
            assertNotNull(c.find(Filters.eq("_id", 1)).first(), "the insert happened");
            try (ClientSession s = mongo.startSession()) {
                s.startTransaction();
                c.insertOne(s, new Document("_id", 2));
                unknown.set(1);
                MongoException e = assertThrows(MongoException.class, s::commitTransaction);
                assertTrue(e.hasErrorLabel("UnknownTransactionCommitResult"), e.toString());
                assertTrue(!e.hasErrorLabel("TransientTransactionError"), "never 'aborted, run it again'");
                // a retried commit learns no more, and says so without a label to retry on
                MongoCommandException again = assertThrows(MongoCommandException.class, s::commitTransaction);
                assertEquals(262, again.getErrorCode());
                assertTrue(again.getErrorLabels().isEmpty(), again.toString());
            }
            assertNotNull(c.find(Filters.eq("_id", 2)).first(), "the transaction's batch happened");
        } finally {
            unknown.set(0);
        }
    }

    @Test
    void tablesAnswer500OperationTimedOut() {
        String endpoint = "http://" + Endpoint.hostPort(server.endpoint("table").address()) + "/devstoreaccount1";
        TableClient t = new TableServiceClientBuilder().connectionString("DefaultEndpointsProtocol=http;AccountName="
                + "devstoreaccount1;AccountKey=" + ClusterServers.DEV_KEY + ";TableEndpoint=" + endpoint + ";")
                // the SDK retries a 500 (a retried create would then meet its own entity: 409); shown without
                .retryOptions(new RetryOptions(new FixedDelayOptions(0, Duration.ofMillis(1))))
                .buildClient().getTableClient("unknown");
        try {
            t.createTable();
            unknown.set(1);
            TableServiceException e = assertThrows(TableServiceException.class,
                    () -> t.createEntity(new TableEntity("p", "a").addProperty("N", 1)));
            assertEquals(500, e.getResponse().getStatusCode());
            assertEquals("OperationTimedOut", e.getValue().getErrorCode().toString());
            assertEquals(1, t.getEntity("p", "a").getProperty("N"), "the create happened");
        } finally {
            unknown.set(0);
        }
    }
}

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
import com.mongodb.client.ClientSession;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandListener;
import io.tetradb.core.storage.StorageUnavailableException;
import io.tetradb.core.storage.partition.PartitionStore;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A request the shared engine could not serve and that did nothing — on Cassandra, too few replicas alive or a QUORUM
 * read timing out on a node just killed, before any write was sent (cassandra-engine's {@code DriverFailures}; such
 * driver exceptions reached the faces unmapped, and the node-kill test's MongoDB client once got code 1) — reaches each face's client as its service
 * answers "not served now, nothing done, retry": Cosmos DB 503 ServiceUnavailable, MongoDB PrimarySteppedDown (189)
 * as a top-level error with RetryableWriteError (a retryable write, which the driver retries once) or
 * TransientTransactionError (in a transaction), Azure Table storage 503 ServerBusy (which its SDKs retry). The engine
 * here refuses an apply before applying anything, as many times as asked.
 */
@Timeout(180)
class SharedEngineUnavailableTest {
    @TempDir
    static Path dir;
    static SharedEngineServer app;
    static TetraDbServer server;
    /** Applies refused before anything happens. */
    static final AtomicInteger refuse = new AtomicInteger();

    @BeforeAll
    static void start() {
        app = SharedEngineServer.start(dir, SharedEngineUnavailableTest::refusing);
        server = app.server;
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    /** The store, refusing applies with nothing done while {@link #refuse} is positive. */
    private static PartitionStore refusing(PartitionStore inner) {
        return SharedEngineServer.aroundApply(inner, (w, apply) -> {
            if (refuse.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new StorageUnavailableException("Cassandra could not serve a point read: Cassandra "
                        + "timeout during read query at consistency QUORUM (2 responses were required but "
                        + "only 1 replica responded) (injected)", null);
            }
            return apply.call();
        });
    }

    @Test
    void cosmosAnswers503AndNothingWasWritten() {
        try (CosmosClient cosmos = new CosmosClientBuilder()
                .endpoint("http://" + Endpoint.hostPort(server.endpoint("cosmos").address()))
                .key(ClusterServers.EMULATOR_KEY).gatewayMode().buildClient()) {
            cosmos.createDatabaseIfNotExists("unavailable");
            cosmos.getDatabase("unavailable").createContainerIfNotExists("items", "/pk");
            CosmosContainer c = cosmos.getDatabase("unavailable").getContainer("items");
            ObjectNode item = JsonNodeFactory.instance.objectNode().put("id", "a").put("pk", "p").put("n", 1);
            refuse.set(1);
            CosmosException e = assertThrows(CosmosException.class,
                    () -> c.createItem(item, new PartitionKey("p"), null));
            assertEquals(503, e.getStatusCode(), e.getMessage());
            assertEquals(404, assertThrows(CosmosException.class,
                    () -> c.readItem("a", new PartitionKey("p"), ObjectNode.class)).getStatusCode(), "not written");
            assertEquals(201, c.createItem(item, new PartitionKey("p"), null).getStatusCode(), "a retry succeeds");
        } finally {
            refuse.set(0);
        }
    }

    @Test
    void mongoAnswersPrimarySteppedDownWithTheLabelsTheDriverRetriesOn() {
        List<CommandFailedEvent> failed = new CopyOnWriteArrayList<>();
        CommandListener listener = new CommandListener() {
            @Override
            public void commandFailed(CommandFailedEvent event) {
                failed.add(event);
            }
        };
        try (MongoClient mongo = MongoClients.create(com.mongodb.MongoClientSettings.builder()
                .applyConnectionString(new com.mongodb.ConnectionString(server.endpoint("mongo").url()))
                .addCommandListener(listener).build())) {
            MongoCollection<Document> c = mongo.getDatabase("unavailable").getCollection("docs");
            c.insertOne(new Document("_id", "seed"));
            // once: the driver's retryable write sends the insert again, which succeeds, once
            refuse.set(1);
            c.insertOne(new Document("_id", 1));
            assertEquals(0, refuse.get());
            assertEquals(1, failed.size(), failed.toString());
            MongoCommandException first = (MongoCommandException) failed.get(0).getThrowable();
            assertEquals(189, first.getErrorCode()); // PrimarySteppedDown, top-level, not a write error
            assertTrue(first.hasErrorLabel("RetryableWriteError"), first.toString());
            assertEquals(1, c.countDocuments(Filters.eq("_id", 1)));
            // twice: the retry fails too, and the error says nothing was written
            failed.clear();
            refuse.set(2);
            MongoException twice = assertThrows(MongoException.class, () -> c.insertOne(new Document("_id", 2)));
            assertEquals(189, twice.getCode(), twice.toString());
            assertEquals(2, failed.size());
            assertNull(c.find(Filters.eq("_id", 2)).first(), "nothing written");
            // in a transaction: the commit's batch refused, nothing applied; TransientTransactionError, so that
            // withTransaction runs the whole transaction again
            try (ClientSession s = mongo.startSession()) {
                s.startTransaction();
                c.insertOne(s, new Document("_id", 3));
                refuse.set(1);
                MongoException e = assertThrows(MongoException.class, s::commitTransaction);
                assertEquals(189, e.getCode(), e.toString());
                assertTrue(e.hasErrorLabel("TransientTransactionError"), e.toString());
                // (the driver adds UnknownTransactionCommitResult itself to a commit failing with a retryable-write
                // code, as the transactions spec asks: it cannot know what the server knows)
            }
            assertNull(c.find(Filters.eq("_id", 3)).first(), "the transaction's batch did not apply");
            try (ClientSession s = mongo.startSession()) {
                refuse.set(1); // withTransaction runs it again after the transient error
                s.withTransaction(() -> c.insertOne(s, new Document("_id", 4)));
            }
            assertNotNull(c.find(Filters.eq("_id", 4)).first());
        } finally {
            refuse.set(0);
        }
    }

    @Test
    void tablesAnswer503ServerBusyWhichTheSdkRetries() {
        String endpoint = "http://" + Endpoint.hostPort(server.endpoint("table").address()) + "/devstoreaccount1";
        String connection = "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey="
                + ClusterServers.DEV_KEY + ";TableEndpoint=" + endpoint + ";";
        TableClient noRetry = new TableServiceClientBuilder().connectionString(connection)
                .retryOptions(new RetryOptions(new FixedDelayOptions(0, Duration.ofMillis(1))))
                .buildClient().getTableClient("unavailable");
        TableClient retrying = new TableServiceClientBuilder().connectionString(connection)
                .retryOptions(new RetryOptions(new FixedDelayOptions(3, Duration.ofMillis(10))))
                .buildClient().getTableClient("unavailable");
        try {
            noRetry.createTable();
            refuse.set(1);
            TableServiceException e = assertThrows(TableServiceException.class,
                    () -> noRetry.createEntity(new TableEntity("p", "a").addProperty("N", 1)));
            assertEquals(503, e.getResponse().getStatusCode());
            assertEquals("ServerBusy", e.getValue().getErrorCode().toString());
            assertEquals(404, assertThrows(TableServiceException.class, () -> noRetry.getEntity("p", "a"))
                    .getResponse().getStatusCode(), "nothing written");
            refuse.set(1);
            retrying.createEntity(new TableEntity("p", "a").addProperty("N", 1)); // retried once, created once
            assertEquals(1, retrying.getEntity("p", "a").getProperty("N"));
        } finally {
            refuse.set(0);
        }
    }
}

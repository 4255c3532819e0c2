package io.tetradb.server;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import com.mongodb.MongoWriteException;
import com.mongodb.client.ClientSession;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import io.tetradb.core.storage.partition.ApplyResult;
import io.tetradb.core.storage.partition.PartitionStats;
import io.tetradb.core.storage.partition.PartitionStore;
import io.tetradb.core.storage.partition.PartitionWrite;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * On a shared engine (as with {@code --storage cassandra}) a write can lose its logical partition to another server
 * between its read of the partition's version and its conditional apply: the core then refuses it whole (449, nothing
 * written). The Cosmos SDKs retry a 449; the MongoDB and Azure Tables protocols have no such answer, so those faces run
 * the write again (MongoDB retries a single-document write conflict itself; Azure Table storage never shows one). The
 * race is injected here deterministically: the partition store lets "another server" commit to the partition just
 * before the write's own apply. The cluster tests show the same race between real servers.
 */
@Timeout(180)
class SharedEngineLostRaceTest {
    @TempDir
    static Path dir;
    static SharedEngineServer app;
    static TetraDbServer server;
    /** Applies that "another server" gets in first, before the next ones of this server. */
    static final AtomicInteger intrusions = new AtomicInteger();

    @BeforeAll
    static void start() {
        app = SharedEngineServer.start(dir, SharedEngineLostRaceTest::intruding);
        server = app.server;
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    /**
     * The store, with a competitor: while {@link #intrusions} is positive, each apply is preceded by another writer's
     * commit that moves the partition on (its version + 1), so the apply is refused as stale.
     */
    private static PartitionStore intruding(PartitionStore inner) {
        return SharedEngineServer.aroundApply(inner, (w, apply) -> {
            if (intrusions.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                PartitionStats s = inner.stats(w.partition());
                ApplyResult other = inner.apply(PartitionWrite.builder(w.partition(), w.expected(),
                        w.expected() + 1).stats(new PartitionStats(s.bytes(), s.items(), w.expected() + 1)).build());
                assertTrue(other.applied(), "the competitor's commit");
            }
            return apply.call();
        });
    }

    @Test
    void mongoWritesThatLoseTheirPartitionAreRunAgain() {
        try (MongoClient mongo = MongoClients.create(server.endpoint("mongo").url())) {
            MongoCollection<Document> c = mongo.getDatabase("race").getCollection("docs");
            c.insertOne(new Document("_id", "seed"));
            intrusions.set(1);
            c.insertOne(new Document("_id", 1).append("n", 1)); // without the retry: InternalError (1)
            assertEquals(0, intrusions.get(), "the race was injected");
            intrusions.set(2);
            c.updateOne(Filters.eq("_id", 1), Updates.inc("n", 1));
            assertEquals(2, c.find(Filters.eq("_id", 1)).first().getInteger("n"));
            intrusions.set(1);
            assertEquals(1, c.deleteOne(Filters.eq("_id", "seed")).getDeletedCount());
            // a retried insert meets the new state: the duplicate is still 11000
            intrusions.set(1);
            assertEquals(11000, assertThrows(MongoWriteException.class,
                    () -> c.insertOne(new Document("_id", 1))).getCode());
            // a transaction's commit batch is run again; its etags still decide
            try (ClientSession s = mongo.startSession()) {
                s.startTransaction();
                c.updateOne(s, Filters.eq("_id", 1), Updates.inc("n", 10));
                c.insertOne(s, new Document("_id", 2));
                intrusions.set(1);
                s.commitTransaction();
            }
            assertEquals(12, c.find(Filters.eq("_id", 1)).first().getInteger("n"));
            assertEquals(2, c.countDocuments());
            // losing every time: MongoDB's WriteConflict (112), nothing written
            intrusions.set(1_000);
            assertEquals(112, assertThrows(MongoWriteException.class,
                    () -> c.insertOne(new Document("_id", 3))).getCode());
            intrusions.set(0);
            assertEquals(2, c.countDocuments());
        } finally {
            intrusions.set(0);
        }
    }

    @Test
    void tablesWritesThatLoseTheirPartitionAreRunAgain() {
        String endpoint = "http://" + Endpoint.hostPort(server.endpoint("table").address()) + "/devstoreaccount1";
        TableClient t = new TableServiceClientBuilder().connectionString("DefaultEndpointsProtocol=http;AccountName="
                + "devstoreaccount1;AccountKey=" + ClusterServers.DEV_KEY + ";TableEndpoint=" + endpoint + ";")
                .buildClient().getTableClient("race");
        try {
            t.createTable();
            // more losses than the SDK's own retries of a 500 (3), so that the face's retry is what is shown
            intrusions.set(5);
            t.createEntity(new TableEntity("p", "a").addProperty("N", 1)); // without the retry: 500 InternalError
            assertEquals(0, intrusions.get(), "the race was injected");
            TableEntity a = t.getEntity("p", "a");
            a.addProperty("N", 2);
            intrusions.set(1);
            t.updateEntityWithResponse(a, TableEntityUpdateMode.REPLACE, true, null, null);
            intrusions.set(1);
            t.submitTransaction(List.of(
                    new TableTransactionAction(TableTransactionActionType.CREATE, new TableEntity("p", "b")),
                    new TableTransactionAction(TableTransactionActionType.UPSERT_MERGE,
                            new TableEntity("p", "a").addProperty("M", 3))));
            intrusions.set(1);
            t.deleteEntity("p", "b");
            TableEntity now = t.getEntity("p", "a");
            assertEquals(2, now.getProperty("N"));
            assertEquals(3, now.getProperty("M"));
            assertEquals(1, t.listEntities().stream().count());
        } finally {
            intrusions.set(0);
        }
    }
}

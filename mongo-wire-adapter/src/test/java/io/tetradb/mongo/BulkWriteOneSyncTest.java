package io.tetradb.mongo;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.WriteConcern;
import com.mongodb.bulk.BulkWriteResult;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.DeleteManyModel;
import com.mongodb.client.model.DeleteOneModel;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.ReplaceOneModel;
import com.mongodb.client.model.UpdateManyModel;
import com.mongodb.client.model.UpdateOneModel;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.WriteModel;
import io.tetradb.core.storage.RocksWalSyncs;
import io.tetradb.core.store.WalSyncsByHand;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import org.bson.Document;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A journaled {@code update} or {@code delete} message applies its statements in turn and makes them durable by one
 * WAL sync before its reply (the Java driver's {@code bulkWrite}): Mongo's counts and {@code writeErrors}, ordered
 * stopping at the first error with the earlier statements applied, unordered going on; the WAL syncs per message
 * counted exactly (the engine's counter, the lazy syncer's ticks run by hand, no clock); a restart keeps every
 * acknowledged statement.
 */
class BulkWriteOneSyncTest extends MongoServerTestBase {
    private static RocksWalSyncs syncs;
    /** The {@code n} of each {@code update} and {@code delete} reply the listening driver got, in order. */
    private static final List<Integer> writeMessages = java.util.Collections.synchronizedList(new ArrayList<>());
    private static MongoClient listened;

    @BeforeAll
    static void syncsByHand() {
        syncs = WalSyncsByHand.of(store.coreStore());
        listened = com.mongodb.client.MongoClients.create(PatientDriver.settings(PatientDriver.uri(server, ""))
                .addCommandListener(new com.mongodb.event.CommandListener() {
                    @Override
                    public void commandSucceeded(com.mongodb.event.CommandSucceededEvent e) {
                        if (Set.of("update", "delete").contains(e.getCommandName())) {
                            writeMessages.add(e.getResponse().getNumber("n").intValue());
                        }
                    }
                }).build());
    }

    @org.junit.jupiter.api.AfterAll
    static void closeListened() {
        listened.close();
    }

    /** Six documents with a unique {@code email}, three of them with a plain {@code k}. */
    private static MongoCollection<Document> seeded(String name) {
        MongoCollection<Document> c = fresh(client.getDatabase("bw"), name);
        c.createIndex(new Document("email", 1), new IndexOptions().unique(true));
        c.insertMany(List.of(
                Document.parse("{_id: 1, email: 'a', v: 0}"), Document.parse("{_id: 2, email: 'b', v: 0}"),
                Document.parse("{_id: 3, email: 'c', v: 0}"), Document.parse("{_id: 4, email: 'd', k: 'x'}"),
                Document.parse("{_id: 5, email: 'e', k: 'x'}"), Document.parse("{_id: 6, email: 'f', k: 'y'}")));
        return c;
    }

    /** Mixed statements; statement 4 fails: an upsert of a taken unique email, or an unknown update operator. */
    private static List<WriteModel<Document>> mixed(boolean duplicateKey) {
        return List.of(
                new UpdateOneModel<>(Filters.eq("_id", 1), Document.parse("{$inc: {v: 1}}")),
                new UpdateManyModel<>(Filters.eq("k", "x"), Document.parse("{$set: {m: true}}")),
                new ReplaceOneModel<>(Filters.eq("_id", 2), Document.parse("{email: 'b', v: 10}")),
                new DeleteOneModel<>(Filters.eq("_id", 6)),
                duplicateKey
                        ? new UpdateOneModel<>(Filters.eq("email", "zz"), Document.parse("{$set: {email: 'a'}}"),
                                new UpdateOptions().upsert(true))
                        : new UpdateOneModel<>(Filters.eq("_id", 3), Document.parse("{$frobnicate: {v: 1}}")),
                new DeleteManyModel<>(Filters.eq("k", "x")),
                new UpdateOneModel<>(Filters.eq("_id", 3), Document.parse("{$set: {v: 3}}")));
    }

    /**
     * Ordered: the first three statements and the delete applied, nothing after the failing one; unordered: every
     * other statement applied. Counts and the error as MongoDB reports them, and one WAL sync per message that wrote.
     */
    @ParameterizedTest
    @CsvSource({"true, true", "true, false", "false, true", "false, false"})
    void aMixedBulkWriteGivesMongosCountsAndAppliesExactlyWhatItShould(boolean ordered, boolean duplicateKey) {
        MongoCollection<Document> c = listened.getDatabase("bw").getCollection(seeded("mixed" + ordered + duplicateKey)
                .getNamespace().getCollectionName());
        writeMessages.clear();
        long before = syncs.syncs();
        MongoBulkWriteException e = assertThrows(MongoBulkWriteException.class,
                () -> c.bulkWrite(mixed(duplicateKey), new BulkWriteOptions().ordered(ordered)));
        long synced = syncs.syncs() - before;

        assertEquals(1, e.getWriteErrors().size(), e.getWriteErrors().toString());
        assertEquals(4, e.getWriteErrors().get(0).getIndex());
        assertEquals(duplicateKey ? 11000 : 9, e.getWriteErrors().get(0).getCode());
        BulkWriteResult r = e.getWriteResult();
        assertEquals(ordered ? 4 : 5, r.getMatchedCount());
        assertEquals(ordered ? 4 : 5, r.getModifiedCount());
        assertEquals(ordered ? 1 : 3, r.getDeletedCount());
        assertEquals(0, r.getUpserts().size());
        assertEquals(0, r.getInsertedCount());

        List<Document> expected = new ArrayList<>(List.of(
                Document.parse("{_id: 1, email: 'a', v: 1}"), Document.parse("{_id: 2, email: 'b', v: 10}"),
                Document.parse(ordered ? "{_id: 3, email: 'c', v: 0}" : "{_id: 3, email: 'c', v: 3}")));
        if (ordered) {
            expected.add(Document.parse("{_id: 4, email: 'd', k: 'x', m: true}"));
            expected.add(Document.parse("{_id: 5, email: 'e', k: 'x', m: true}"));
        }
        assertEquals(expected, c.find().sort(new Document("_id", 1)).into(new ArrayList<>()));
        // one sync per message that wrote (every matched statement here modifies); how the driver groups statements
        // into messages is its own (ordered, Java driver 5: updates [0, 1], replace [2], delete [3], update [4] —
        // writes nothing); one sync per written document, as before, would be 5 (ordered) and 8 (unordered)
        long written = writeMessages.stream().filter(n -> n > 0).count();
        assertEquals(written, synced, "WAL syncs for the bulkWrite, messages " + writeMessages);
        assertEquals(3, written, "messages that wrote " + writeMessages);
        syncs.tick();
        assertEquals(written, syncs.syncs() - before, "the lazy syncer found every applied statement synced");
    }

    /**
     * One message of many statements, one WAL sync: 50 updateOnes with an upsert among them, an updateMany of 34
     * documents, 50 deleteOnes; a findAndModify one sync, as before; an unjournaled ({@code w: 1}) message syncs
     * nothing itself, the lazy syncer's next tick once.
     */
    @Test
    void aMessageOfManyStatementsPaysOneWalSync() {
        MongoCollection<Document> c = fresh(client.getDatabase("bw"), "counts");
        List<Document> docs = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            docs.add(new Document("_id", i).append("v", 0).append("g", i % 3));
        }
        c.insertMany(docs);
        List<WriteModel<Document>> updates = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            updates.add(new UpdateOneModel<>(Filters.eq("_id", i), Document.parse("{$inc: {v: 1}}")));
        }
        updates.add(new UpdateOneModel<>(Filters.eq("_id", 1000), Document.parse("{$set: {v: 7}}"),
                new UpdateOptions().upsert(true)));
        assertEquals(1, syncsOf(() -> assertEquals(50, c.bulkWrite(updates).getModifiedCount())));
        assertEquals(1, syncsOf(() -> assertEquals(34, c.updateMany(Filters.eq("g", 0),
                Document.parse("{$set: {w: 1}}")).getModifiedCount())));
        List<WriteModel<Document>> deletes = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            deletes.add(new DeleteOneModel<>(Filters.eq("_id", 2 * i)));
        }
        assertEquals(1, syncsOf(() -> assertEquals(50, c.bulkWrite(deletes).getDeletedCount())));
        assertEquals(0, syncsOf(syncs::tick), "nothing left for the lazy syncer");
        // findAndModify is one statement, one document: one sync, as it always was (its own write's)
        assertEquals(1, syncsOf(() -> c.findOneAndUpdate(Filters.eq("_id", 1), Document.parse("{$inc: {v: 1}}"))));
        assertEquals(1, syncsOf(() -> c.findOneAndDelete(Filters.eq("_id", 1000))));

        MongoCollection<Document> w1 = c.withWriteConcern(WriteConcern.W1);
        List<WriteModel<Document>> unjournaled = new ArrayList<>();
        for (int i = 1; i < 40; i += 2) {
            unjournaled.add(new UpdateOneModel<>(Filters.eq("_id", i), Document.parse("{$inc: {v: 1}}")));
        }
        assertEquals(0, syncsOf(() -> assertEquals(20, w1.bulkWrite(unjournaled).getModifiedCount())));
        assertEquals(1, syncsOf(syncs::tick), "the unjournaled statements, synced by the lazy syncer's next tick");
        assertEquals(0, syncsOf(syncs::tick));
        assertEquals(Set.of(2), new TreeSet<>(c.find(Filters.and(Filters.lt("_id", 40), Filters.ne("_id", 1)))
                .map(d -> d.getInteger("v")).into(new ArrayList<>())), "each odd _id below 40 updated twice");
        assertEquals(3, c.find(Filters.eq("_id", 1)).first().getInteger("v"), "and _id 1 a third time");
    }

    private static long syncsOf(Runnable action) {
        long before = syncs.syncs();
        action.run();
        return syncs.syncs() - before;
    }

    /** Every statement of an acknowledged bulkWrite is there after the store and the server are reopened. */
    @Test
    void anAcknowledgedBulkWriteSurvivesARestart(@TempDir Path dir) {
        try (CosmosClient own = new CosmosClientBuilder().dataDirectory(dir).buildClient();
             MongoWireServer wire = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, own);
             MongoClient driver = PersistenceTest.connect(wire)) {
            MongoCollection<Document> c = driver.getDatabase("bw").getCollection("restart");
            List<Document> docs = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                docs.add(new Document("_id", i).append("v", 0));
            }
            c.insertMany(docs);
            List<WriteModel<Document>> ops = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                ops.add(i % 3 == 0 ? new DeleteOneModel<>(Filters.eq("_id", i))
                        : i % 3 == 1 ? new UpdateOneModel<>(Filters.eq("_id", i), Document.parse("{$set: {v: 1}}"))
                        : new ReplaceOneModel<>(Filters.eq("_id", i), new Document("r", i)));
            }
            ops.add(new UpdateOneModel<>(Filters.eq("_id", "new"), Document.parse("{$set: {v: 2}}"),
                    new UpdateOptions().upsert(true)));
            BulkWriteResult r = c.bulkWrite(ops, new BulkWriteOptions().ordered(false));
            assertEquals(100, r.getDeletedCount());
            assertEquals(200, r.getModifiedCount());
            assertEquals(1, r.getUpserts().size());
        }
        try (CosmosClient own = new CosmosClientBuilder().dataDirectory(dir).buildClient();
             MongoWireServer wire = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, own);
             MongoClient driver = PersistenceTest.connect(wire)) {
            MongoCollection<Document> c = driver.getDatabase("bw").getCollection("restart");
            List<Document> expected = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                if (i % 3 == 1) {
                    expected.add(new Document("_id", i).append("v", 1));
                } else if (i % 3 == 2) {
                    expected.add(new Document("_id", i).append("r", i));
                }
            }
            assertEquals(expected, c.find(Filters.type("_id", "number")).sort(new Document("_id", 1))
                    .into(new ArrayList<>()));
            assertEquals(Document.parse("{_id: 'new', v: 2}"), c.find(Filters.eq("_id", "new")).first());
        }
    }

    /**
     * The message's one sync fails after its statements were applied: the reply is an error (InternalError), never
     * the statements' counts; the statements stay applied (visible), as the README says. The items' store fails its
     * syncs on demand (a shared-engine setup, the only place a test can put a store between the core and RocksDB).
     */
    @Test
    void aFailingSyncAnswersAnErrorAndNeverTheCounts(@TempDir Path dir) throws Exception {
        java.util.concurrent.atomic.AtomicBoolean failSyncs = new java.util.concurrent.atomic.AtomicBoolean();
        try (io.tetradb.testing.SharedEmbeddedStore shared =
                     new io.tetradb.testing.SharedEmbeddedStore(dir.resolve("shared"))) {
            io.tetradb.core.storage.partition.PartitionStore inner = shared.partitions();
            io.tetradb.core.storage.partition.PartitionStore failing =
                    (io.tetradb.core.storage.partition.PartitionStore) java.lang.reflect.Proxy.newProxyInstance(
                            getClass().getClassLoader(),
                            new Class<?>[] {io.tetradb.core.storage.partition.PartitionStore.class},
                            (proxy, method, args) -> {
                                if (method.getName().equals("awaitDurable") && failSyncs.get()) {
                                    throw new io.tetradb.core.storage.StorageException(
                                            "syncing the write-ahead log failed: disk gone", null);
                                }
                                try {
                                    return method.invoke(inner, args);
                                } catch (java.lang.reflect.InvocationTargetException e) {
                                    throw e.getCause();
                                }
                            });
            try (CosmosClient own = new CosmosClientBuilder().dataDirectory(dir.resolve("a"))
                    .storage(shared.metadata(), failing).buildClient();
                 MongoWireServer wire = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, own);
                 MongoClient driver = PersistenceTest.connect(wire)) {
                MongoCollection<Document> c = driver.getDatabase("bw").getCollection("failing");
                c.insertMany(List.of(new Document("_id", 1).append("v", 0), new Document("_id", 2).append("v", 0),
                        new Document("_id", 3).append("v", 0)));
                failSyncs.set(true);
                List<WriteModel<Document>> ops = new ArrayList<>();
                for (int i = 1; i <= 3; i++) {
                    ops.add(new UpdateOneModel<>(Filters.eq("_id", i), Document.parse("{$set: {v: 1}}")));
                }
                com.mongodb.MongoServerException e = assertThrows(com.mongodb.MongoServerException.class,
                        () -> c.bulkWrite(ops));
                assertEquals(1, e.getCode(), e.getMessage()); // InternalError
                org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("disk gone"), e.getMessage());
                failSyncs.set(false);
                assertEquals(3, c.countDocuments(Filters.eq("v", 1)), "applied, though not acknowledged");
            }
        }
    }
}

package io.tetradb.mongo;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoException;
import com.mongodb.MongoWriteException;
import com.mongodb.client.ClientSession;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.InsertManyOptions;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.Updates;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.core.unique.UniqueIndexViolation;
import io.tetradb.mongo.bson.DocumentMapper;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static com.mongodb.client.model.Filters.eq;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Mongo unique indexes kept by the core (issue 15): enforced in each document's own atomic write, whoever writes the
 * container; races of many connections with exactly one winner; bulk writes, upserts, findAndModify and
 * transactions answered with MongoDB 7.0's E11000; sharded collections' rule.
 */
class CoreUniqueIndexTest extends MongoServerTestBase {

    private static MongoCollection<Document> fresh(String name) {
        MongoCollection<Document> c = client.getDatabase("cu").getCollection(name);
        c.drop();
        return c;
    }

    @Test
    void theCoreRefusesADuplicateWrittenPastTheFace() {
        MongoCollection<Document> c = fresh("direct");
        c.createIndex(new Document("email", 1), new IndexOptions().unique(true));
        c.insertOne(new Document("_id", 1).append("email", "a@x").append("tags", List.of("p", "q")));
        // the same document shape written straight into the collection's container, not through the face's commands
        ContainerStore container = store.coreStore().container("cu", "direct");
        var item = DocumentMapper.toItem(new BsonDocument("_id", new BsonInt32(2)).append("email",
                new BsonString("a@x")));
        UniqueIndexViolation v = assertThrows(UniqueIndexViolation.class,
                () -> container.execute(PartitionKeyValue.none(1), ItemOperation.create(item)));
        assertEquals("email_1", v.index());
        assertEquals(409, v.status());
        assertEquals(1, c.countDocuments());
        // a unique index dropped: the core lets the value repeat
        c.dropIndex("email_1");
        container.execute(PartitionKeyValue.none(1), ItemOperation.create(item));
        assertEquals(2, c.countDocuments(eq("email", "a@x")));
    }

    @Test
    void racingInsertsFromManyConnectionsHaveExactlyOneWinner() throws Exception {
        MongoCollection<Document> setup = fresh("race");
        setup.createIndex(new Document("k", 1), new IndexOptions().unique(true));
        int writers = 8;
        List<MongoClient> clients = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            for (int w = 0; w < writers; w++) {
                clients.add(connect());
            }
            for (int round = 0; round < 15; round++) {
                CountDownLatch go = new CountDownLatch(1);
                List<Future<Integer>> outcomes = new ArrayList<>();
                for (int w = 0; w < writers; w++) {
                    MongoCollection<Document> c = clients.get(w).getDatabase("cu").getCollection("race");
                    int id = round * 100 + w;
                    int value = round;
                    boolean viaUpsert = w % 2 == 1;
                    outcomes.add(pool.submit(() -> {
                        go.await();
                        try {
                            if (viaUpsert) { // an upsert inserting a new document with the raced value
                                c.updateOne(eq("_id", id), Updates.set("k", value), new UpdateOptions().upsert(true));
                            } else {
                                c.insertOne(new Document("_id", id).append("k", value));
                            }
                            return 1;
                        } catch (MongoWriteException e) {
                            assertEquals(11000, e.getError().getCode());
                            assertTrue(e.getError().getMessage().startsWith("E11000 duplicate key error collection: "
                                    + "cu.race index: k_1 dup key: { k: " + value + " }"), e.getError().getMessage());
                            return 0;
                        }
                    }));
                }
                go.countDown();
                int won = 0;
                for (Future<Integer> f : outcomes) {
                    won += f.get();
                }
                assertEquals(1, won, "round " + round);
                assertEquals(1, setup.countDocuments(eq("k", round)));
            }
        } finally {
            pool.shutdownNow();
            clients.forEach(MongoClient::close);
        }
    }

    @Test
    void bulkWritesUpdatesAndFindAndModifyGetMongoDbsError() {
        MongoCollection<Document> c = fresh("bulk");
        c.createIndex(new Document("a", 1).append("b", 1), new IndexOptions().unique(true));
        c.insertOne(new Document("_id", 0).append("a", 1).append("b", "x"));
        // unordered: every document but the duplicates goes in, each duplicate with its own error and index
        MongoBulkWriteException unordered = assertThrows(MongoBulkWriteException.class, () -> c.insertMany(List.of(
                new Document("_id", 1).append("a", 1).append("b", "y"),
                new Document("_id", 2).append("a", 1).append("b", "x"),
                new Document("_id", 3).append("a", 2).append("b", "x"),
                new Document("_id", 4).append("a", 2).append("b", "x")), new InsertManyOptions().ordered(false)));
        assertEquals(List.of(1, 3), unordered.getWriteErrors().stream().map(e -> e.getIndex()).toList());
        assertEquals("E11000 duplicate key error collection: cu.bulk index: a_1_b_1 dup key: { a: 1, b: \"x\" }",
                unordered.getWriteErrors().get(0).getMessage());
        assertEquals(2, unordered.getWriteResult().getInsertedCount());
        // ordered: stops at the first duplicate
        MongoBulkWriteException ordered = assertThrows(MongoBulkWriteException.class, () -> c.insertMany(List.of(
                new Document("_id", 5).append("a", 3), new Document("_id", 6).append("a", 1).append("b", "y"),
                new Document("_id", 7).append("a", 4))));
        assertEquals(1, ordered.getWriteErrors().get(0).getIndex());
        assertNull(c.find(eq("_id", 7)).first());
        // keyPattern and keyValue in the raw write error
        Document reply = client.getDatabase("cu").runCommand(new Document("update", "bulk").append("updates",
                List.of(new Document("q", new Document("_id", 5)).append("u",
                        new Document("$set", new Document("a", 2).append("b", "x"))))));
        Document err = reply.getList("writeErrors", Document.class).get(0);
        assertEquals(11000, err.getInteger("code"));
        assertEquals(new Document("a", 1).append("b", 1), err.get("keyPattern"));
        assertEquals(new Document("a", 2).append("b", "x"), err.get("keyValue"));
        // findAndModify: an update and an upsert refused, nothing changed
        MongoCommandException fam = assertThrows(MongoCommandException.class, () -> c.findOneAndUpdate(eq("_id", 5),
                Updates.combine(Updates.set("a", 1), Updates.set("b", "x"))));
        assertEquals(11000, fam.getErrorCode());
        assertEquals(3, c.find(eq("_id", 5)).first().getInteger("a"));
        MongoCommandException upsert = assertThrows(MongoCommandException.class, () -> c.findOneAndUpdate(
                eq("_id", 99), Updates.combine(Updates.set("a", 2), Updates.set("b", "x")),
                new FindOneAndUpdateOptions().upsert(true)));
        assertEquals(11000, upsert.getErrorCode());
        assertTrue(upsert.getErrorMessage().contains("dup key: { a: 2, b: \"x\" }"), upsert.getErrorMessage());
        assertNull(c.find(eq("_id", 99)).first());
        // a document that gives a value up lets another take it
        c.deleteOne(eq("_id", 3));
        c.updateOne(eq("_id", 5), Updates.combine(Updates.set("a", 2), Updates.set("b", "x")));
    }

    @Test
    void missingIsNullUnlessSparseAndAFailedBuildLeavesNoIndex() {
        MongoCollection<Document> c = fresh("nulls");
        c.createIndex(new Document("n", 1), new IndexOptions().unique(true));
        c.insertOne(new Document("_id", 1));
        MongoWriteException missing = assertThrows(MongoWriteException.class,
                () -> c.insertOne(new Document("_id", 2)));
        assertTrue(missing.getError().getMessage().endsWith("index: n_1 dup key: { n: null }"),
                missing.getError().getMessage());
        assertEquals(11000, assertThrows(MongoWriteException.class,
                () -> c.insertOne(new Document("_id", 3).append("n", null))).getError().getCode());
        // existing duplicates: E11000, no index listed, none enforced
        MongoCollection<Document> d = fresh("dups");
        d.insertMany(List.of(new Document("_id", 1).append("v", "s"), new Document("_id", 2).append("v", "s")));
        com.mongodb.MongoServerException build = assertThrows(com.mongodb.MongoServerException.class,
                () -> d.createIndex(new Document("v", 1), new IndexOptions().unique(true)));
        assertEquals(11000, build.getCode());
        assertTrue(build.getMessage().contains(
                "E11000 duplicate key error collection: cu.dups index: v_1 dup key: { v: \"s\" }"),
                build.getMessage());
        List<String> names = new ArrayList<>();
        d.listIndexes().forEach(i -> names.add(i.getString("name")));
        assertEquals(List.of("_id_"), names);
        d.insertOne(new Document("_id", 3).append("v", "s"));
        assertTrue(store.coreStore().container("cu", "dups").uniqueIndexes().isEmpty());
    }

    @Test
    void twoTransactionsTakingOneValueCannotBothCommit() {
        MongoCollection<Document> c = fresh("txn");
        c.createIndex(new Document("email", 1), new IndexOptions().unique(true));
        try (ClientSession first = client.startSession(); ClientSession second = client.startSession()) {
            first.startTransaction();
            second.startTransaction();
            c.insertOne(first, new Document("_id", 1).append("email", "a@x"));
            c.insertOne(second, new Document("_id", 2).append("email", "a@x")); // neither sees the other yet
            first.commitTransaction();
            MongoException lost = assertThrows(MongoException.class, second::commitTransaction);
            assertEquals(112, lost.getCode());
            assertTrue(lost.hasErrorLabel("TransientTransactionError"));
        }
        assertEquals(1, c.countDocuments(eq("email", "a@x")));
        // retried, the transaction now meets the committed value at its insert
        try (ClientSession s = client.startSession()) {
            s.startTransaction();
            MongoException dup = assertThrows(MongoException.class,
                    () -> c.insertOne(s, new Document("_id", 2).append("email", "a@x")));
            assertEquals(11000, dup.getCode());
        }
    }

    @Test
    void aShardedCollectionsUniqueIndexStartsWithTheShardKey() {
        MongoCollection<Document> c = fresh("sharded");
        client.getDatabase("admin").runCommand(new Document("shardCollection", "cu.sharded")
                .append("key", new Document("tenant", "hashed")));
        MongoCommandException refused = assertThrows(MongoCommandException.class,
                () -> c.createIndex(new Document("email", 1), new IndexOptions().unique(true)));
        assertEquals(67, refused.getErrorCode());
        assertEquals("cannot create unique index over { email: 1 } with shard key pattern { tenant: \"hashed\" }",
                refused.getErrorMessage());
        c.createIndex(new Document("tenant", 1).append("email", 1), new IndexOptions().unique(true));
        c.insertOne(new Document("_id", 1).append("tenant", "t1").append("email", "a@x"));
        c.insertOne(new Document("_id", 2).append("tenant", "t2").append("email", "a@x"));
        MongoWriteException dup = assertThrows(MongoWriteException.class,
                () -> c.insertOne(new Document("_id", 3).append("tenant", "t1").append("email", "a@x")));
        assertEquals("E11000 duplicate key error collection: cu.sharded index: tenant_1_email_1 dup key: "
                + "{ tenant: \"t1\", email: \"a@x\" }", dup.getError().getMessage());
        assertFalse(store.coreStore().container("cu", "sharded").uniqueIndexes().isEmpty());
        // an unsharded collection's unique index that does not start with the proposed shard key stops sharding
        MongoCollection<Document> later = fresh("later");
        later.createIndex(new Document("email", 1), new IndexOptions().unique(true));
        MongoCommandException notPrefix = assertThrows(MongoCommandException.class, () -> client.getDatabase("admin")
                .runCommand(new Document("shardCollection", "cu.later").append("key",
                        new Document("tenant", "hashed"))));
        assertEquals(72, notPrefix.getErrorCode());
        assertEquals("can't shard collection 'cu.later' with unique index on { email: 1 } and proposed shard key "
                + "{ tenant: \"hashed\" }. Uniqueness can't be maintained unless shard key is a prefix",
                notPrefix.getErrorMessage());
    }
}

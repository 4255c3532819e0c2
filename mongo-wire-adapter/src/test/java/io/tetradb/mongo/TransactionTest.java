package io.tetradb.mongo;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoException;
import com.mongodb.client.ClientSession;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import com.mongodb.connection.ClusterType;
import com.mongodb.connection.ServerType;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Multi-document transactions through the Java driver's sessions: one core transactional batch at commit. */
class TransactionTest extends MongoServerTestBase {

    private static MongoCollection<Document> fresh(String name) {
        MongoCollection<Document> c = client.getDatabase("txn").getCollection(name);
        c.drop();
        return c;
    }

    @Test
    void theServerIsAOneMemberReplicaSetPrimary() {
        Document hello = client.getDatabase("admin").runCommand(new Document("hello", 1));
        assertEquals("tetradb", hello.getString("setName"));
        String me = "127.0.0.1:" + server.address().getPort();
        assertEquals(List.of(me), hello.getList("hosts", String.class));
        assertEquals(me, hello.getString("primary"));
        assertEquals(me, hello.getString("me"));
        assertEquals(false, hello.get("secondary"));
        assertEquals(ServerType.REPLICA_SET_PRIMARY,
                client.getClusterDescription().getServerDescriptions().get(0).getType());
        assertTrue(client.getClusterDescription().getType() == ClusterType.REPLICA_SET
                || client.getClusterDescription().getType() == ClusterType.STANDALONE);
    }

    @Test
    void aClientNamingTheReplicaSetDiscoversItsMemberAndRunsTransactions() {
        try (com.mongodb.client.MongoClient rs = com.mongodb.client.MongoClients.create(
                PatientDriver.settings(PatientDriver.uri(server, "/?replicaSet=tetradb")).build())) {
            MongoCollection<Document> c = rs.getDatabase("txn").getCollection("viaSetName");
            c.drop();
            try (ClientSession s = rs.startSession()) {
                s.withTransaction(() -> {
                    c.insertOne(s, new Document("_id", 1));
                    c.insertOne(s, new Document("_id", 2));
                    return null;
                });
            }
            assertEquals(2, c.countDocuments());
            assertEquals(ClusterType.REPLICA_SET, rs.getClusterDescription().getType());
        }
    }

    @Test
    void uniqueIndexesSeeTheTransactionsOwnInserts() {
        MongoCollection<Document> c = fresh("uniq");
        c.createIndex(new Document("email", 1), new com.mongodb.client.model.IndexOptions().unique(true));
        c.insertOne(new Document("_id", 1).append("email", "a@x"));
        try (ClientSession s = client.startSession()) {
            s.startTransaction();
            c.insertOne(s, new Document("_id", 2).append("email", "b@x"));
            MongoException dupCommitted = assertThrows(MongoException.class,
                    () -> c.insertOne(s, new Document("_id", 3).append("email", "a@x")));
            assertEquals(11000, dupCommitted.getCode());
        }
        try (ClientSession s = client.startSession()) {
            s.startTransaction();
            c.insertOne(s, new Document("_id", 2).append("email", "b@x"));
            MongoException dupOwn = assertThrows(MongoException.class,
                    () -> c.insertOne(s, new Document("_id", 3).append("email", "b@x")));
            assertEquals(11000, dupOwn.getCode());
        }
        assertEquals(1, c.countDocuments(), "both transactions ended by their failed write: nothing applied");
    }

    @Test
    void aCommittedTransactionIsAllVisibleAndReadsItsOwnWrites() {
        MongoCollection<Document> c = fresh("accounts");
        c.insertMany(List.of(new Document("_id", "a").append("balance", 100),
                new Document("_id", "b").append("balance", 0),
                new Document("_id", "gone").append("balance", 5)));
        try (ClientSession s = client.startSession()) {
            s.startTransaction();
            c.updateOne(s, Filters.eq("_id", "a"), Updates.inc("balance", -30));
            c.updateOne(s, Filters.eq("_id", "b"), Updates.inc("balance", 30));
            c.insertOne(s, new Document("_id", "c").append("balance", 7));
            c.deleteOne(s, Filters.eq("_id", "gone"));
            // inside: the transaction's own writes
            assertEquals(70, c.find(s, Filters.eq("_id", "a")).first().getInteger("balance"));
            assertEquals(7, c.find(s, Filters.eq("_id", "c")).first().getInteger("balance"));
            assertNull(c.find(s, Filters.eq("_id", "gone")).first());
            assertEquals(3, c.countDocuments(s, new Document()));
            assertEquals(107, c.aggregate(s, List.of(new Document("$group", new Document("_id", null)
                    .append("t", new Document("$sum", "$balance"))))).first().getInteger("t"));
            // outside: nothing yet (read committed)
            assertEquals(100, c.find(Filters.eq("_id", "a")).first().getInteger("balance"));
            assertNull(c.find(Filters.eq("_id", "c")).first());
            assertEquals(3, c.countDocuments());
            s.commitTransaction();
        }
        assertEquals(70, c.find(Filters.eq("_id", "a")).first().getInteger("balance"));
        assertEquals(30, c.find(Filters.eq("_id", "b")).first().getInteger("balance"));
        assertEquals(7, c.find(Filters.eq("_id", "c")).first().getInteger("balance"));
        assertNull(c.find(Filters.eq("_id", "gone")).first());
        assertEquals(3, c.countDocuments());
    }

    @Test
    void anAbortedTransactionLeavesNothing() {
        MongoCollection<Document> c = fresh("aborted");
        c.insertOne(new Document("_id", 1).append("v", "before"));
        try (ClientSession s = client.startSession()) {
            s.startTransaction();
            c.insertMany(s, List.of(new Document("_id", 2), new Document("_id", 3)));
            c.updateOne(s, Filters.eq("_id", 1), Updates.set("v", "during"));
            assertEquals(3, c.countDocuments(s, new Document()));
            s.abortTransaction();
        }
        assertEquals(List.of(new Document("_id", 1).append("v", "before")), c.find().into(new ArrayList<>()));
        // a session closed with its transaction open aborts it too
        try (ClientSession s = client.startSession()) {
            s.startTransaction();
            c.insertOne(s, new Document("_id", 4));
        }
        assertEquals(1, c.countDocuments());
    }

    @Test
    void aTransactionOverTwoShardKeyValuesIsRefusedAndAppliesNothing() {
        fresh("byRegion");
        client.getDatabase("admin").runCommand(new Document("shardCollection", "txn.byRegion")
                .append("key", new Document("region", "hashed")));
        MongoCollection<Document> c = client.getDatabase("txn").getCollection("byRegion");
        try (ClientSession s = client.startSession()) {
            s.startTransaction();
            c.insertOne(s, new Document("_id", 1).append("region", "eu"));
            c.insertOne(s, new Document("_id", 2).append("region", "eu"));
            MongoException e = assertThrows(MongoException.class,
                    () -> c.insertOne(s, new Document("_id", 3).append("region", "us")));
            assertEquals(263, e.getCode());
            assertTrue(e.getMessage().contains("one logical partition"), e.getMessage());
            MongoException commit = assertThrows(MongoException.class, s::commitTransaction);
            assertEquals(251, commit.getCode(), "the failed write ended the transaction");
        }
        assertEquals(0, c.countDocuments());
        // one shard key value is fine
        try (ClientSession s = client.startSession()) {
            s.startTransaction();
            c.insertOne(s, new Document("_id", 1).append("region", "eu"));
            c.insertOne(s, new Document("_id", 2).append("region", "eu"));
            s.commitTransaction();
        }
        assertEquals(2, c.countDocuments(Filters.eq("region", "eu")));
    }

    @Test
    void twoCollectionsInOneTransactionAreRefused() {
        MongoCollection<Document> a = fresh("first");
        MongoCollection<Document> b = fresh("second");
        try (ClientSession s = client.startSession()) {
            s.startTransaction();
            a.insertOne(s, new Document("_id", 1));
            MongoException e = assertThrows(MongoException.class, () -> b.insertOne(s, new Document("_id", 1)));
            assertEquals(263, e.getCode());
        }
        assertEquals(0, a.countDocuments());
        assertEquals(0, b.countDocuments());
    }

    @Test
    void withTransactionCommitsItsBody() {
        MongoCollection<Document> c = fresh("orders");
        try (ClientSession s = client.startSession()) {
            String result = s.withTransaction(() -> {
                c.insertOne(s, new Document("_id", "o1").append("qty", 2));
                c.insertOne(s, new Document("_id", "o2").append("qty", 3));
                c.updateOne(s, Filters.eq("_id", "o1"), Updates.inc("qty", 1));
                return "done";
            });
            assertEquals("done", result);
        }
        assertEquals(3, c.find(Filters.eq("_id", "o1")).first().getInteger("qty"));
        assertEquals(2, c.countDocuments());
    }

    @Test
    void theSecondWriterOfADocumentGetsAWriteConflict() {
        MongoCollection<Document> c = fresh("contended");
        c.insertOne(new Document("_id", 1).append("n", 0));
        try (ClientSession first = client.startSession(); ClientSession second = client.startSession()) {
            first.startTransaction();
            second.startTransaction();
            c.updateOne(first, Filters.eq("_id", 1), Updates.inc("n", 1));
            MongoCommandException e = assertThrows(MongoCommandException.class,
                    () -> c.updateOne(second, Filters.eq("_id", 1), Updates.inc("n", 10)));
            assertEquals(112, e.getErrorCode());
            assertTrue(e.hasErrorLabel("TransientTransactionError"));
            first.commitTransaction();
            assertThrows(MongoException.class, second::commitTransaction);
        }
        assertEquals(1, c.find().first().getInteger("n"));
    }

    @Test
    void aWriteOutsideTheTransactionMakesItsCommitConflict() {
        MongoCollection<Document> c = fresh("outside");
        c.insertOne(new Document("_id", 1).append("n", 0));
        try (ClientSession s = client.startSession()) {
            s.startTransaction();
            c.updateOne(s, Filters.eq("_id", 1), Updates.inc("n", 1));
            c.updateOne(Filters.eq("_id", 1), Updates.set("n", 100)); // not in the transaction
            MongoCommandException e = assertThrows(MongoCommandException.class, s::commitTransaction);
            assertEquals(112, e.getErrorCode());
            assertTrue(e.hasErrorLabel("TransientTransactionError"));
        }
        assertEquals(100, c.find().first().getInteger("n"));
    }

    @Test
    void withTransactionRetriesAfterAConflictAndLosesNoIncrement() {
        MongoCollection<Document> c = fresh("retried");
        c.insertOne(new Document("_id", 1).append("n", 0));
        AtomicInteger attempts = new AtomicInteger();
        try (ClientSession s = client.startSession()) {
            s.withTransaction(() -> {
                c.updateOne(s, Filters.eq("_id", 1), Updates.inc("n", 1));
                if (attempts.incrementAndGet() == 1) {
                    c.updateOne(Filters.eq("_id", 1), Updates.inc("n", 10)); // interferes once
                }
                return null;
            });
        }
        assertEquals(2, attempts.get(), "the conflicting first attempt was retried");
        assertEquals(11, c.find().first().getInteger("n"));
    }

    @Test
    void concurrentTransactionsMovingMoneyLoseNothing() throws Exception {
        MongoCollection<Document> c = fresh("bank");
        c.insertMany(List.of(new Document("_id", "a").append("v", 1000), new Document("_id", "b").append("v", 0),
                new Document("_id", "moves").append("n", 0)));
        int threads = 4;
        int perThread = 10;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        List<java.util.concurrent.Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            done.add(pool.submit(() -> {
                for (int i = 0; i < perThread; i++) {
                    try (ClientSession s = client.startSession()) {
                        s.withTransaction(() -> {
                            c.updateOne(s, Filters.eq("_id", "a"), Updates.inc("v", -1));
                            c.updateOne(s, Filters.eq("_id", "b"), Updates.inc("v", 1));
                            c.updateOne(s, Filters.eq("_id", "moves"), Updates.inc("n", 1));
                            return null;
                        });
                    }
                }
                return null;
            }));
        }
        for (java.util.concurrent.Future<?> f : done) {
            f.get(120, java.util.concurrent.TimeUnit.SECONDS);
        }
        pool.shutdown();
        int moves = threads * perThread;
        assertEquals(moves, c.find(Filters.eq("_id", "moves")).first().getInteger("n"));
        assertEquals(1000 - moves, c.find(Filters.eq("_id", "a")).first().getInteger("v"));
        assertEquals(moves, c.find(Filters.eq("_id", "b")).first().getInteger("v"));
    }

    @Test
    void aTransactionPastTheCoreBatchLimitIsRefused() {
        MongoCollection<Document> c = fresh("big");
        try (ClientSession s = client.startSession()) {
            s.startTransaction();
            List<Document> docs = new ArrayList<>();
            for (int i = 0; i < 101; i++) {
                docs.add(new Document("_id", i));
            }
            MongoException e = assertThrows(MongoException.class, () -> c.insertMany(s, docs));
            assertEquals(334, e.getCode());
        }
        assertEquals(0, c.countDocuments());
    }
}

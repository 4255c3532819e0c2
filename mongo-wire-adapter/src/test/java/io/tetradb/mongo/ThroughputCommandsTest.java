package io.tetradb.mongo;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoDatabase;
import org.bson.Document;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cosmos DB's API for MongoDB throughput extension commands and its rate limiting (error 16500 with RetryAfterMs),
 * through the MongoDB Java driver.
 */
class ThroughputCommandsTest extends MongoServerTestBase {
    @BeforeAll
    static void rateLimitingOn() {
        store.coreStore().rateLimiter().setEnabled(true);
        // the buckets' clock stands still: a spent budget stays spent (nothing here depends on the machine's speed)
        store.coreStore().rateLimiter().setClock(() -> 1_000_000_000_000L);
    }

    @Test
    void overBudgetWritesFailWith16500AndRetryAfterMs() {
        MongoDatabase db = client.getDatabase("rl");
        db.runCommand(new Document("customAction", "CreateCollection").append("collection", "hot")
                .append("offerThroughput", 400));
        MongoWriteException e = assertThrows(MongoWriteException.class, () -> {
            for (int i = 0; i < 1000; i++) {
                db.getCollection("hot").insertOne(new Document("_id", i).append("pad", "x".repeat(20_000)));
            }
        });
        assertEquals(16500, e.getError().getCode());
        assertTrue(e.getError().getMessage().matches("Error=16500, RetryAfterMs=\\d+, Details='.*TooManyRequests \\(429\\); "
                + "Substatus: 3200.*"), e.getError().getMessage());
        MongoCommandException q = assertThrows(MongoCommandException.class,
                () -> db.getCollection("hot").find().first());
        assertEquals(16500, q.getErrorCode());
        assertTrue(q.getErrorMessage().contains("RetryAfterMs="), q.getErrorMessage());
    }

    @Test
    void aThrottledCommitIs16500AndATransientTransactionError() {
        MongoDatabase db = client.getDatabase("rltx");
        db.runCommand(new Document("customAction", "CreateCollection").append("collection", "orders")
                .append("offerThroughput", 400));
        try (com.mongodb.client.ClientSession session = client.startSession()) {
            session.startTransaction();
            db.getCollection("orders").insertOne(session, new Document("_id", "in-tx"));
            // the budget is spent outside the transaction before it commits (the buckets' clock stands still)
            assertThrows(MongoWriteException.class, () -> {
                for (int i = 0; i < 1000; i++) {
                    db.getCollection("orders").insertOne(new Document("_id", i).append("pad", "x".repeat(20_000)));
                }
            });
            MongoCommandException e = assertThrows(MongoCommandException.class, session::commitTransaction);
            assertEquals(16500, e.getErrorCode());
            assertTrue(e.getErrorMessage().contains("RetryAfterMs="), e.getErrorMessage());
            assertTrue(e.hasErrorLabel("TransientTransactionError"), "the whole transaction may be retried");
        }
        store.coreStore().rateLimiter().setEnabled(false);
        try {
            assertEquals(0, db.getCollection("orders").countDocuments(new Document("_id", "in-tx")),
                    "a throttled commit applies nothing");
        } finally {
            store.coreStore().rateLimiter().setEnabled(true);
        }
    }

    @Test
    void createGetAndUpdateCollectionThroughput() {
        MongoDatabase db = client.getDatabase("cc");
        assertEquals(1.0, db.runCommand(new Document("customAction", "CreateCollection").append("collection", "orders")
                .append("shardKey", "region").append("offerThroughput", 1000)).get("ok", Number.class).doubleValue());
        Document got = db.runCommand(new Document("customAction", "GetCollection").append("collection", "orders"));
        assertEquals("cc", got.getString("database"));
        assertEquals("orders", got.getString("collection"));
        assertEquals(1000, got.getInteger("provisionedThroughput"));
        assertEquals(new Document("region", "hashed"), got.get("shardKeyDefinition", Document.class));
        db.runCommand(new Document("customAction", "UpdateCollection").append("collection", "orders")
                .append("offerThroughput", 1200));
        assertEquals(1200, db.runCommand(new Document("customAction", "GetCollection").append("collection", "orders"))
                .getInteger("provisionedThroughput"));
        db.runCommand(new Document("customAction", "CreateCollection").append("collection", "auto")
                .append("autoScaleSettings", new Document("maxThroughput", 4000)));
        Document auto = db.runCommand(new Document("customAction", "GetCollection").append("collection", "auto"));
        assertEquals(400, auto.getInteger("provisionedThroughput"));
        assertEquals(new Document("maxThroughput", 4000), auto.get("autoScaleSettings", Document.class));
        assertFalse(auto.containsKey("shardKeyDefinition"));
        // more than 10,000 RU/s needs a shard key, as in Cosmos DB
        MongoCommandException big = assertThrows(MongoCommandException.class, () -> db.runCommand(
                new Document("customAction", "CreateCollection").append("collection", "big").append("offerThroughput", 20_000)));
        assertEquals(2, big.getErrorCode());
        MongoCommandException exists = assertThrows(MongoCommandException.class, () -> db.runCommand(
                new Document("customAction", "CreateCollection").append("collection", "orders")));
        assertEquals(48, exists.getErrorCode());
        MongoCommandException low = assertThrows(MongoCommandException.class, () -> db.runCommand(
                new Document("customAction", "UpdateCollection").append("collection", "orders").append("offerThroughput", 100)));
        assertEquals(2, low.getErrorCode());
    }

    @Test
    void sharedDatabaseThroughput() {
        MongoDatabase db = client.getDatabase("shareddb");
        db.runCommand(new Document("customAction", "CreateDatabase").append("offerThroughput", 1000));
        Document got = db.runCommand(new Document("customAction", "GetDatabase"));
        assertEquals("shareddb", got.getString("database"));
        assertEquals(1000, got.getInteger("provisionedThroughput"));
        db.runCommand(new Document("customAction", "CreateCollection").append("collection", "a"));
        // a collection that shares the database's throughput shows none of its own
        Document a = db.runCommand(new Document("customAction", "GetCollection").append("collection", "a"));
        assertFalse(a.containsKey("provisionedThroughput"), a.toJson());
        db.runCommand(new Document("customAction", "UpdateDatabase").append("autoScaleSettings",
                new Document("maxThroughput", 20_000)));
        Document auto = db.runCommand(new Document("customAction", "GetDatabase"));
        assertEquals(2000, auto.getInteger("provisionedThroughput"));
        assertEquals(new Document("maxThroughput", 20_000), auto.get("autoScaleSettings", Document.class));
        Document plain = client.getDatabase("plaindb").runCommand(new Document("customAction", "CreateDatabase"));
        assertEquals(1.0, plain.get("ok", Number.class).doubleValue());
        assertEquals(new Document("database", "plaindb").append("ok", 1.0),
                client.getDatabase("plaindb").runCommand(new Document("customAction", "GetDatabase")));
    }
}

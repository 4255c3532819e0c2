package io.tetradb.mongo;

import com.mongodb.MongoCommandException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import io.tetradb.core.ttl.ManualClock;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.testing.TestTime;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** MongoDB TTL indexes through the Java driver, on a store whose clock the test moves. */
class TtlIndexTest {
    @TempDir
    Path dir;
    final Instant t0 = Instant.parse("2026-05-01T12:00:00Z");
    final ManualClock clock = new ManualClock(t0);
    CosmosClient store;
    MongoWireServer server;
    MongoClient client;
    MongoDatabase db;

    @BeforeEach
    void start() throws Exception {
        open();
    }

    private void open() throws Exception {
        store = new CosmosClientBuilder().dataDirectory(dir).clock(clock).buildClient();
        server = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store);
        client = PatientDriver.client(server);
        db = client.getDatabase("ttl");
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
        store.close();
    }

    private Date at(long seconds) {
        return Date.from(t0.plusSeconds(seconds));
    }

    private static Set<Object> ids(MongoCollection<Document> c) {
        return c.find().into(new ArrayList<>()).stream().map(d -> d.get("_id")).collect(Collectors.toSet());
    }

    @Test
    void documentsExpireAtTheirDatePlusTheSeconds() throws InterruptedException {
        MongoCollection<Document> c = db.getCollection("sessions");
        c.createIndex(new Document("at", 1), new IndexOptions().expireAfter(60L, TimeUnit.SECONDS));
        c.insertOne(new Document("_id", 1).append("at", at(0)));
        c.insertOne(new Document("_id", 2).append("at", at(30)));
        c.insertOne(new Document("_id", 3).append("at", List.of(at(100), at(10)))); // earliest date counts
        c.insertOne(new Document("_id", 4).append("at", "not a date"));
        c.insertOne(new Document("_id", 5));
        c.insertOne(new Document("_id", 6).append("at", 12345));
        clock.advance(Duration.ofSeconds(59));
        assertEquals(Set.of(1, 2, 3, 4, 5, 6), ids(c));
        clock.advance(Duration.ofSeconds(1));
        assertEquals(Set.of(2, 3, 4, 5, 6), ids(c));
        assertEquals(0, c.countDocuments(Filters.eq("_id", 1)));
        clock.advance(Duration.ofSeconds(10));
        assertEquals(Set.of(2, 4, 5, 6), ids(c));
        clock.advance(Duration.ofSeconds(20));
        assertEquals(Set.of(4, 5, 6), ids(c), "non-date and missing values never expire");
        clock.advance(Duration.ofDays(3650));
        assertEquals(Set.of(4, 5, 6), ids(c));
        store.coreStore().ttlPurger().purgeNow();
        assertEquals(3, store.coreStore().ttlPurger().awaitPurgedTotal(3, TestTime.patience(Duration.ofSeconds(30))));
        assertEquals(Set.of(4, 5, 6), ids(c));
    }

    @Test
    void theIndexIsListedAndCollModChangesIt() throws Exception {
        MongoCollection<Document> c = db.getCollection("events");
        c.insertOne(new Document("_id", "old").append("at", at(0)));
        String name = c.createIndex(new Document("at", 1), new IndexOptions().expireAfter(3600L, TimeUnit.SECONDS));
        Document listed = c.listIndexes().into(new ArrayList<>()).stream()
                .filter(i -> i.getString("name").equals(name)).findFirst().orElseThrow();
        assertEquals(3600, ((Number) listed.get("expireAfterSeconds")).intValue());
        clock.advance(Duration.ofSeconds(120));
        assertEquals(Set.of("old"), ids(c));
        Document reply = db.runCommand(new Document("collMod", "events").append("index",
                new Document("keyPattern", new Document("at", 1)).append("expireAfterSeconds", 60)));
        assertEquals(3600, ((Number) reply.get("expireAfterSeconds_old")).intValue());
        assertEquals(60, ((Number) reply.get("expireAfterSeconds_new")).intValue());
        assertEquals(Set.of(), ids(c), "the new time to live applies to documents already stored");
        store.coreStore().ttlPurger().purgeNow();
        assertEquals(1, store.coreStore().ttlPurger().awaitPurgedTotal(1, TestTime.patience(Duration.ofSeconds(30))));
        db.runCommand(new Document("collMod", "events").append("index",
                new Document("name", name).append("expireAfterSeconds", 7200)));
        Document relisted = c.listIndexes().into(new ArrayList<>()).stream()
                .filter(i -> i.getString("name").equals(name)).findFirst().orElseThrow();
        assertEquals(7200, ((Number) relisted.get("expireAfterSeconds")).intValue());
        // restart: the rule and the documents' expiry are kept
        c.insertOne(new Document("_id", "new").append("at", Date.from(clock.instant())));
        stop();
        open();
        MongoCollection<Document> again = db.getCollection("events");
        assertEquals(Set.of("new"), ids(again));
        clock.advance(Duration.ofSeconds(7200));
        assertEquals(Set.of(), ids(again));
        store.coreStore().ttlPurger().purgeNow(); // purged before the drop (as MongoDB, a drop would keep it else)
        assertEquals(1, store.coreStore().ttlPurger().awaitPurgedTotal(1, TestTime.patience(Duration.ofSeconds(30))));
        // dropping the index stops expiry
        again.dropIndex(name);
        again.insertOne(new Document("_id", "kept").append("at", at(0)));
        clock.advance(Duration.ofDays(365));
        assertEquals(Set.of("kept"), ids(again));
    }

    @Test
    void badTtlIndexesAreRefusedAsMongoDbRefusesThem() {
        MongoCollection<Document> c = db.getCollection("bad");
        c.insertOne(new Document("_id", 1));
        MongoCommandException negative = assertThrows(MongoCommandException.class, () -> db.runCommand(
                new Document("createIndexes", "bad").append("indexes", List.of(new Document("key",
                        new Document("w", 1)).append("name", "w_1").append("expireAfterSeconds", -1)))));
        assertEquals(67, negative.getErrorCode());
        assertTrue(negative.getErrorMessage().contains("cannot be less than 0"), negative.getErrorMessage());
        MongoCommandException compound = assertThrows(MongoCommandException.class, () -> c.createIndex(
                new Document("a", 1).append("b", 1), new IndexOptions().expireAfter(5L, TimeUnit.SECONDS)));
        assertEquals(67, compound.getErrorCode());
        assertTrue(compound.getErrorMessage().startsWith("TTL indexes are single-field indexes"));
        c.createIndex(new Document("a", 1).append("b", 1));
        MongoCommandException collModCompound = assertThrows(MongoCommandException.class, () -> db.runCommand(
                new Document("collMod", "bad").append("index", new Document("keyPattern",
                        new Document("a", 1).append("b", 1)).append("expireAfterSeconds", 5))));
        assertEquals(72, collModCompound.getErrorCode());
        MongoCommandException missing = assertThrows(MongoCommandException.class, () -> db.runCommand(
                new Document("collMod", "bad").append("index", new Document("name", "nope")
                        .append("expireAfterSeconds", 5))));
        assertEquals(27, missing.getErrorCode());
    }
}

package io.tetradb.mongo;

import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Updates;
import io.tetradb.document.CosmosClient;
import io.tetradb.testing.TestTime;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Unique indexes on a shared engine (issue 20): two Mongo-face servers on one shared store (an embedded directory
 * presented as shared, as a Cassandra keyspace is to several servers), the MongoDB Java driver on each. createIndexes
 * over stored duplicates fails with 11000 and leaves no index on either server; made, it is enforced by both (E11000
 * with MongoDB's text); inserts of one value racing through both servers have exactly one winner; sparse and partial
 * unique indexes leave documents out as MongoDB does; dropIndex on one server frees the values on the other.
 */
class SharedEngineUniqueIndexTest {
    @TempDir
    Path dir;
    private MongoServersOnSharedStore servers;

    @BeforeEach
    void start() {
        servers = new MongoServersOnSharedStore(dir, null, 2);
    }

    @AfterEach
    void stop() {
        if (servers != null) {
            servers.close();
        }
    }

    /**
     * {@code read}'s value once it equals {@code expected}, or its last one when it never came (another server's
     * catalog; {@link TestTime#patience}).
     */
    private static <T> T eventually(java.util.function.Supplier<T> read, T expected) {
        long until = System.nanoTime() + TestTime.patience(java.time.Duration.ofSeconds(10)).toNanos();
        T last = read.get();
        while (!last.equals(expected) && System.nanoTime() < until) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            last = read.get();
        }
        return last;
    }

    private static List<String> names(MongoCollection<Document> c) {
        List<String> out = new ArrayList<>();
        c.listIndexes().forEach(d -> out.add(d.getString("name")));
        return out;
    }

    @Test
    void createIndexOverDuplicatesFailsThenTheIndexIsEnforcedByBothServers() {
        MongoCollection<Document> onA = servers.get(0).coll("uniq", "people");
        MongoCollection<Document> onB = servers.get(1).coll("uniq", "people");
        onA.insertOne(new Document("_id", 1).append("email", "x@a"));
        onB.insertOne(new Document("_id", 2).append("email", "x@a"));
        com.mongodb.DuplicateKeyException dup = assertThrows(com.mongodb.DuplicateKeyException.class,
                () -> onA.createIndex(new Document("email", 1), new IndexOptions().unique(true)));
        assertEquals(11000, dup.getCode());
        assertTrue(dup.getMessage().contains("dup key: { email: \"x@a\" }"), dup.getMessage());
        assertEquals(List.of("_id_"), names(onA));
        assertEquals(List.of("_id_"), names(onB));
        onB.insertOne(new Document("_id", 3).append("email", "x@a")); // not enforced: nothing was left behind

        onB.deleteMany(Filters.in("_id", 2, 3));
        onA.createIndex(new Document("email", 1), new IndexOptions().unique(true));
        assertEquals(List.of("_id_", "email_1"), eventually(() -> names(onB), List.of("_id_", "email_1")));
        MongoWriteException taken = assertThrows(MongoWriteException.class,
                () -> onB.insertOne(new Document("_id", 4).append("email", "x@a")));
        assertEquals(11000, taken.getError().getCode());
        assertEquals("E11000 duplicate key error collection: uniq.people index: email_1 dup key: { email: \"x@a\" }",
                taken.getError().getMessage());
        // an update on one server frees the value, the other takes it
        onA.updateOne(Filters.eq("_id", 1), Updates.set("email", "y@a"));
        onB.insertOne(new Document("_id", 4).append("email", "x@a"));
        assertEquals(11000, assertThrows(MongoWriteException.class,
                () -> onA.updateOne(Filters.eq("_id", 1), Updates.set("email", "x@a"))).getError().getCode());

        // dropped on one server: the other stops enforcing it once its catalog check (1 s) has seen the drop
        onA.dropIndex("email_1");
        assertEquals(List.of("_id_"), eventually(() -> names(onB), List.of("_id_")));
        assertEquals(true, eventually(() -> {
            try {
                onB.insertOne(new Document("_id", 5).append("email", "x@a"));
                return true;
            } catch (MongoWriteException stillEnforced) {
                return false;
            }
        }, true));
    }

    @Test
    void insertsOfOneValueRacingThroughBothServersHaveExactlyOneWinner() throws Exception {
        servers.get(0).coll("uniq", "race").createIndex(new Document("v", 1), new IndexOptions().unique(true));
        int writers = 6;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            for (int round = 0; round < 10; round++) {
                CountDownLatch go = new CountDownLatch(1);
                List<Future<Boolean>> outcomes = new ArrayList<>();
                for (int w = 0; w < writers; w++) {
                    MongoCollection<Document> c = servers.get(w % 2).coll("uniq", "race");
                    Document doc = new Document("_id", "r" + round + "w" + w).append("v", round);
                    outcomes.add(pool.submit(() -> {
                        go.await();
                        try {
                            c.insertOne(doc);
                            return true;
                        } catch (MongoWriteException e) {
                            assertEquals(11000, e.getError().getCode(), e.getMessage());
                            return false;
                        }
                    }));
                }
                go.countDown();
                int won = 0;
                for (Future<Boolean> f : outcomes) {
                    won += f.get() ? 1 : 0;
                }
                assertEquals(1, won, "round " + round);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(10, servers.get(1).coll("uniq", "race").countDocuments());
    }

    @Test
    void sparseAndPartialUniqueIndexesLeaveDocumentsOutOnBothServers() {
        MongoCollection<Document> sparseA = servers.get(0).coll("uniq", "sparse");
        MongoCollection<Document> sparseB = servers.get(1).coll("uniq", "sparse");
        sparseA.createIndex(new Document("b", 1), new IndexOptions().unique(true).sparse(true));
        sparseA.insertOne(new Document("_id", 1));
        sparseB.insertOne(new Document("_id", 2)); // missing: left out of a sparse index
        sparseA.insertOne(new Document("_id", 3).append("b", null));
        MongoWriteException nulls = assertThrows(MongoWriteException.class,
                () -> sparseB.insertOne(new Document("_id", 4).append("b", null)));
        assertEquals("E11000 duplicate key error collection: uniq.sparse index: b_1 dup key: { b: null }",
                nulls.getError().getMessage());

        MongoCollection<Document> partialA = servers.get(0).coll("uniq", "partial");
        MongoCollection<Document> partialB = servers.get(1).coll("uniq", "partial");
        partialA.createIndex(new Document("code", 1), new IndexOptions().unique(true)
                .partialFilterExpression(new Document("active", true)));
        partialA.insertOne(new Document("_id", 1).append("code", "k").append("active", false));
        partialB.insertOne(new Document("_id", 2).append("code", "k").append("active", true));
        partialA.insertOne(new Document("_id", 3).append("code", "k")); // outside the filter
        assertEquals(11000, assertThrows(MongoWriteException.class, () -> partialA.insertOne(
                new Document("_id", 4).append("code", "k").append("active", true))).getError().getCode());
        assertEquals(11000, assertThrows(MongoWriteException.class, () -> partialB.updateOne(Filters.eq("_id", 1),
                Updates.set("active", true))).getError().getCode());
    }
}

package io.tetradb.mongo;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Updates;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Writers racing on the same documents through separate connections: updates retry on the version they read, so no
 * increment is lost; unique indexes admit exactly one of several equal inserts.
 */
class ConcurrentWritesTest extends MongoServerTestBase {

    @Test
    void concurrentIncrementsAreNeverLost() throws Exception {
        MongoCollection<Document> c = client.getDatabase("race").getCollection("counters");
        c.drop();
        c.insertOne(new Document("_id", "hits").append("n", 0));
        int threads = 6;
        int perThread = 40;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        c.updateOne(Filters.eq("_id", "hits"), Updates.inc("n", 1));
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        assertEquals(threads * perThread, c.find().first().get("n"));
    }

    @Test
    void aUniqueIndexAdmitsOneOfManyEqualInserts() throws Exception {
        MongoCollection<Document> c = client.getDatabase("race").getCollection("users");
        c.drop();
        c.createIndex(new Document("email", 1), new IndexOptions().unique(true));
        AtomicInteger accepted = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                done.add(pool.submit(() -> {
                    try {
                        c.insertOne(new Document("email", "same@x"));
                        accepted.incrementAndGet();
                    } catch (com.mongodb.MongoWriteException e) {
                        assertEquals(11000, e.getError().getCode());
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        assertEquals(1, accepted.get());
        assertEquals(1, c.countDocuments(Filters.eq("email", "same@x")));
    }
}

package io.tetradb.mongo;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * The frame of the tests that run on a {@link ClockedMongoServer}: each test's server in its own directory, its
 * client, {@code app} and {@code app.c} at hand, and the server closed after the test (after the subclass's own
 * {@code @AfterEach}, which JUnit runs first).
 */
abstract class ClockedMongoTest {
    @TempDir
    Path dir;
    ClockedMongoServer mongo;
    MongoClient client;
    MongoDatabase db;
    MongoCollection<Document> c;

    /** Starts the test's server; see {@link ClockedMongoServer#ClockedMongoServer}. */
    void start(long slowStepMillis, Consumer<String> onOtherCheck, List<Document> docs) {
        mongo = new ClockedMongoServer(dir, slowStepMillis, onOtherCheck, docs);
        client = mongo.client;
        db = mongo.db;
        c = mongo.c;
    }

    @AfterEach
    void closeServer() {
        if (mongo != null) {
            mongo.close();
        }
    }
}

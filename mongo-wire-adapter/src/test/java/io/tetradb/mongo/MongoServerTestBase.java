package io.tetradb.mongo;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts a store in a temporary directory and the Mongo wire server on a free port of 127.0.0.1, and connects the
 * official MongoDB Java driver to it, as a user's program would.
 */
abstract class MongoServerTestBase {
    @TempDir
    static Path dataDir;
    static CosmosClient store;
    static MongoWireServer server;
    static MongoClient client;

    @BeforeAll
    static void startServer() throws Exception {
        store = new CosmosClientBuilder().dataDirectory(dataDir).buildClient();
        server = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store);
        client = connect();
    }

    static MongoClient connect() {
        return MongoClients.create(PatientDriver.settings(PatientDriver.uri(server, ""))
                .applyToSocketSettings(b -> b.readTimeout(PatientDriver.WAIT_MILLIS, TimeUnit.MILLISECONDS))
                .build());
    }

    /** Collection {@code name} of {@code db}, emptied, then holding these documents (extended JSON), inserted in order. */
    static MongoCollection<Document> fresh(MongoDatabase db, String name, String... docs) {
        MongoCollection<Document> c = db.getCollection(name);
        c.drop();
        for (String d : docs) {
            c.insertOne(Document.parse(d));
        }
        return c;
    }

    /** The results of a pipeline written as one extended-JSON stage per argument. */
    static List<Document> aggregate(MongoCollection<Document> c, String... stages) {
        List<Document> pipeline = new ArrayList<>();
        for (String stage : stages) {
            pipeline.add(Document.parse(stage));
        }
        return c.aggregate(pipeline).into(new ArrayList<>());
    }

    @AfterAll
    static void stopServer() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
        if (store != null) {
            store.close();
        }
    }
}

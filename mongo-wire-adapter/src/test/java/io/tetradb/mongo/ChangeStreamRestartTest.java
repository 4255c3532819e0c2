package io.tetradb.mongo;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.changestream.ChangeStreamDocument;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import org.bson.BsonDocument;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** A change stream's resume token stays valid when the server restarts on the same data directory. */
class ChangeStreamRestartTest {

    @Test
    void resumeAfterARestartDeliversTheLaterEventsExactlyOnce(@TempDir Path dir) {
        BsonDocument token;
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).buildClient();
             MongoWireServer server = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store);
             MongoClient client = PersistenceTest.connect(server)) {
            MongoCollection<Document> c = client.getDatabase("r").getCollection("events");
            try (var cursor = c.watch().maxAwaitTime(20, TimeUnit.SECONDS).cursor()) {
                c.insertOne(new Document("_id", "a"));
                c.insertOne(new Document("_id", "b"));
                token = cursor.next().getResumeToken(); // after "a"
            }
            c.updateOne(new Document("_id", "b"), new Document("$set", new Document("v", 1)));
        }
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).buildClient();
             MongoWireServer server = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store);
             MongoClient client = PersistenceTest.connect(server)) {
            MongoCollection<Document> c = client.getDatabase("r").getCollection("events");
            c.insertOne(new Document("_id", "c"));
            try (var cursor = c.watch().resumeAfter(token).maxAwaitTime(200, TimeUnit.MILLISECONDS).cursor()) {
                List<String> seen = new ArrayList<>();
                for (ChangeStreamDocument<Document> e = cursor.tryNext(); e != null; e = cursor.tryNext()) {
                    seen.add(e.getOperationType().getValue() + ":" + e.getDocumentKey().getString("_id").getValue());
                }
                assertEquals(List.of("insert:b", "update:b", "insert:c"), seen);
                assertNull(cursor.tryNext());
            }
        }
    }
}

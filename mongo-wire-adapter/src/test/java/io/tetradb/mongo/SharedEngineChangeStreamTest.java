package io.tetradb.mongo;

import com.mongodb.client.MongoChangeStreamCursor;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import com.mongodb.client.model.changestream.ChangeStreamDocument;
import io.tetradb.document.CosmosClient;
import org.bson.BsonDocument;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Change streams on a shared engine (issue 20): two Mongo-face servers on one shared store (an embedded directory
 * presented as shared, as a Cassandra keyspace is to several servers), the MongoDB Java driver on each. A resume token
 * from one server's stream resumes on the other after a restart: the token carries the stream's cursors per logical
 * partition, not one server's feed sequence.
 */
class SharedEngineChangeStreamTest {
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

    private static String describe(ChangeStreamDocument<Document> e) {
        return e.getOperationType().getValue() + ":" + e.getDocumentKey().get("_id").asString().getValue();
    }

    /** Every event the stream has now (it waits briefly for each next one). */
    private static List<String> drain(MongoChangeStreamCursor<ChangeStreamDocument<Document>> cursor) {
        List<String> seen = new ArrayList<>();
        for (ChangeStreamDocument<Document> e = cursor.tryNext(); e != null; e = cursor.tryNext()) {
            seen.add(describe(e));
        }
        return seen;
    }

    @Test
    void resumeAfterAnEventOnTheOtherServerDeliversTheLaterEventsOnce() {
        MongoCollection<Document> onA = servers.get(0).coll("shop", "orders");
        MongoCollection<Document> onB = servers.get(1).coll("shop", "orders");
        onA.insertOne(new Document("_id", "before"));
        BsonDocument token;
        try (var stream = onA.watch().maxAwaitTime(200, TimeUnit.MILLISECONDS).cursor()) {
            onA.insertOne(new Document("_id", "a"));
            onB.insertOne(new Document("_id", "b"));
            onA.insertOne(new Document("_id", "c"));
            assertEquals("insert:a", describe(stream.next()));
            ChangeStreamDocument<Document> b = stream.next();
            assertEquals("insert:b", describe(b));
            token = b.getResumeToken();
            assertTrue(token.getString("_data").getValue().startsWith("83"), token.toJson());
        }
        onB.updateOne(Filters.eq("_id", "a"), Updates.set("v", 1));
        onA.deleteOne(Filters.eq("_id", "b"));
        servers.restart(1);
        onB = servers.get(1).coll("shop", "orders");
        onB.insertOne(new Document("_id", "d"));
        try (var stream = onB.watch().resumeAfter(token).maxAwaitTime(200, TimeUnit.MILLISECONDS).cursor()) {
            assertEquals(List.of("insert:c", "update:a", "delete:b", "insert:d"), drain(stream));
        }
        // the update's description and the delete came from the images the other server's writers kept
        try (var stream = servers.get(0).coll("shop", "orders").watch().resumeAfter(token)
                .maxAwaitTime(200, TimeUnit.MILLISECONDS).cursor()) {
            stream.next();
            ChangeStreamDocument<Document> update = stream.next();
            assertEquals(1, update.getUpdateDescription().getUpdatedFields().getInt32("v").getValue());
        }
    }

    @Test
    void aDatabaseStreamAndAPostBatchTokenResumeOnTheOtherServer() {
        MongoCollection<Document> x = servers.get(0).coll("crm", "x");
        x.insertOne(new Document("_id", "x0"));
        servers.get(1).coll("crm", "y").insertOne(new Document("_id", "y0"));
        BsonDocument token;
        try (var stream = servers.get(0).client.getDatabase("crm").watch().maxAwaitTime(200, TimeUnit.MILLISECONDS)
                .cursor()) {
            servers.get(1).coll("crm", "x").insertOne(new Document("_id", "x1"));
            servers.get(0).coll("crm", "y").insertOne(new Document("_id", "y1"));
            assertEquals(List.of("insert:x1", "insert:y1"), drain(stream));
            token = stream.getResumeToken(); // the postBatchResumeToken: nothing new after it
        }
        servers.get(1).coll("crm", "y").updateOne(Filters.eq("_id", "y0"), Updates.set("v", 2));
        servers.get(0).coll("crm", "x").insertOne(new Document("_id", "x2"));
        servers.restart(0);
        try (var stream = servers.get(1).client.getDatabase("crm").watch().resumeAfter(token)
                .maxAwaitTime(200, TimeUnit.MILLISECONDS).cursor()) {
            List<String> got = drain(stream);
            assertEquals(2, got.size(), got.toString());
            assertTrue(got.containsAll(List.of("update:y0", "insert:x2")), got.toString());
        }
    }

    @Test
    void withManyPartitionsTokensStayBoundedAndResumeExactly() {
        servers.get(0).client.getDatabase("admin").runCommand(new Document("shardCollection", "big.events")
                .append("key", new Document("device", "hashed")));
        MongoCollection<Document> onA = servers.get(0).coll("big", "events");
        MongoCollection<Document> onB = servers.get(1).coll("big", "events");
        BsonDocument token;
        java.util.Set<String> expected = new java.util.HashSet<>();
        int maxKey = 4 + 1 + 16 + 2 + "device-299-with-a-long-identifier".length(); // coll, kind, EPK, pk
        int maxBytes = 0;
        try (var stream = onA.watch().maxAwaitTime(200, TimeUnit.MILLISECONDS).cursor()) {
            for (int i = 0; i < 300; i++) { // 300 logical partitions
                (i % 2 == 0 ? onA : onB).insertOne(new Document("_id", "e" + i).append("device",
                        "device-" + i + "-with-a-long-identifier"));
                expected.add("insert:e" + i);
            }
            for (int i = 0; i < 151; i++) {
                ChangeStreamDocument<Document> e = stream.next();
                assertTrue(expected.remove(describe(e)), describe(e));
                token = e.getResumeToken();
                int bytes = token.getString("_data").getValue().length() / 2;
                maxBytes = Math.max(maxBytes, bytes);
                // head, a base of at most 1.5 KB (else a stored copy's id), at most a batch's 100 partitions
                assertTrue(bytes <= 16 + 1536 + 100 * (maxKey + 8), "bounded: " + bytes + " bytes");
            }
            token = stream.getResumeToken();
            assertTrue(maxBytes > 1536, "the batch's partitions were in the tokens: " + maxBytes);
        }
        servers.restart(1);
        try (var stream = servers.get(1).coll("big", "events").watch().resumeAfter(token)
                .maxAwaitTime(200, TimeUnit.MILLISECONDS).cursor()) {
            List<String> got = drain(stream);
            assertEquals(149, got.size());
            assertEquals(expected, new java.util.HashSet<>(got));
        }
    }
}

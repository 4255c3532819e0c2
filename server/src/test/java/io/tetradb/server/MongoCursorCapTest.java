package io.tetradb.server;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import io.tetradb.core.net.ConnectionLimits;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code --max-open-cursors} reaches the Mongo face: with a cap of 2, the third open cursor closes the oldest; and
 * {@code --max-cursor-memory}: with 1 MiB, a second cursor holding 600 KB of 6 KB documents besides the first is
 * refused with 146.
 */
class MongoCursorCapTest {

    @Test
    void theServersCursorCapBoundsOpenCursors(@TempDir Path dir) {
        ServerLimits limits = new ServerLimits(null, ConnectionLimits.defaults(), null, null, 2);
        try (TetraDbServer server = new TetraDbServer(ServerConfig.ephemeral(dir).withMongoPort(0), limits).start();
             MongoClient client = MongoClients.create(server.endpoint("mongo").url())) {
            MongoCollection<Document> c = client.getDatabase("cap").getCollection("c");
            c.insertMany(IntStream.range(0, 5).mapToObj(i -> new Document("_id", i)).toList());
            List<MongoCursor<Document>> cursors = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                MongoCursor<Document> cursor = c.find().batchSize(1).iterator();
                cursor.next();
                cursors.add(cursor);
            }
            Document open = client.getDatabase("admin").runCommand(new Document("serverStatus", 1))
                    .get("metrics", Document.class).get("cursor", Document.class).get("open", Document.class);
            assertEquals(2, open.get("total", Number.class).intValue());
        }
    }

    @Test
    void theServersCursorMemoryBoundsWhatOpenCursorsHold(@TempDir Path dir) {
        ServerLimits limits = new ServerLimits(null, ConnectionLimits.defaults(), null, null, null, 1L << 20);
        try (TetraDbServer server = new TetraDbServer(ServerConfig.ephemeral(dir).withMongoPort(0), limits).start();
             MongoClient client = MongoClients.create(server.endpoint("mongo").url())) {
            MongoCollection<Document> c = client.getDatabase("cap").getCollection("big");
            c.insertMany(IntStream.range(0, 150).mapToObj(i -> new Document("_id", i)
                    .append("pad", "x".repeat(6_000))).toList());
            MongoCursor<Document> first = c.find().batchSize(1).iterator(); // the rest of a 101-document page: 600 KB
            first.next();
            com.mongodb.MongoServerException e = org.junit.jupiter.api.Assertions.assertThrows(
                    com.mongodb.MongoServerException.class, () -> c.find().batchSize(1).iterator().next());
            assertEquals(146, e.getCode(), e.getMessage());
            first.close();
            MongoCursor<Document> again = c.find().batchSize(1).iterator();
            again.next();
            again.close();
        }
    }
}

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

/** {@code --max-open-cursors} reaches the Mongo face: with a cap of 2, the third open cursor closes the oldest. */
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
}

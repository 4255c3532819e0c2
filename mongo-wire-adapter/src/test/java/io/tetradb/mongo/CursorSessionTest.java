package io.tetradb.mongo;

import com.mongodb.client.ClientSession;
import com.mongodb.client.MongoChangeStreamCursor;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import com.mongodb.client.model.changestream.ChangeStreamDocument;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static io.tetradb.mongo.RawCursorConnection.cursorId;
import static io.tetradb.mongo.RawCursorConnection.getMore;
import static io.tetradb.mongo.RawCursorConnection.nextBatch;
import static io.tetradb.mongo.RawCursorConnection.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * A cursor is continued in the session it was opened in, as mongod's getMore demands: 50736 for a getMore in a
 * session on a cursor opened without one, 50737 without a session on a cursor opened in one, 50738 in another
 * session; the cursor stays and reads on in its own session (find, aggregate and change stream cursors). Raw OP_MSG
 * frames carry exactly the lsid the test chooses (the driver adds one to every command); the MongoDB Java driver
 * shows real clients are unaffected: it sends a cursor's getMores in the cursor's session, implicit or explicit.
 */
class CursorSessionTest {
    private static final int DOCS = RawCursorConnection.DOCS;
    /** SHA-256 of the empty string: the user digest of a session without authentication, as mongod prints it. */
    private static final String NOBODY =
            "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855";

    @TempDir
    Path dir;
    private RawCursorConnection raw;
    private MongoClient client;

    @BeforeEach
    void start() throws IOException {
        raw = new RawCursorConnection(dir);
        client = raw.client;
    }

    @AfterEach
    void stop() throws IOException {
        raw.close();
    }

    /** Sends {@code command} on the raw connection (with {@code lsid.id = session}, none when null). */
    private BsonDocument run(BsonDocument command, UUID session) throws IOException {
        command.append("$db", new BsonString("app"));
        if (session != null) {
            command.append("lsid", new BsonDocument("id", new BsonBinary(session)));
        }
        return raw.send(command);
    }

    private static BsonDocument find(int batchSize) {
        return new BsonDocument("find", new BsonString("c")).append("batchSize", new BsonInt32(batchSize));
    }

    private static String session(UUID id) {
        return "{ id: UUID(\"" + id + "\"), uid: BinData(0, " + NOBODY + ") }";
    }

    @Test
    void aCursorOpenedInASessionIsContinuedOnlyInIt() throws IOException {
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        long cursor = cursorId(run(find(2), a));
        assertEquals("Cannot run getMore on cursor " + cursor + ", which was created in session " + session(a)
                + ", in session " + session(b), refused(50738, run(getMore(cursor), b)));
        assertEquals("Cannot run getMore on cursor " + cursor + ", which was created in session " + session(a)
                + ", without an lsid", refused(50737, run(getMore(cursor), null)));
        assertEquals(List.of(2, 3), nextBatch(run(getMore(cursor), a)), "the refusals left the cursor as it was");

        BsonDocument pipeline = new BsonDocument("aggregate", new BsonString("c")).append("pipeline",
                new BsonArray()).append("cursor", new BsonDocument("batchSize", new BsonInt32(2)));
        long aggregate = cursorId(run(pipeline, a));
        refused(50738, run(getMore(aggregate), b));
        refused(50737, run(getMore(aggregate), null));
        assertEquals(List.of(2, 3), nextBatch(run(getMore(aggregate), a)));
    }

    @Test
    void aCursorOpenedWithoutASessionIsNotContinuedInOne() throws IOException {
        UUID a = UUID.randomUUID();
        long cursor = cursorId(run(find(2), null));
        assertEquals("Cannot run getMore on cursor " + cursor + ", which was not created in a session, in session "
                + session(a), refused(50736, run(getMore(cursor), a)));
        assertEquals(List.of(2, 3), nextBatch(run(getMore(cursor), null)));
    }

    @Test
    void aChangeStreamIsContinuedOnlyInItsSession() throws IOException {
        UUID a = UUID.randomUUID();
        BsonDocument watch = new BsonDocument("aggregate", new BsonString("c")).append("pipeline",
                new BsonArray(List.of(new BsonDocument("$changeStream", new BsonDocument()))))
                .append("cursor", new BsonDocument());
        long stream = cursorId(run(watch, a));
        BsonDocument more = new BsonDocument("getMore", new BsonInt64(stream)).append("collection",
                new BsonString("c")).append("maxTimeMS", new BsonInt32(10));
        refused(50738, run(more.clone(), UUID.randomUUID()));
        refused(50737, run(more.clone(), null));
        client.getDatabase("app").getCollection("c").insertOne(new Document("_id", "new"));
        BsonDocument reply = run(more.clone().append("maxTimeMS", new BsonInt32(5000)), a);
        assertEquals(1.0, reply.getNumber("ok").doubleValue(), reply.toJson());
        assertEquals(1, reply.getDocument("cursor").getArray("nextBatch").size(), reply.toJson());
    }

    /** Passes on the old code too: it shows the driver's own getMores are never refused. */
    @Test
    void theJavaDriverContinuesEveryCursorInItsSession() {
        MongoCollection<Document> c = client.getDatabase("app").getCollection("c");
        List<Integer> implicit = new ArrayList<>();
        c.find().batchSize(2).forEach(d -> implicit.add(d.getInteger("_id"))); // an implicit session
        assertEquals(IntStream.range(0, DOCS).boxed().toList(), implicit);
        try (ClientSession session = client.startSession()) {
            List<Integer> explicit = new ArrayList<>();
            c.find(session).batchSize(3).forEach(d -> explicit.add(d.getInteger("_id")));
            assertEquals(DOCS, explicit.size());
            List<Document> grouped = c.aggregate(session, List.of(new Document("$sort", new Document("_id", -1))))
                    .batchSize(2).into(new ArrayList<>());
            assertEquals(DOCS, grouped.size());
            // two cursors of one session read alternately
            try (MongoCursor<Document> first = c.find(session).batchSize(1).iterator();
                 MongoCursor<Document> second = c.find(session).batchSize(1).iterator()) {
                for (int i = 0; i < DOCS; i++) {
                    assertEquals(i, first.next().getInteger("_id"));
                    assertEquals(i, second.next().getInteger("_id"));
                }
            }
        }
        try (MongoChangeStreamCursor<ChangeStreamDocument<Document>> stream = c.watch()
                .maxAwaitTime(20, TimeUnit.MILLISECONDS).cursor()) {
            assertEquals(null, stream.tryNext()); // a getMore in the stream's session
            c.insertOne(new Document("_id", "watched"));
            ChangeStreamDocument<Document> event = null;
            for (int i = 0; i < 500 && event == null; i++) {
                event = stream.tryNext();
            }
            assertNotEquals(null, event);
            BsonValue key = event.getDocumentKey().get("_id");
            assertEquals("watched", key.asString().getValue());
        }
    }
}

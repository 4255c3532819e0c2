package io.tetradb.mongo;

import com.mongodb.MongoCursorNotFoundException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.core.net.ConnectionLimits;
import io.tetradb.mongo.auth.MongoUsers;
import io.tetradb.mongo.command.CursorLimits;
import io.tetradb.testing.TestTime;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.DataInputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * What bounds the cursors a client opens and never closes, through the Java driver and on a clock the test moves:
 * MongoDB's 10-minute idle timeout (the next getMore is CursorNotFound 43, serverStatus counts it in
 * {@code metrics.cursor.timedOut}), the configurable cap on open cursors, a sessionless cursor ending with its
 * connection, and a session's cursors ending with the session when the driver closes ({@code endSessions}).
 */
class CursorLifetimeTest {

    /** A clock that moves only when told. */
    static final class ManualClock extends Clock {
        private final AtomicLong millis = new AtomicLong(Instant.parse("2026-11-26T00:00:00Z").toEpochMilli());

        void advance(Duration d) {
            millis.addAndGet(d.toMillis());
        }

        @Override
        public long millis() {
            return millis.get();
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis.get());
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }

    private static MongoWireServer start(CosmosClient store, CursorLimits limits) {
        return MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store, MongoUsers.none(),
                ConnectionLimits.defaults(), null, limits);
    }

    private static MongoClient connect(MongoWireServer server) {
        return PatientDriver.client(server);
    }

    private static MongoCollection<Document> seeded(MongoClient client) {
        MongoCollection<Document> c = client.getDatabase("cursors").getCollection("c");
        c.insertMany(IntStream.range(0, 10).mapToObj(i -> new Document("_id", i)).toList());
        return c;
    }

    private static MongoCursor<Document> openCursor(MongoCollection<Document> c) {
        MongoCursor<Document> cursor = c.find().sort(new Document("_id", 1)).batchSize(2).iterator();
        assertEquals(0, cursor.next().getInteger("_id"));
        return cursor;
    }

    private static Document cursorMetrics(MongoClient client) {
        return client.getDatabase("admin").runCommand(new Document("serverStatus", 1))
                .get("metrics", Document.class).get("cursor", Document.class);
    }

    private static long openCursors(MongoClient client) {
        return cursorMetrics(client).get("open", Document.class).get("total", Number.class).longValue();
    }

    @Test
    void anIdleCursorTimesOutAfterTenMinutesOnTheServersClock(@TempDir Path dir) {
        ManualClock clock = new ManualClock();
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).buildClient();
             MongoWireServer server = start(store, CursorLimits.defaults().withClock(clock));
             MongoClient client = connect(server)) {
            MongoCollection<Document> c = seeded(client);
            MongoCursor<Document> kept = openCursor(c);
            MongoCursor<Document> abandoned = openCursor(c);
            clock.advance(Duration.ofMinutes(9));
            assertEquals(1, kept.next().getInteger("_id"));
            assertEquals(2, kept.next().getInteger("_id"), "a getMore within the timeout keeps it alive");
            clock.advance(Duration.ofMinutes(1).plusMillis(1)); // abandoned: idle 10 min + 1 ms; kept: 1 min
            assertEquals(1, openCursors(client), "serverStatus sweeps the idle one");
            assertEquals(1, cursorMetrics(client).get("timedOut", Number.class).longValue());
            assertEquals(1, abandoned.next().getInteger("_id"), "its first batch was already on the client");
            assertEquals(43, assertThrows(MongoCursorNotFoundException.class, abandoned::next).getErrorCode());
            assertEquals(3, kept.next().getInteger("_id"));
            clock.advance(CursorLimits.DEFAULT_IDLE_TIMEOUT.plusMillis(1));
            assertThrows(MongoCursorNotFoundException.class, kept::next, "timed out at its getMore");
        }
    }

    @Test
    void theCapOnOpenCursorsIsConfigurable(@TempDir Path dir) {
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).buildClient();
             MongoWireServer server = start(store, CursorLimits.defaults().withMaxOpen(3));
             MongoClient client = connect(server)) {
            MongoCollection<Document> c = seeded(client);
            List<MongoCursor<Document>> cursors = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                cursors.add(openCursor(c));
            }
            assertEquals(3, openCursors(client));
            cursors.get(0).next();
            assertThrows(MongoCursorNotFoundException.class, () -> cursors.get(0).next(), "the oldest was closed");
            cursors.get(3).next();
            assertEquals(2, cursors.get(3).next().getInteger("_id"));
        }
    }

    @Test
    void aSessionlessCursorEndsWithItsConnectionAndASessionsWithTheSession(@TempDir Path dir) throws Exception {
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).buildClient();
             MongoWireServer server = start(store, CursorLimits.defaults());
             MongoClient observer = connect(server)) {
            seeded(observer);
            try (Socket raw = new Socket(InetAddress.getLoopbackAddress(), server.address().getPort())) {
                raw.getOutputStream().write(WireFrames.opMsg(1, new BsonDocument("find", new BsonString("c"))
                        .append("batchSize", new BsonInt32(1)).append("$db", new BsonString("cursors"))));
                BsonDocument reply = readReply(raw.getInputStream());
                assertEquals(false, reply.getDocument("cursor").getInt64("id").getValue() == 0, reply.toJson());
                assertEquals(1, openCursors(observer));
            }
            awaitOpenCursors(observer, 0); // the server notices the closed socket

            MongoClient app = connect(server);
            com.mongodb.client.ClientSession session = app.startSession();
            MongoCursor<Document> left = app.getDatabase("cursors").getCollection("c").find(session).batchSize(2)
                    .iterator();
            left.next();
            assertEquals(1, openCursors(observer));
            session.close(); // the cursor left open; the session goes back to the driver's pool
            app.close(); // the driver ends its pooled sessions (endSessions): their cursors end with them
            awaitOpenCursors(observer, 0);
        }
    }

    @Test
    void killAllSessionsEndsEverySessionsCursorsAndKeepsSessionlessOnes(@TempDir Path dir) throws Exception {
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).buildClient();
             MongoWireServer server = start(store, CursorLimits.defaults());
             MongoClient observer = connect(server)) {
            seeded(observer);
            // a session's cursor outlives its connection (a driver may continue it on another pooled connection)
            try (Socket raw = new Socket(InetAddress.getLoopbackAddress(), server.address().getPort())) {
                raw.getOutputStream().write(WireFrames.opMsg(1, new BsonDocument("find", new BsonString("c"))
                        .append("batchSize", new BsonInt32(1)).append("$db", new BsonString("cursors"))
                        .append("lsid", new BsonDocument("id", new org.bson.BsonBinary(java.util.UUID.randomUUID(),
                                org.bson.UuidRepresentation.STANDARD)))));
                readReply(raw.getInputStream());
            }
            assertEquals(1, openCursors(observer));
            try (Socket sessionless = new Socket(InetAddress.getLoopbackAddress(), server.address().getPort())) {
                sessionless.getOutputStream().write(WireFrames.opMsg(2, new BsonDocument("find", new BsonString("c"))
                        .append("batchSize", new BsonInt32(1)).append("$db", new BsonString("cursors"))));
                readReply(sessionless.getInputStream());
                assertEquals(2, openCursors(observer));
                observer.getDatabase("admin").runCommand(new Document("killAllSessions", List.of()));
                assertEquals(1, openCursors(observer), "the session's cursor went, the open connection's stayed");
            }
            awaitOpenCursors(observer, 0);
        }
    }

    /** Waits (bounded) for the server to have {@code expected} open cursors: it learns of a closed socket a bit later. */
    private static void awaitOpenCursors(MongoClient client, long expected) throws InterruptedException {
        Instant deadline = Instant.now().plus(TestTime.patience(java.time.Duration.ofSeconds(20)));
        long now;
        while ((now = openCursors(client)) != expected && Instant.now().isBefore(deadline)) {
            Thread.sleep(50);
        }
        assertEquals(expected, now);
    }

    private static BsonDocument readReply(InputStream in) throws Exception {
        DataInputStream data = new DataInputStream(in);
        byte[] header = new byte[16];
        data.readFully(header);
        int length = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).getInt();
        byte[] body = new byte[length - 16];
        data.readFully(body);
        return new org.bson.RawBsonDocument(java.util.Arrays.copyOfRange(body, 5, body.length)).decode(
                new org.bson.codecs.BsonDocumentCodec());
    }
}

package io.tetradb.mongo;

import com.mongodb.client.MongoCollection;
import io.tetradb.testing.TestTime;
import io.tetradb.testing.fuzz.ByteMutator;
import io.tetradb.testing.fuzz.FuzzSettings;
import io.tetradb.testing.fuzz.FuzzTally;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Mongo wire face under hostile input: valid commands (CRUD, aggregation, SCRAM handshakes, legacy OP_QUERY),
 * mutated and truncated, with extreme declared lengths, 10,000 levels of nesting and bad UTF-8. Each whole input is
 * followed by a {@code ping} on the same connection, which must be answered or the connection closed within the
 * bound (else a hang). The MongoDB Java driver must keep working throughout, the canary collection must read back
 * unchanged and the heap in use after GC must stay flat. Short form in every build; long form:
 * {@code mvn -pl mongo-wire-adapter verify -Dtest=MongoWireFuzzTest -Dtetradb.fuzz.inputs=1000000}.
 */
class MongoWireFuzzTest extends MongoServerTestBase {
    private static final int PING_ID = 0x70696e67;
    private static final int BOUND_MILLIS = (int) TestTime.scaled(java.time.Duration.ofSeconds(15)).toMillis();

    @Test
    void hostileFramesNeitherCrashNorHangNorLeak() throws Exception {
        FuzzSettings settings = FuzzSettings.fromSystemProperties();
        MongoCollection<Document> canary = client.getDatabase("canary").getCollection("c");
        canary.drop();
        for (int i = 0; i < 50; i++) {
            canary.insertOne(new Document("_id", i).append("v", "canary-" + i).append("n", i * 7));
        }
        List<Document> canaryBefore = canary.find().into(new ArrayList<>());
        client.getDatabase("fuzz").getCollection("c").insertOne(new Document("_id", "seed").append("x", 1));

        List<byte[]> seeds = seeds();
        Random random = new Random(settings.seed());
        ByteMutator mutator = new ByteMutator(random);
        FuzzTally tally = new FuzzTally("mongo", settings.seed());
        long deadline = System.nanoTime() + settings.budget().toNanos();
        Socket socket = null;
        try {
            for (long i = 0; i < settings.inputs() && System.nanoTime() < deadline; i++) {
                byte[] seed = seeds.get(random.nextInt(seeds.size()));
                byte[] input = random.nextInt(10) == 0 ? seed : mutator.mutate(seed);
                tally.input();
                if (socket == null) {
                    socket = rawSocket();
                }
                socket.getOutputStream().write(input);
                if (!whole(input)) {
                    close(socket); // the server waits for the rest (bounded by its read timeout); start afresh
                    socket = null;
                    continue;
                }
                socket.getOutputStream().write(ping());
                socket.getOutputStream().flush();
                switch (awaitPing(socket.getInputStream())) {
                    case ANSWERED -> tally.answered();
                    case CLOSED -> {
                        tally.closedByServer();
                        close(socket);
                        socket = null;
                    }
                    default -> {
                        tally.hang("input " + i + " of seed " + settings.seed());
                        close(socket);
                        socket = null;
                    }
                }
                if (i % 500 == 0) {
                    assertEquals(1.0, client.getDatabase("admin").runCommand(new Document("ping", 1))
                            .get("ok", Number.class).doubleValue(), "the driver is still served");
                }
            }
        } catch (IOException e) {
            throw new AssertionError("the server stopped accepting after " + tally.inputs() + " inputs", e);
        } finally {
            if (socket != null) {
                close(socket);
            }
        }
        long heapAfter = tally.report();
        Document cursors = client.getDatabase("admin").runCommand(new Document("serverStatus", 1))
                .get("metrics", Document.class).get("cursor", Document.class);
        System.out.println("FUZZ mongo cursors " + cursors.toJson());
        assertTrue(tally.hangs().isEmpty(), "hangs: " + tally.hangs());
        assertEquals(canaryBefore, canary.find().into(new ArrayList<>()), "the canary data is unchanged");
        assertEquals(1, client.getDatabase("admin").runCommand(new Document("ping", 1)).get("ok", Number.class)
                .intValue());
        assertTrue(heapAfter - tally.heapBefore() < 64L * 1024 * 1024, "live heap grew by "
                + (heapAfter - tally.heapBefore()) / (1024 * 1024) + " MB");
    }

    private enum Outcome { ANSWERED, CLOSED, HUNG }

    private static Socket rawSocket() throws IOException {
        Socket s = new Socket("127.0.0.1", server.address().getPort());
        s.setSoTimeout(BOUND_MILLIS);
        s.setSoLinger(true, 0); // no TIME_WAIT: the long form opens hundreds of thousands of connections
        return s;
    }

    private static void close(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // already reset by the server
        }
    }

    /** The frame's declared length is what was sent, and within what the server takes at all. */
    private static boolean whole(byte[] input) {
        if (input.length < 16) {
            return false;
        }
        int declared = ByteBuffer.wrap(input).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
        return declared == input.length;
    }

    private static byte[] ping() {
        return WireFrames.opMsg(PING_ID, new BsonDocument("ping", new BsonInt32(1))
                .append("$db", new BsonString("admin")));
    }

    /** Reads replies until the ping's, or the end of the stream, within the bound. */
    private static Outcome awaitPing(InputStream in) {
        long until = System.nanoTime() + BOUND_MILLIS * 1_000_000L;
        try {
            while (System.nanoTime() < until) {
                Object[] reply = WireFrames.readReply(in);
                if ((int) reply[0] == PING_ID) {
                    return Outcome.ANSWERED;
                }
            }
            return Outcome.HUNG;
        } catch (SocketTimeoutException e) {
            return Outcome.HUNG;
        } catch (IOException | RuntimeException e) {
            return Outcome.CLOSED; // end of stream, reset, or the server closed mid-reply
        }
    }

    private static BsonDocument cmd(String name, String value) {
        return new BsonDocument(name, new BsonString(value)).append("$db", new BsonString("fuzz"));
    }

    private static List<byte[]> seeds() {
        List<byte[]> seeds = new ArrayList<>();
        int id = 1;
        seeds.add(WireFrames.opMsg(id++, new BsonDocument("hello", new BsonInt32(1))
                .append("$db", new BsonString("admin"))));
        seeds.add(WireFrames.opQuery(id++, "admin.$cmd", new BsonDocument("isMaster", new BsonInt32(1))));
        seeds.add(WireFrames.opMsg(id++, cmd("find", "c").append("filter",
                BsonDocument.parse("{x: {$gte: 1}, y: {$in: [1, 'a', null]}}"))));
        seeds.add(WireFrames.opMsg(id++, cmd("insert", "c").append("documents", new BsonArray(List.of(
                BsonDocument.parse("{x: 2, s: 'héllo', b: {$binary: {base64: 'AAEC', subType: '00'}}}"))))));
        seeds.add(WireFrames.opMsg(id++, cmd("update", "c").append("updates", new BsonArray(List.of(
                BsonDocument.parse("{q: {x: 2}, u: {$inc: {x: 1}, $push: {a: 1}}, upsert: true}"))))));
        seeds.add(WireFrames.opMsg(id++, cmd("aggregate", "c").append("pipeline", BsonArray.parse(
                "[{$match: {x: {$gt: 0}}}, {$group: {_id: '$x', n: {$sum: 1}}}, {$sort: {n: -1}}]"))
                .append("cursor", new BsonDocument())));
        seeds.add(WireFrames.opMsg(id++, cmd("delete", "c").append("deletes", new BsonArray(List.of(
                BsonDocument.parse("{q: {x: {$gt: 100}}, limit: 0}"))))));
        // SCRAM with garbage: a payload that is not a client-first message, then a continue for no conversation
        seeds.add(WireFrames.opMsg(id++, new BsonDocument("saslStart", new BsonInt32(1))
                .append("mechanism", new BsonString("SCRAM-SHA-256"))
                .append("payload", new BsonBinary("n,,n=\u00ff\u0000,r=%%%".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1)))
                .append("$db", new BsonString("admin"))));
        seeds.add(WireFrames.opMsg(id++, new BsonDocument("saslContinue", new BsonInt32(1))
                .append("conversationId", new BsonInt32(42)).append("payload", new BsonBinary(new byte[] {1, 2, 3}))
                .append("$db", new BsonString("admin"))));
        seeds.add(WireFrames.opMsg(id++, new BsonDocument("authenticate", new BsonInt32(1))
                .append("mechanism", new BsonString("MONGODB-X509")).append("$db", new BsonString("$external"))));
        // 10,000 levels of nesting in a filter
        seeds.add(WireFrames.opMsg(id++, WireFrames.document(WireFrames.element(2, "find", WireFrames.string("c")),
                WireFrames.element(3, "filter", WireFrames.nested(10_000)),
                WireFrames.element(2, "$db", WireFrames.string("fuzz")))));
        // a binary declaring 600 MB in a 60-byte message
        seeds.add(WireFrames.opMsg(id++, WireFrames.document(WireFrames.element(2, "find", WireFrames.string("c")),
                WireFrames.element(3, "filter", WireFrames.document(WireFrames.element(5, "b",
                        ByteBuffer.allocate(6).order(ByteOrder.LITTLE_ENDIAN).putInt(600_000_000).put((byte) 0)
                                .put((byte) 1).array()))),
                WireFrames.element(2, "$db", WireFrames.string("fuzz")))));
        return seeds;
    }
}

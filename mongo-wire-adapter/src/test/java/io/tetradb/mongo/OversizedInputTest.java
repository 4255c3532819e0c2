package io.tetradb.mongo;

import io.tetradb.testing.fuzz.MemoryProbe;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static io.tetradb.mongo.WireFrames.document;
import static io.tetradb.mongo.WireFrames.element;
import static io.tetradb.mongo.WireFrames.int32;
import static io.tetradb.mongo.WireFrames.string;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Declared lengths are checked before anything is allocated for them: a message over maxMessageSizeBytes closes its
 * connection (mongod: "recv(): message msgLen ... is invalid"); inside a whole message, a binary or string declaring
 * more bytes than there are is InvalidBSON (22), a document over 16 MB + 16 KB is BSONObjectTooLarge (10334), one
 * nested deeper than maxBSONDepth (200) is Overflow (15), each answered on a connection that stays open.
 */
class OversizedInputTest extends MongoServerTestBase {

    private Socket socket() throws IOException {
        Socket s = new Socket("127.0.0.1", server.address().getPort());
        s.setSoTimeout(20_000);
        return s;
    }

    private static byte[] find(byte[]... more) {
        byte[][] elements = new byte[more.length + 2][];
        elements[0] = element(2, "find", string("c"));
        System.arraycopy(more, 0, elements, 1, more.length);
        elements[more.length + 1] = element(2, "$db", string("oversized"));
        return document(elements);
    }

    private static void assertPingAnswered(Socket s) throws IOException {
        RawBsonDocument pong = WireFrames.exchange(s, WireFrames.opMsg(99, new BsonDocument("ping", new BsonInt32(1))
                .append("$db", new BsonString("admin"))), 99);
        assertEquals(1.0, pong.getNumber("ok").doubleValue());
    }

    @Test
    void aBinaryDeclaringHundredsOfMegabytesIsInvalidBsonWithoutAllocatingThem() throws IOException {
        long before = MemoryProbe.heapUsedAfterGc();
        MemoryProbe.resetPeaks();
        // {find: "c", filter: {b: BinData(declared 600 MB, 1 byte present)}}: 60 bytes on the wire
        byte[] binary = ByteBuffer.allocate(6).order(ByteOrder.LITTLE_ENDIAN).putInt(600_000_000).put((byte) 0)
                .put((byte) 7).array();
        byte[] frame = WireFrames.opMsg(1, find(element(3, "filter", document(element(5, "b", binary)))));
        try (Socket s = socket()) {
            RawBsonDocument reply = WireFrames.exchange(s, frame, 1);
            assertEquals(22, reply.getInt32("code").getValue(), reply.toJson());
            assertEquals("InvalidBSON", reply.getString("codeName").getValue());
            assertPingAnswered(s);
        }
        long grew = MemoryProbe.heapPeak() - before;
        assertTrue(grew < 200L * 1024 * 1024, "the heap peaked " + MemoryProbe.mb(grew) + " MB above its live size");
    }

    @Test
    void aStringDeclaringMoreThanItsDocumentIsInvalidBson() throws IOException {
        byte[] frame = WireFrames.opMsg(2, find(element(2, "comment", ByteBuffer.allocate(6)
                .order(ByteOrder.LITTLE_ENDIAN).putInt(2_000_000_000).put((byte) 'x').put((byte) 0).array())));
        try (Socket s = socket()) {
            assertEquals(22, WireFrames.exchange(s, frame, 2).getInt32("code").getValue());
            assertPingAnswered(s);
        }
    }

    @Test
    void tenThousandLevelsOfNestingAreRefusedAsMongodDoes() throws IOException {
        byte[] frame = WireFrames.opMsg(3, find(element(3, "filter", WireFrames.nested(10_000))));
        try (Socket s = socket()) {
            RawBsonDocument reply = WireFrames.exchange(s, frame, 3);
            assertEquals(15, reply.getInt32("code").getValue(), reply.toJson());
            assertTrue(reply.getString("errmsg").getValue().contains("maximum nested object depth"));
            assertPingAnswered(s);
        }
    }

    @Test
    void aCommandDocumentOverSixteenMegabytesIsBsonObjectTooLarge() throws IOException {
        byte[] big = new byte[17 * 1024 * 1024];
        java.util.Arrays.fill(big, (byte) 'x');
        byte[] frame = WireFrames.opMsg(4, find(element(2, "comment", string(new String(big,
                java.nio.charset.StandardCharsets.US_ASCII)))));
        try (Socket s = socket()) {
            RawBsonDocument reply = WireFrames.exchange(s, frame, 4);
            assertEquals(10334, reply.getInt32("code").getValue());
            assertPingAnswered(s);
        }
    }

    @Test
    void aMessageLengthOverMaxMessageSizeBytesClosesTheConnectionBeforeItsBodyArrives() throws IOException {
        long before = MemoryProbe.heapUsedAfterGc();
        MemoryProbe.resetPeaks();
        try (Socket s = socket()) {
            OutputStream out = s.getOutputStream();
            out.write(ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putInt(48_000_001).putInt(5).putInt(0)
                    .putInt(WireFrames.OP_MSG).array());
            out.flush();
            InputStream in = s.getInputStream();
            assertEquals(-1, in.read(), "the server closes the connection");
        }
        try (Socket s = socket()) {
            assertPingAnswered(s);
        }
        assertTrue(MemoryProbe.heapPeak() - before < 100L * 1024 * 1024);
    }
}

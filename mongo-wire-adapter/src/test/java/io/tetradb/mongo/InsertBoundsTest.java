package io.tetradb.mongo;

import io.tetradb.mongo.wire.ReplyEncoder;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import static io.tetradb.mongo.WireFrames.document;
import static io.tetradb.mongo.WireFrames.element;
import static io.tetradb.mongo.WireFrames.int32;
import static io.tetradb.mongo.WireFrames.string;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * mongo-bounds (issue 17): an {@code insert} whose document, in the OP_MSG {@code documents} sequence (the bytes the
 * insert path keeps raw instead of decoding as a tree), breaks BSON's bounds is refused with mongod's error — a 2 GB
 * binary in a small message and a string past its document are InvalidBSON (22), an unknown type byte is InvalidBSON,
 * 201 levels of nesting are Overflow (15) — nothing of it is stored, and the server keeps serving the connection.
 */
class InsertBoundsTest extends MongoServerTestBase {
    private static final String DB = "bounds";
    private static final String COLL = "c";
    /** A binary's value declaring 2 GB (subtype 0) followed by one byte: what the bson reader would allocate. */
    private static final byte[] TWO_GB_BINARY = ByteBuffer.allocate(6).order(ByteOrder.LITTLE_ENDIAN)
            .putInt(2_000_000_000).put((byte) 0).put((byte) 7).array();

    private Socket socket() throws IOException {
        Socket s = new Socket("127.0.0.1", server.address().getPort());
        s.setSoTimeout(20_000);
        return s;
    }

    /** An OP_MSG {@code insert} with its documents in a kind-1 {@code documents} section, as drivers send them. */
    private static byte[] insertFrame(int requestId, byte[]... docs) {
        byte[] body = ReplyEncoder.bson(new BsonDocument("insert", new BsonString(COLL))
                .append("$db", new BsonString(DB)));
        byte[] id = "documents\0".getBytes(StandardCharsets.US_ASCII);
        int section = 4 + id.length;
        for (byte[] d : docs) {
            section += d.length;
        }
        ByteBuffer b = ByteBuffer.allocate(16 + 4 + 1 + body.length + 1 + section).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(b.capacity()).putInt(requestId).putInt(0).putInt(WireFrames.OP_MSG).putInt(0);
        b.put((byte) 0).put(body).put((byte) 1).putInt(section).put(id);
        for (byte[] d : docs) {
            b.put(d);
        }
        return b.array();
    }

    /**
     * The refused insert got {@code code}; a later insert and a find work on the same connection; {@code bad} is
     * absent.
     */
    private void assertRefusedAndStillServing(byte[] badDoc, int code, String codeName, String bad) throws IOException {
        try (Socket s = socket()) {
            RawBsonDocument refused = WireFrames.exchange(s, insertFrame(1, badDoc), 1);
            assertEquals(0.0, refused.getNumber("ok").doubleValue(), refused.toJson());
            assertEquals(code, refused.getInt32("code").getValue(), refused.toJson());
            assertEquals(codeName, refused.getString("codeName").getValue(), refused.toJson());

            String good = "after-" + bad;
            RawBsonDocument inserted = WireFrames.exchange(s, insertFrame(2, document(element(2, "_id", string(good)),
                    element(0x10, "n", int32(1)))), 2);
            assertEquals(1.0, inserted.getNumber("ok").doubleValue(), inserted.toJson());
            assertEquals(1, inserted.getInt32("n").getValue(), inserted.toJson());

            assertEquals(1, found(s, 3, good), "the later insert is stored");
            assertEquals(0, found(s, 4, bad), "nothing of the refused document is stored");
        }
    }

    private static int found(Socket s, int requestId, String id) throws IOException {
        BsonDocument find = new BsonDocument("find", new BsonString(COLL))
                .append("filter", new BsonDocument("_id", new BsonString(id)))
                .append("$db", new BsonString(DB));
        RawBsonDocument reply = WireFrames.exchange(s, WireFrames.opMsg(requestId, find), requestId);
        assertEquals(1.0, reply.getNumber("ok").doubleValue(), reply.toJson());
        return reply.getDocument("cursor").getArray("firstBatch").size();
    }

    @Test
    void aBinaryDeclaringTwoGigabytesInASmallMessageIsInvalidBson() throws IOException {
        // BinData declaring 2,000,000,000 bytes, subtype 0, one byte present: the document is 30-odd bytes
        byte[] binary = TWO_GB_BINARY;
        assertRefusedAndStillServing(document(element(2, "_id", string("bin")), element(5, "b", binary)),
                22, "InvalidBSON", "bin");
    }

    @Test
    void twoHundredAndOneLevelsOfNestingAreOverflow() throws IOException {
        // the inserted document is level 1; {a: ...} nested so that the deepest is level 201
        byte[] deep = WireFrames.nested(200);
        assertRefusedAndStillServing(document(element(2, "_id", string("deep")), element(3, "a", deep)),
                15, "Overflow", "deep");
    }

    @Test
    void aStringLengthPastItsDocumentEndIsInvalidBson() throws IOException {
        byte[] longString = ByteBuffer.allocate(6).order(ByteOrder.LITTLE_ENDIAN).putInt(1_000).put((byte) 'x')
                .put((byte) 0).array();
        assertRefusedAndStillServing(document(element(2, "_id", string("str")), element(2, "s", longString)),
                22, "InvalidBSON", "str");
    }

    @Test
    void anUnknownTypeByteIsInvalidBson() throws IOException {
        assertRefusedAndStillServing(document(element(2, "_id", string("type")), element(0x20, "u", int32(1))),
                22, "InvalidBSON", "type");
    }

    /**
     * bounds-fold: the documents are checked on the command thread now, all of them before the first is written: a
     * broken third document of an ordered insert fails the message, and the two good ones before it are not stored.
     */
    @Test
    void aBrokenThirdDocumentFailsTheWholeMessageAndNoneIsStored() throws IOException {
        byte[] binary = TWO_GB_BINARY;
        try (Socket s = socket()) {
            RawBsonDocument refused = WireFrames.exchange(s, insertFrame(1,
                    document(element(2, "_id", string("first")), element(0x10, "n", int32(1))),
                    document(element(2, "_id", string("second")), element(0x10, "n", int32(2))),
                    document(element(2, "_id", string("third")), element(5, "b", binary))), 1);
            assertEquals(22, refused.getInt32("code").getValue(), refused.toJson());
            assertEquals(0, found(s, 2, "first"), "nothing of the refused message is stored");
            assertEquals(0, found(s, 3, "second"), "nothing of the refused message is stored");
        }
    }

    /**
     * bounds-fold: past the items the insert transcodes ahead of its writes (8 MiB), a document is checked by
     * BsonBounds alone, still before anything is written.
     */
    @Test
    void aBrokenDocumentPastTheTranscodedAheadBytesFailsTheWholeMessage() throws IOException {
        byte[] binary = TWO_GB_BINARY;
        byte[][] docs = new byte[11][];
        for (int i = 0; i < 10; i++) { // 10 MB of good documents, then a broken one
            docs[i] = document(element(2, "_id", string("big" + i)), element(2, "s", string("x".repeat(1_000_000))));
        }
        docs[10] = document(element(2, "_id", string("bad")), element(5, "b", binary));
        try (Socket s = socket()) {
            RawBsonDocument refused = WireFrames.exchange(s, insertFrame(1, docs), 1);
            assertEquals(22, refused.getInt32("code").getValue(), refused.toJson());
            assertEquals(0, found(s, 2, "big0"), "nothing of the refused message is stored");
            assertEquals(0, found(s, 3, "big9"), "nothing of the refused message is stored");
        }
    }

    /**
     * bounds-fold: documents the insert's one-walk transcode declines go to the general path, which decodes a tree:
     * each is checked first (an {@code _id} that is not first, a MinKey, a {@code $} name, no {@code _id} at all, a
     * binary {@code _id}), so a 2 GB binary in any of them is InvalidBSON too.
     */
    @Test
    void aDocumentTheTranscodeDeclinesIsCheckedBeforeTheTreeDecoder() throws IOException {
        byte[] binary = TWO_GB_BINARY;
        assertRefusedAndStillServing(document(element(0x10, "n", int32(1)), element(2, "_id", string("late")),
                element(5, "b", binary)), 22, "InvalidBSON", "late");
        assertRefusedAndStillServing(document(element(2, "_id", string("minkey")), element(0xFF, "m", new byte[0]),
                element(5, "b", binary)), 22, "InvalidBSON", "minkey");
        assertRefusedAndStillServing(document(element(2, "_id", string("dollar")), element(0x10, "$x", int32(1)),
                element(5, "b", binary)), 22, "InvalidBSON", "dollar");
        assertRefusedAndStillServing(document(element(0x10, "n", int32(1)), element(5, "b", binary)),
                22, "InvalidBSON", "noid");
        assertRefusedAndStillServing(document(element(5, "_id", binary)), 22, "InvalidBSON", "binid");
    }

    @Test
    void theRefusalsNameTheirCause() throws IOException {
        try (Socket s = socket()) {
            RawBsonDocument reply = WireFrames.exchange(s, insertFrame(1, document(element(2, "_id", string("msg")),
                    element(3, "a", WireFrames.nested(200)))), 1);
            assertTrue(reply.getString("errmsg").getValue().contains("maximum nested object depth"), reply.toJson());
        }
    }
}

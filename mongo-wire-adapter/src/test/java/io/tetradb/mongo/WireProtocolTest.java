package io.tetradb.mongo;

import com.mongodb.client.MongoCollection;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.Document;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The wire protocol byte by byte over a raw socket: the OP_QUERY handshake answered with OP_REPLY, OP_MSG with a
 * checksum and with a kind-1 section, moreToCome, legacy opcodes, and garbage that must close only its own
 * connection while the server keeps serving everyone else.
 */
class WireProtocolTest extends MongoServerTestBase {

    private Socket socket() throws IOException {
        Socket s = new Socket("127.0.0.1", server.address().getPort());
        s.setSoTimeout(10_000);
        return s;
    }

    private static byte[] bson(BsonDocument doc) {
        return io.tetradb.mongo.wire.ReplyEncoder.bson(doc);
    }

    private static byte[] frame(int requestId, int opCode, byte[] body) {
        ByteBuffer b = ByteBuffer.allocate(16 + body.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(16 + body.length).putInt(requestId).putInt(0).putInt(opCode).put(body);
        return b.array();
    }

    private static byte[] opMsg(int flags, byte[]... sections) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(flags).array());
        for (byte[] s : sections) {
            out.writeBytes(s);
        }
        return out.toByteArray();
    }

    private static byte[] kind0(BsonDocument doc) {
        byte[] d = bson(doc);
        byte[] out = new byte[d.length + 1];
        System.arraycopy(d, 0, out, 1, d.length);
        return out;
    }

    /** Reads one reply: its opcode and its (first) document. */
    private static Object[] readReply(InputStream in) throws IOException {
        DataInputStream data = new DataInputStream(in);
        byte[] header = new byte[16];
        data.readFully(header);
        ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        int length = h.getInt();
        h.getInt();
        int responseTo = h.getInt();
        int opCode = h.getInt();
        byte[] body = new byte[length - 16];
        data.readFully(body);
        int docStart = opCode == 1 ? 20 : 5;
        RawBsonDocument doc = new RawBsonDocument(Arrays.copyOfRange(body, docStart, body.length));
        return new Object[]{opCode, doc, responseTo};
    }

    @Test
    void opQueryHandshakeIsAnsweredWithOpReply() throws IOException {
        try (Socket s = socket()) {
            ByteArrayOutputStream q = new ByteArrayOutputStream();
            q.writeBytes(new byte[4]); // flags
            q.writeBytes("admin.$cmd\0".getBytes(StandardCharsets.UTF_8));
            q.writeBytes(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(0).putInt(-1).array());
            q.writeBytes(bson(new BsonDocument("isMaster", new BsonInt32(1))));
            s.getOutputStream().write(frame(7, 2004, q.toByteArray()));
            Object[] reply = readReply(s.getInputStream());
            assertEquals(1, reply[0], "OP_REPLY");
            assertEquals(7, reply[2], "responseTo");
            BsonDocument doc = (BsonDocument) reply[1];
            assertEquals(21, doc.getInt32("maxWireVersion").getValue());
            assertTrue(doc.getBoolean("ismaster").getValue());
        }
    }

    @Test
    void opMsgWithChecksumKindOneSectionAndMoreToCome() throws IOException {
        try (Socket s = socket()) {
            OutputStream out = s.getOutputStream();
            // insert with the documents in a kind-1 section and moreToCome: no reply
            byte[] doc = bson(new BsonDocument("_id", new BsonString("wire")));
            byte[] id = "documents\0".getBytes(StandardCharsets.UTF_8);
            ByteBuffer kind1 = ByteBuffer.allocate(1 + 4 + id.length + doc.length).order(ByteOrder.LITTLE_ENDIAN);
            kind1.put((byte) 1).putInt(4 + id.length + doc.length).put(id).put(doc);
            out.write(frame(1, 2013, opMsg(2, kind0(new BsonDocument("insert", new BsonString("raw"))
                    .append("$db", new BsonString("wire"))), kind1.array())));
            // then a ping with a (not verified) CRC-32C trailer
            byte[] ping = opMsg(1, kind0(new BsonDocument("ping", new BsonInt32(1)).append("$db", new BsonString("admin"))));
            byte[] withChecksum = Arrays.copyOf(ping, ping.length + 4);
            out.write(frame(2, 2013, withChecksum));
            Object[] reply = readReply(s.getInputStream());
            assertEquals(2013, reply[0]);
            assertEquals(2, reply[2], "the first reply answers the ping: the insert got none");
            assertEquals(1.0, ((BsonDocument) reply[1]).getNumber("ok").doubleValue());
        }
        assertEquals(new Document("_id", "wire"), client.getDatabase("wire").getCollection("raw").find().first());
    }

    @Test
    void pipelinedUnacknowledgedWritesRunInOrder() throws IOException {
        try (Socket s = socket()) {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (int i = 0; i < 300; i++) {
                // each update sets n to i: only in order does n end as 299
                all.writeBytes(frame(100 + i, 2013, opMsg(2, kind0(new BsonDocument("update", new BsonString("ordered"))
                        .append("updates", new org.bson.BsonArray(java.util.List.of(new BsonDocument("q",
                                new BsonDocument("_id", new BsonInt32(1))).append("u", new BsonDocument("$set",
                                new BsonDocument("n", new BsonInt32(i)))).append("upsert", org.bson.BsonBoolean.TRUE))))
                        .append("$db", new BsonString("wire"))))));
            }
            all.writeBytes(frame(999, 2013, opMsg(0, kind0(new BsonDocument("ping", new BsonInt32(1))
                    .append("$db", new BsonString("admin"))))));
            s.getOutputStream().write(all.toByteArray());
            Object[] reply = readReply(s.getInputStream());
            assertEquals(999, reply[2], "only the ping is answered");
        }
        assertEquals(299, client.getDatabase("wire").getCollection("ordered").find().first().get("n"));
    }

    @Test
    void legacyOpcodesGetAClearError() throws IOException {
        try (Socket s = socket()) {
            s.getOutputStream().write(frame(3, 2002, new byte[]{0, 0, 0, 0, 'a', '.', 'b', 0}));
            Object[] reply = readReply(s.getInputStream());
            BsonDocument doc = (BsonDocument) reply[1];
            assertEquals(0.0, doc.getNumber("ok").doubleValue());
            assertTrue(doc.getString("errmsg").getValue().contains("OP_INSERT"), doc.toJson());
            // the connection still serves OP_MSG
            s.getOutputStream().write(frame(4, 2013, opMsg(0, kind0(new BsonDocument("ping", new BsonInt32(1))
                    .append("$db", new BsonString("admin"))))));
            assertEquals(1.0, ((BsonDocument) readReply(s.getInputStream())[1]).getNumber("ok").doubleValue());
        }
    }

    @Test
    void garbageClosesOnlyItsOwnConnection() throws IOException {
        MongoCollection<Document> c = client.getDatabase("wire").getCollection("survivor");
        c.drop();
        c.insertOne(new Document("_id", 1));
        Random random = new Random(42);
        byte[][] garbage = {
                "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII), // length field 542393671
                frame(5, 2013, new byte[]{0, 0, 0, 0, 9, 1, 2, 3}),                     // unknown section kind
                frame(6, 2013, opMsg(0, new byte[]{0, 100, 0, 0, 0, 1})),               // truncated BSON
                ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(-5).putInt(1).array(), // negative length
                randomBytes(random, 4096),
                frame(7, 2013, opMsg(0, nested(200_000))),                             // BSON nested 200,000 deep
        };
        for (byte[] g : garbage) {
            try (Socket s = socket()) {
                s.getOutputStream().write(g);
                s.getOutputStream().flush();
                int read = s.getInputStream().read();
                // either an error reply (first byte of a frame) or end of stream; a server that hangs fails by timeout
                assertTrue(read == -1 || read > 0, "the server answered or closed");
            } catch (java.net.SocketException reset) {
                // closed with a reset: fine too
            }
            assertEquals(1, client.getDatabase("wire").getCollection("survivor").countDocuments(),
                    "the server keeps serving and nothing stored is harmed");
        }
    }

    /** {@code {a: {a: {... }}}} nested {@code depth} levels, as a kind-0 section (built byte by byte). */
    private static byte[] nested(int depth) {
        int innermost = 5;
        int[] sizes = new int[depth + 1];
        sizes[depth] = innermost;
        for (int i = depth - 1; i >= 0; i--) {
            sizes[i] = 4 + 1 + 2 + sizes[i + 1] + 1;
        }
        ByteBuffer b = ByteBuffer.allocate(1 + sizes[0]).order(ByteOrder.LITTLE_ENDIAN);
        b.put((byte) 0);
        for (int i = 0; i < depth; i++) {
            b.putInt(sizes[i]).put((byte) 3).put((byte) 'a').put((byte) 0);
        }
        b.putInt(5).put((byte) 0);
        for (int i = 0; i < depth; i++) {
            b.put((byte) 0);
        }
        return b.array();
    }

    private static byte[] randomBytes(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        b[0] = 64; // a plausible small length
        b[1] = 0;
        b[2] = 0;
        b[3] = 0;
        return b;
    }
}

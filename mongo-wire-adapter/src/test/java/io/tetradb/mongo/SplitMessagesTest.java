package io.tetradb.mongo;

import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.InsertManyOptions;
import io.tetradb.mongo.wire.ReplyEncoder;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.Document;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * mongo-frames (issue 17): whole messages however they arrive — a 2 MB {@code insert} written in pieces of 1 byte to
 * 100 KB is stored whole, a malformed one written byte by byte still gets InvalidBSON (22) on a connection that stays
 * open — and the create check's id bound on the face's Int32 {@code _id}s: ids inserted in increasing order, then a
 * smaller, equal or numerically equal id of another type is still E11000.
 */
class SplitMessagesTest extends MongoServerTestBase {

    private static byte[] insertMessage(int requestId, String collection, List<byte[]> documents) {
        byte[] body = ReplyEncoder.bson(new BsonDocument("insert", new BsonString(collection))
                .append("ordered", org.bson.BsonBoolean.TRUE).append("$db", new BsonString("split")));
        ByteArrayOutputStream docs = new ByteArrayOutputStream();
        documents.forEach(docs::writeBytes);
        byte[] id = "documents\0".getBytes(StandardCharsets.US_ASCII);
        int section = 4 + id.length + docs.size();
        ByteBuffer m = ByteBuffer.allocate(16 + 4 + 1 + body.length + 1 + section).order(ByteOrder.LITTLE_ENDIAN);
        m.putInt(m.capacity()).putInt(requestId).putInt(0).putInt(WireFrames.OP_MSG).putInt(0);
        m.put((byte) 0).put(body).put((byte) 1).putInt(section).put(id).put(docs.toByteArray());
        return m.array();
    }

    /** Writes {@code message} in pieces of the given sizes, in turn, each flushed alone. */
    private static void writeInPieces(OutputStream out, byte[] message, int... sizes) throws IOException {
        for (int at = 0, i = 0; at < message.length; i++) {
            int n = Math.min(sizes[i % sizes.length], message.length - at);
            out.write(message, at, n);
            out.flush();
            at += n;
        }
    }

    private static RawBsonDocument reply(Socket s, int requestId) throws IOException {
        Object[] reply = WireFrames.readReply(s.getInputStream());
        assertEquals(requestId, reply[0]);
        return (RawBsonDocument) reply[1];
    }

    @Test
    void aMessageWrittenInPiecesOfEverySizeIsReadWhole() throws IOException {
        List<byte[]> documents = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            documents.add(ReplyEncoder.bson(new BsonDocument("_id", new BsonInt32(i))
                    .append("text", new BsonString("x".repeat(1_000 + i % 7)))));
        }
        try (Socket s = new Socket("127.0.0.1", server.address().getPort())) {
            s.setTcpNoDelay(true);
            s.setSoTimeout((int) PatientDriver.WAIT_MILLIS);
            writeInPieces(s.getOutputStream(), insertMessage(1, "pieces", documents), 1, 3, 4_096, 7, 65_536, 100_000, 2);
            RawBsonDocument done = reply(s, 1);
            assertEquals(1.0, done.getNumber("ok").doubleValue(), done.toJson());
            assertEquals(2_000, done.getInt32("n").getValue(), done.toJson());
            // a string declaring more bytes than its document has, sent a byte at a time: 22, the connection stays
            byte[] bad = WireFrames.document(WireFrames.element(0x10, "_id", WireFrames.int32(1)),
                    WireFrames.element(2, "s", ByteBuffer.allocate(6).order(ByteOrder.LITTLE_ENDIAN).putInt(1_000_000)
                            .put((byte) 'x').put((byte) 0).array()));
            writeInPieces(s.getOutputStream(), insertMessage(2, "pieces", List.of(bad)), 1);
            RawBsonDocument refused = reply(s, 2);
            assertEquals(22, refused.getInt32("code").getValue(), refused.toJson());
            writeInPieces(s.getOutputStream(), WireFrames.opMsg(3, new BsonDocument("ping", new BsonInt32(1))
                    .append("$db", new BsonString("admin"))), 5);
            assertEquals(1.0, reply(s, 3).getNumber("ok").doubleValue());
        }
        MongoCollection<Document> c = client.getDatabase("split").getCollection("pieces");
        assertEquals(2_000, c.countDocuments());
        assertEquals(1_004, c.find(new Document("_id", 1_999)).first().getString("text").length());
    }

    private static int duplicateCode(Runnable insert) {
        try {
            insert.run();
        } catch (MongoWriteException e) {
            return e.getError().getCode();
        }
        return fail("no write error");
    }

    @Test
    void intIdsInIncreasingOrderThenSmallerEqualOrEquivalentOnesAreDuplicates() {
        MongoCollection<Document> c = client.getDatabase("split").getCollection("ids");
        c.drop();
        for (int from = 0; from < 3_000; from += 1_000) { // as the benchmark: insertMany of 1000, in order
            List<Document> batch = new ArrayList<>();
            for (int i = from; i < from + 1_000; i++) {
                batch.add(new Document("_id", i).append("n", i));
            }
            c.insertMany(batch);
        }
        for (Object id : List.of(2_999, 2_998, 1_000, 999, 100, 10, 9, 0, 2_999L, 1_000.0, 10L)) {
            assertEquals(11000, duplicateCode(() -> c.insertOne(new Document("_id", id))), "_id " + id);
        }
        // unordered: the new ids above the stored ones go in, the stored one among them is E11000
        List<Document> mixed = List.of(new Document("_id", 3_000), new Document("_id", 3_001),
                new Document("_id", 2_999), new Document("_id", 3_002));
        com.mongodb.MongoBulkWriteException e = assertThrows(com.mongodb.MongoBulkWriteException.class,
                () -> c.insertMany(mixed, new InsertManyOptions().ordered(false)));
        assertEquals(1, e.getWriteErrors().size());
        assertEquals(2, e.getWriteErrors().get(0).getIndex());
        assertEquals(11000, e.getWriteErrors().get(0).getCode());
        assertEquals(3_003, c.countDocuments());
        // a long id above them, then ints below it: still checked
        c.insertOne(new Document("_id", 1L << 40));
        assertEquals(11000, duplicateCode(() -> c.insertOne(new Document("_id", 3_001))));
        assertEquals(11000, duplicateCode(() -> c.insertOne(new Document("_id", 1L << 40))));
        c.insertOne(new Document("_id", -5));
        assertEquals(11000, duplicateCode(() -> c.insertOne(new Document("_id", -5))));
        assertEquals(3_005, c.countDocuments());
        assertEquals(2_998, c.find(new Document("_id", 2_998)).first().getInteger("n"));
    }
}

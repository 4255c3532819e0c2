package io.tetradb.mongo;

import com.mongodb.MongoWriteException;
import com.mongodb.client.ClientSession;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.Document;
import org.bson.RawBsonDocument;
import org.bson.types.Binary;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MongoDB's document limits on this face: documents up to 16 MiB of BSON (stored in containers whose own item limit
 * is larger than the core's 2 MB) and 100 levels of nesting; beyond them MongoDB's errors, and the server serves on.
 */
class LargeDocumentTest extends MongoServerTestBase {
    private static final int MB = 1024 * 1024;

    @Test
    void fifteenMegabyteDocumentRoundTripsThroughInsertFindAndUpdate() {
        MongoCollection<Document> c = client.getDatabase("large").getCollection("docs");
        byte[] blob = new byte[5 * MB];
        new java.util.Random(7).nextBytes(blob);
        String text = "ü".repeat(3 * MB) + "x".repeat(4 * MB); // 10 MB of UTF-8
        c.insertOne(new Document("_id", "big").append("text", text).append("blob", new Binary(blob)).append("n", 1));
        Document back = c.find(Filters.eq("_id", "big")).first();
        assertEquals(text, back.getString("text"));
        assertArrayEquals(blob, back.get("blob", Binary.class).getData());

        // found by a query too (not only the point read), and updated in place
        assertEquals(1, c.countDocuments(Filters.eq("n", 1)));
        c.updateOne(Filters.eq("_id", "big"), Updates.combine(Updates.inc("n", 1), Updates.set("tail", "t")));
        Document updated = c.find(Filters.gt("n", 1)).first();
        assertEquals(2, updated.getInteger("n"));
        assertEquals("t", updated.getString("tail"));
        assertEquals(text, updated.getString("text"));

        // replacing it with another large document
        String other = "y".repeat(15 * MB);
        c.replaceOne(Filters.eq("_id", "big"), new Document("text", other));
        assertEquals(other, c.find().first().getString("text"));
        assertEquals(1, c.countDocuments());
    }

    @Test
    void largeDocumentsGoAloneInsideBatchesOfSmallOnesAndInATransaction() {
        MongoCollection<Document> c = client.getDatabase("large").getCollection("mixed");
        c.insertMany(java.util.List.of(new Document("_id", 1).append("s", "small"),
                new Document("_id", 2).append("s", "z".repeat(6 * MB)),
                new Document("_id", 3).append("s", "small")));
        assertEquals(3, c.countDocuments());
        assertEquals(6 * MB, c.find(Filters.eq("_id", 2)).first().getString("s").length());

        // one document over the old 1.5 MB transaction budget: a transaction of one write may be any size
        try (ClientSession session = client.startSession()) {
            session.withTransaction(() -> c.insertOne(session, new Document("_id", 4).append("s", "w".repeat(8 * MB))));
        }
        assertEquals(8 * MB, c.find(Filters.eq("_id", 4)).first().getString("s").length());
    }

    @Test
    void updateGrowingADocumentPastSixteenMegabytesIs10334AndChangesNothing() {
        MongoCollection<Document> c = client.getDatabase("large").getCollection("grow");
        c.insertOne(new Document("_id", 1).append("a", "a".repeat(9 * MB)));
        MongoWriteException e = assertThrows(MongoWriteException.class,
                () -> c.updateOne(Filters.eq("_id", 1), Updates.set("b", "b".repeat(9 * MB))));
        assertEquals(10334, e.getError().getCode());
        Document still = c.find().first();
        assertEquals(9 * MB, still.getString("a").length());
        assertEquals(null, still.get("b"));
    }

    /** The driver refuses to send a document over 16 MiB, so this one goes as the bytes a client could send. */
    @Test
    void seventeenMegabyteInsertIs10334AndTheServerKeepsServing() throws IOException {
        BsonDocument huge = new BsonDocument("_id", new BsonInt32(1)).append("pad", new BsonString("p".repeat(17 * MB)));
        byte[] doc = io.tetradb.mongo.wire.ReplyEncoder.bson(huge);
        byte[] cmd = io.tetradb.mongo.wire.ReplyEncoder.bson(new BsonDocument("insert", new BsonString("huge"))
                .append("$db", new BsonString("large")));
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(new byte[4]); // flags
        body.write(0);
        body.writeBytes(cmd);
        byte[] id = "documents\0".getBytes(StandardCharsets.US_ASCII);
        body.write(1);
        body.writeBytes(le(4 + id.length + doc.length));
        body.writeBytes(id);
        body.writeBytes(doc);
        byte[] msg = body.toByteArray();
        try (Socket s = new Socket("127.0.0.1", server.address().getPort())) {
            s.setSoTimeout(60_000);
            ByteArrayOutputStream frame = new ByteArrayOutputStream();
            frame.writeBytes(le(16 + msg.length));
            frame.writeBytes(le(1));
            frame.writeBytes(le(0));
            frame.writeBytes(le(2013));
            frame.writeBytes(msg);
            s.getOutputStream().write(frame.toByteArray());
            DataInputStream in = new DataInputStream(s.getInputStream());
            byte[] header = new byte[16];
            in.readFully(header);
            int length = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).getInt();
            byte[] reply = new byte[length - 16];
            in.readFully(reply);
            BsonDocument answer = new RawBsonDocument(Arrays.copyOfRange(reply, 5, reply.length));
            assertEquals(0, answer.getInt32("n").getValue());
            BsonArray errors = answer.getArray("writeErrors");
            assertEquals(10334, errors.get(0).asDocument().getInt32("code").getValue(), answer.toJson());
            assertTrue(errors.get(0).asDocument().getString("errmsg").getValue().contains("16777216"));
        }
        MongoCollection<Document> c = client.getDatabase("large").getCollection("huge");
        assertEquals(0, c.countDocuments());
        c.insertOne(new Document("_id", 2));
        assertEquals(1, c.countDocuments());
    }

    @Test
    void hundredLevelsOfNestingStoreAndReadBackAndDeeperIsRefused() {
        MongoCollection<Document> c = client.getDatabase("large").getCollection("deep");
        c.insertOne(nested(1, 100, true));
        Object level = c.find(Filters.eq("_id", 1)).first();
        int levels = 0;
        Object leaf = null;
        while (level != null) {
            levels++;
            leaf = level;
            level = level instanceof Document doc ? doc.get("a") : ((java.util.List<?>) level).get(0);
        }
        assertEquals(100, levels);
        assertEquals("leaf", ((Document) leaf).getString("v"));

        MongoWriteException e = assertThrows(MongoWriteException.class, () -> c.insertOne(nested(2, 101, true)));
        assertEquals(2, e.getError().getCode());
        assertTrue(e.getError().getMessage().contains("100 levels"));
        // growing a stored document past 100 levels by an update is refused the same way
        c.insertOne(nested(3, 99, false));
        String path = "a" + ".a".repeat(97);
        MongoWriteException u = assertThrows(MongoWriteException.class,
                () -> c.updateOne(Filters.eq("_id", 3), Updates.set(path + ".x", new Document("y", new Document("z", 1)))));
        assertEquals(2, u.getError().getCode());
        assertEquals(2, c.countDocuments());
    }

    /**
     * A document of {@code levels} levels (the top document is level 1; each document or array adds one), with
     * level 50 an array when {@code withArray}.
     */
    private static Document nested(int id, int levels, boolean withArray) {
        Object inner = new Document("v", "leaf");
        for (int level = levels - 1; level > 1; level--) {
            inner = withArray && level == 50 ? java.util.List.of(inner) : new Document("a", inner);
        }
        return new Document("_id", id).append("a", inner);
    }

    private static byte[] le(int v) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array();
    }
}

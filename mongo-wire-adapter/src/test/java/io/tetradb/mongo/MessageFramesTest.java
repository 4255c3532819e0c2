package io.tetradb.mongo;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.Document;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * mongo-find (issue 17): how the connection's bytes are cut into messages ({@code MongoWireServer.messageFrames}).
 * Through the Java driver: point finds answered on the event loop (from the store, then from the reply cache) and an
 * insert message far longer than one read; through a raw socket: several messages in one write, a message split
 * inside its length field, and lengths below the header or over maxMessageSizeBytes closing the connection.
 */
class MessageFramesTest extends MongoServerTestBase {

    private static byte[] ping(int requestId) {
        return WireFrames.opMsg(requestId, new BsonDocument("ping", new BsonInt32(1))
                .append("$db", new BsonString("admin")));
    }

    private static void assertAnswered(InputStream in, int requestId) throws IOException {
        Object[] reply = WireFrames.readReply(in);
        assertEquals(requestId, reply[0]);
        assertEquals(1.0, ((RawBsonDocument) reply[1]).getNumber("ok").doubleValue());
    }

    @Test
    void theDriversFindsAndLongInsertsAreReadWhole() {
        MongoCollection<Document> c = client.getDatabase("frames").getCollection("docs");
        c.drop();
        List<Document> batch = new ArrayList<>();
        for (int i = 0; i < 600; i++) { // one insert message of ≈ 1.2 MB: many reads
            batch.add(new Document("_id", i).append("s", "v".repeat(2_000 + i)));
        }
        c.insertMany(batch);
        for (int pass = 0; pass < 2; pass++) { // the first pass reads the store, the second the cached replies
            for (int i = 0; i < 600; i += 7) {
                Document d = c.find(Filters.eq("_id", i)).first();
                assertEquals(2_000 + i, d.getString("s").length(), "pass " + pass + ", _id " + i);
            }
        }
        assertEquals(600, c.countDocuments());
    }

    @Test
    void severalMessagesInOneWriteAndOneSplitInsideItsLengthAreEachAnswered() throws IOException {
        try (Socket s = new Socket("127.0.0.1", server.address().getPort())) {
            s.setTcpNoDelay(true);
            s.setSoTimeout((int) PatientDriver.WAIT_MILLIS);
            OutputStream out = s.getOutputStream();
            ByteArrayOutputStream three = new ByteArrayOutputStream();
            for (int id = 1; id <= 3; id++) {
                three.writeBytes(ping(id));
            }
            out.write(three.toByteArray());
            out.flush();
            for (int id = 1; id <= 3; id++) {
                assertAnswered(s.getInputStream(), id);
            }
            byte[] split = ping(4);
            out.write(split, 0, 2);
            out.flush();
            out.write(split, 2, split.length - 2);
            out.flush();
            assertAnswered(s.getInputStream(), 4);
        }
    }

    @Test
    void aLengthBelowTheHeaderOrOverTheLimitClosesTheConnection() throws IOException {
        for (int length : new int[] {0, 15, 48_000_001}) {
            try (Socket s = new Socket("127.0.0.1", server.address().getPort())) {
                s.setSoTimeout((int) PatientDriver.WAIT_MILLIS);
                byte[] header = new byte[16];
                header[0] = (byte) length;
                header[1] = (byte) (length >>> 8);
                header[2] = (byte) (length >>> 16);
                header[3] = (byte) (length >>> 24);
                s.getOutputStream().write(header);
                s.getOutputStream().flush();
                assertEquals(-1, s.getInputStream().read(), "length " + length + ": the server closes the connection");
            }
        }
        assertEquals(1.0, ((Number) client.getDatabase("admin").runCommand(new Document("ping", 1)).get("ok")).doubleValue());
    }
}

package io.tetradb.mongo;

import com.mongodb.client.MongoClient;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.Document;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The cursor-ownership tests' fixture: a Mongo face on a fresh store holding {@link #DOCS} documents in {@code app.c},
 * the MongoDB Java driver connected to it, and one raw connection whose OP_MSG frames carry exactly the session and
 * transaction fields a test puts in (the driver would add its own).
 */
final class RawCursorConnection implements AutoCloseable {
    static final int DOCS = 10;

    private final CosmosClient store;
    private final MongoWireServer server;
    final MongoClient client;
    private final Socket socket;
    private int requestId;

    RawCursorConnection(Path dir) throws IOException {
        store = new CosmosClientBuilder().dataDirectory(dir).buildClient();
        server = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store);
        client = AuthenticationTest.connect(server, null);
        client.getDatabase("app").getCollection("c").insertMany(IntStream.range(0, DOCS)
                .mapToObj(i -> new Document("_id", i)).toList());
        socket = new Socket(InetAddress.getLoopbackAddress(), server.address().getPort());
        socket.setSoTimeout(30_000);
    }

    /** Sends {@code command} as it is on the raw connection and returns the reply's body. */
    BsonDocument send(BsonDocument command) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(WireFrames.opMsg(++requestId, command));
        out.flush();
        return ((BsonDocument) WireFrames.readReply(socket.getInputStream())[1]).clone();
    }

    static BsonDocument getMore(long cursor) {
        return new BsonDocument("getMore", new BsonInt64(cursor)).append("collection", new BsonString("c"))
                .append("batchSize", new BsonInt32(2));
    }

    static long cursorId(BsonDocument reply) {
        assertEquals(1.0, reply.getNumber("ok").doubleValue(), reply.toJson());
        return reply.getDocument("cursor").getInt64("id").getValue();
    }

    static List<Integer> nextBatch(BsonDocument reply) {
        assertEquals(1.0, reply.getNumber("ok").doubleValue(), reply.toJson());
        return reply.getDocument("cursor").getArray("nextBatch").stream()
                .map(d -> d.asDocument().getInt32("_id").getValue()).toList();
    }

    /** Asserts the reply is error {@code code} and returns its message. */
    static String refused(int code, BsonDocument reply) {
        assertEquals(0.0, reply.getNumber("ok").doubleValue(), reply.toJson());
        assertEquals(code, reply.getInt32("code").getValue(), reply.toJson());
        return reply.getString("errmsg").getValue();
    }

    @Override
    public void close() throws IOException {
        socket.close();
        client.close();
        server.close();
        store.close();
    }
}

package io.tetradb.mongo;

import com.mongodb.MongoCommandException;
import com.mongodb.client.ClientSession;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoDatabase;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import org.bson.BsonBinary;
import org.bson.BsonBinarySubType;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@code endSessions} and {@code killSessions} parse their list whole before ending anything, as mongod's IDL parser
 * does: an entry that is not a document (14), without {@code id} (40414), an {@code id} that is not a UUID (14), a
 * {@code uid} that is not binData (14) or not 32 bytes (342), another field (40415), a list that is not an array
 * (14) — and then no session of the list has ended (the old code skipped the bad entries and ended the rest). Without
 * authorization an entry's {@code uid} names the sessions of its {@code id} as a command's lsid {@code uid} does:
 * not at all (every session is the one unauthenticated user's). MongoDB Java driver.
 */
class SessionListParsingTest {
    @TempDir
    Path dir;
    private CosmosClient store;
    private MongoWireServer server;
    private MongoClient client;
    private MongoDatabase app;
    private MongoDatabase admin;

    @BeforeEach
    void start() {
        store = new CosmosClientBuilder().dataDirectory(dir).buildClient();
        server = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store);
        client = AuthenticationTest.connect(server, null);
        app = client.getDatabase("app");
        admin = client.getDatabase("admin");
        app.getCollection("c").insertMany(IntStream.range(0, 10).mapToObj(i -> new Document("_id", i)).toList());
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
        store.close();
    }

    private static String refused(int code, org.junit.jupiter.api.function.Executable run) {
        MongoCommandException e = assertThrows(MongoCommandException.class, run);
        assertEquals(code, e.getErrorCode(), e.getMessage());
        return e.getErrorMessage();
    }

    private long openCursor(ClientSession session) {
        return app.runCommand(session, new Document("find", "c").append("batchSize", 2))
                .get("cursor", Document.class).getLong("id");
    }

    private void readsOn(ClientSession session, long cursor) {
        Document more = app.runCommand(session, new Document("getMore", cursor).append("collection", "c")
                .append("batchSize", 1));
        assertEquals(1, more.get("cursor", Document.class).getList("nextBatch", Document.class).size());
    }

    private void gone(ClientSession session, long cursor) {
        refused(43, () -> app.runCommand(session, new Document("getMore", cursor).append("collection", "c")));
    }

    private static BsonDocument lsid(ClientSession session) {
        return session.getServerSession().getIdentifier().clone();
    }

    @Test
    void aMalformedEntryFailsTheCommandAndEndsNothing() {
        try (ClientSession session = client.startSession()) {
            long cursor = openCursor(session);
            BsonValue id = lsid(session).get("id");
            for (String command : List.of("endSessions", "killSessions")) {
                String path = (command.equals("endSessions") ? "EndSessionsCmdFromClient" : "KillSessionsCmdFromClient")
                        + "." + command;
                assertEquals("BSON field '" + path + ".1' is the wrong type 'int', expected type 'object'",
                        refused(14, () -> admin.runCommand(new Document(command, List.of(lsid(session), 1)))));
                assertEquals("BSON field '" + path + ".id' is missing but a required field",
                        refused(40414, () -> admin.runCommand(new Document(command,
                                List.of(lsid(session), new Document())))));
                assertEquals("BSON field '" + path + ".id' is the wrong type 'string', expected type 'binData'",
                        refused(14, () -> admin.runCommand(new Document(command,
                                List.of(lsid(session), new Document("id", "x"))))));
                assertEquals("BSON field '" + path + ".id' is the wrong binData type 'general', expected type 'uuid'",
                        refused(14, () -> admin.runCommand(new Document(command, List.of(lsid(session),
                                new Document("id", new BsonBinary(BsonBinarySubType.BINARY, new byte[16])))))));
                assertEquals("Unsupported SHA256Block hash length: 5", refused(342, () -> admin.runCommand(
                        new Document(command, List.of(new Document("id", id).append("uid",
                                new BsonBinary(new byte[5])))))));
                assertEquals("BSON field '" + path + ".uid' is the wrong type 'string', expected type 'binData'",
                        refused(14, () -> admin.runCommand(new Document(command, List.of(new Document("id", id)
                                .append("uid", "ann@app"))))));
                assertEquals("BSON field '" + path + ".txnNumber' is an unknown field.",
                        refused(40415, () -> admin.runCommand(new Document(command, List.of(new Document("id", id)
                                .append("txnNumber", 1L))))));
                assertEquals("BSON field '" + path + "' is the wrong type 'object', expected type 'array'",
                        refused(14, () -> admin.runCommand(new Document(command, lsid(session)))));
                readsOn(session, cursor); // none of these ended the well-formed entry's session
            }
            admin.runCommand(new Document("endSessions", List.of(lsid(session))));
            gone(session, cursor);
        }
    }

    @Test
    void withoutAuthorizationAnEntrysUidNamesNoOtherSessions() {
        try (ClientSession session = client.startSession()) {
            long cursor = openCursor(session);
            BsonDocument someoneElse = lsid(session).append("uid", new BsonBinary(new byte[32]));
            admin.runCommand(new Document("killSessions", List.of(someoneElse)));
            gone(session, cursor); // the uid is not a user here: the session of that id is the one killed
        }
    }
}

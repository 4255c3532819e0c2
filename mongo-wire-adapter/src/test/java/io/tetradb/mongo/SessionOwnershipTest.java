package io.tetradb.mongo;

import com.mongodb.MongoCommandException;
import com.mongodb.client.ClientSession;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import org.bson.BsonBinary;
import org.bson.BsonBinarySubType;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Sessions and cursors belong to the user that started them, as on mongod 7.0, through the MongoDB Java driver with
 * two users (ann, bob: readWrite on app) on two MongoClients. Bob's session is given ann's {@code lsid.id} (the
 * driver's server-session identifier edited in place, so every command of it carries the crafted lsid): a session is
 * the id together with its user, so bob reaches none of ann's cursors, transactions or sessions.
 */
class SessionOwnershipTest {
    @TempDir
    Path dir;
    private AppUsersServer app;
    private final List<AutoCloseable> open = new ArrayList<>();

    @BeforeEach
    void start() {
        app = AppUsersServer.start(dir);
    }

    @AfterEach
    void stop() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) { // sessions before their clients
            open.get(i).close();
        }
        app.close();
    }

    private MongoClient client(String user, String db) {
        MongoClient c = app.connect(user, db);
        open.add(c);
        return c;
    }

    private ClientSession session(MongoClient client) {
        ClientSession s = client.startSession();
        open.add(s);
        return s;
    }

    /** A session of {@code client} whose every command carries {@code lsid.id} of {@code other}. */
    private ClientSession sameLsidAs(MongoClient client, ClientSession other) {
        ClientSession s = session(client);
        s.getServerSession().getIdentifier().put("id", other.getServerSession().getIdentifier().get("id"));
        return s;
    }

    private static MongoCommandException refused(int code, org.junit.jupiter.api.function.Executable run) {
        MongoCommandException e = assertThrows(MongoCommandException.class, run);
        assertEquals(code, e.getErrorCode(), e.getMessage());
        return e;
    }

    private static long cursorId(Document reply) {
        return reply.get("cursor", Document.class).getLong("id");
    }

    @Test
    void anotherUsersCursorIsUnauthorizedAndStaysItsOwners() {
        MongoClient annClient = client("ann", "app");
        MongoClient bobClient = client("bob", "app");
        ClientSession annSession = session(annClient); // a cursor's getMores go in its session
        ClientSession bobSession = session(bobClient);
        MongoDatabase ann = annClient.getDatabase("app");
        MongoDatabase bob = bobClient.getDatabase("app");
        long id = cursorId(ann.runCommand(annSession, new Document("find", "c").append("batchSize", 2)));
        MongoCommandException e = refused(13, () -> bob.runCommand(new Document("getMore", id)
                .append("collection", "c")));
        assertEquals("cursor id " + id + " was not created by the authenticated user", e.getErrorMessage());
        e = refused(13, () -> bob.runCommand(new Document("killCursors", "c").append("cursors", List.of(id))));
        assertEquals("not authorized to kill cursor on app.c", e.getErrorMessage());
        // refused as a whole: bob's own cursor named beside it is not killed either
        long bobs = cursorId(bob.runCommand(bobSession, new Document("find", "c").append("batchSize", 2)));
        refused(13, () -> bob.runCommand(new Document("killCursors", "c").append("cursors", List.of(bobs, id))));
        Document more = bob.runCommand(bobSession, new Document("getMore", bobs).append("collection", "c")
                .append("batchSize", 2));
        assertEquals(2, more.get("cursor", Document.class).getList("nextBatch", Document.class).size());

        // ann's cursor is untouched by the refusals and reads on
        more = ann.runCommand(annSession, new Document("getMore", id).append("collection", "c")
                .append("batchSize", 3));
        assertEquals(List.of(2, 3, 4), more.get("cursor", Document.class).getList("nextBatch", Document.class)
                .stream().map(d -> d.getInteger("_id")).toList());
        // root may kill any cursor (killAnyCursor)
        Document killed = client("root", "admin").getDatabase("app").runCommand(new Document("killCursors", "c")
                .append("cursors", List.of(id)));
        assertEquals(List.of(id), killed.getList("cursorsKilled", Long.class));
        refused(43, () -> ann.runCommand(annSession, new Document("getMore", id).append("collection", "c")));
    }

    @Test
    void anotherUsersChangeStreamIsUnauthorized() {
        MongoClient annClient = client("ann", "app");
        ClientSession annSession = session(annClient);
        MongoDatabase ann = annClient.getDatabase("app");
        MongoDatabase bob = client("bob", "app").getDatabase("app");
        long id = cursorId(ann.runCommand(annSession, new Document("aggregate", "c").append("pipeline",
                List.of(new Document("$changeStream", new Document()))).append("cursor", new Document())));
        MongoCommandException e = refused(13, () -> bob.runCommand(new Document("getMore", id)
                .append("collection", "c").append("maxTimeMS", 10)));
        assertEquals("cursor id " + id + " was not created by the authenticated user", e.getErrorMessage());
        refused(13, () -> bob.runCommand(new Document("killCursors", "c").append("cursors", List.of(id))));
        ann.getCollection("c").insertOne(new Document("_id", "new"));
        Document more = ann.runCommand(annSession, new Document("getMore", id).append("collection", "c")
                .append("maxTimeMS", 2000));
        assertEquals(1, more.get("cursor", Document.class).getList("nextBatch", Document.class).size());
        Document killed = ann.runCommand(new Document("killCursors", "c").append("cursors", List.of(id)));
        assertEquals(List.of(id), killed.getList("cursorsKilled", Long.class));
    }

    @Test
    void aKilledSessionsChangeStreamCloses() {
        MongoClient annClient = client("ann", "app");
        ClientSession ann = session(annClient);
        MongoDatabase annDb = annClient.getDatabase("app");
        long id = cursorId(annDb.runCommand(ann, new Document("aggregate", "c").append("pipeline",
                List.of(new Document("$changeStream", new Document()))).append("cursor", new Document())));
        MongoClient bobClient = client("bob", "app");
        bobClient.getDatabase("admin").runCommand(new Document("killSessions",
                List.of(ann.getServerSession().getIdentifier().clone()))); // bob's session of that id: none
        annDb.runCommand(ann, new Document("getMore", id).append("collection", "c").append("maxTimeMS", 10));
        client("root", "admin").getDatabase("admin").runCommand(new Document("killAllSessions",
                List.of(new Document("user", "ann").append("db", "app"))));
        refused(43, () -> annDb.runCommand(ann, new Document("getMore", id).append("collection", "c")
                .append("maxTimeMS", 10)));
    }

    @Test
    void twoUsersWithOneLsidHaveTwoTransactions() {
        MongoClient annClient = client("ann", "app");
        MongoClient bobClient = client("bob", "app");
        MongoCollection<Document> annColl = annClient.getDatabase("app").getCollection("c");
        MongoCollection<Document> bobColl = bobClient.getDatabase("app").getCollection("c");
        ClientSession ann = session(annClient);
        ClientSession bob = sameLsidAs(bobClient, ann);
        ann.startTransaction();
        annColl.insertOne(ann, new Document("_id", "ann"));
        // bob's commit, abort and end of "the same" session reach nothing of ann's
        refused(251, () -> bobClient.getDatabase("app").runCommand(bob, new Document("commitTransaction", 1)
                .append("txnNumber", 1L).append("autocommit", false)));
        refused(251, () -> bobClient.getDatabase("app").runCommand(bob, new Document("abortTransaction", 1)
                .append("txnNumber", 1L).append("autocommit", false)));
        BsonValue lsidId = ann.getServerSession().getIdentifier().get("id");
        bobClient.getDatabase("admin").runCommand(new Document("endSessions", List.of(new Document("id", lsidId))));
        bobClient.getDatabase("admin").runCommand(new Document("killSessions", List.of(new Document("id", lsidId))));
        // bob's own transaction under that lsid.id is a slot of its own (txnNumber 1 again)
        bob.startTransaction();
        bobColl.insertOne(bob, new Document("_id", "bob"));
        assertEquals(0, annColl.countDocuments(new Document("_id", new Document("$in", List.of("ann", "bob")))));
        ann.commitTransaction();
        assertEquals(1, annColl.countDocuments(new Document("_id", "ann")));
        assertEquals(0, annColl.countDocuments(new Document("_id", "bob")), "bob's is still open");
        bob.commitTransaction();
        assertEquals(1, annColl.countDocuments(new Document("_id", "bob")));
    }

    @Test
    void killSessionsEndsOnlyTheCallersSessions() {
        MongoClient annClient = client("ann", "app");
        MongoClient bobClient = client("bob", "app");
        ClientSession ann = session(annClient);
        ClientSession bob = sameLsidAs(bobClient, ann);
        MongoDatabase annDb = annClient.getDatabase("app");
        MongoDatabase bobDb = bobClient.getDatabase("app");
        long annCursor = cursorId(annDb.runCommand(ann, new Document("find", "c").append("batchSize", 2)));
        long bobCursor = cursorId(bobDb.runCommand(bob, new Document("find", "c").append("batchSize", 2)));

        bobDb.runCommand(new Document("killSessions", List.of())); // all of bob's sessions: his cursor
        refused(43, () -> bobDb.runCommand(bob, new Document("getMore", bobCursor).append("collection", "c")));
        annDb.runCommand(ann, new Document("getMore", annCursor).append("collection", "c").append("batchSize", 1));
        // (the getMore comes before her transaction: a cursor opened outside one is not continued inside it)
        ann.startTransaction();
        annDb.getCollection("c").insertOne(ann, new Document("_id", "ann"));
        bobDb.runCommand(new Document("killSessions", List.of())); // bob's again: her transaction stays
        // ann names her session: her cursor closes and her transaction is aborted
        annDb.runCommand(new Document("killSessions", List.of(ann.getServerSession().getIdentifier().clone())));
        refused(43, () -> annDb.runCommand(new Document("getMore", annCursor).append("collection", "c")));
        refused(251, ann::commitTransaction);
        assertEquals(0, annDb.getCollection("c").countDocuments(new Document("_id", "ann")));
    }

    @Test
    void anLsidNamingAnotherUsersDigestIsUnauthorized() throws Exception {
        MongoClient annClient = client("ann", "app");
        MongoClient bobClient = client("bob", "app");
        ClientSession ann = session(annClient);
        MongoDatabase annDb = annClient.getDatabase("app");
        long annCursor = cursorId(annDb.runCommand(ann, new Document("find", "c").append("batchSize", 2)));
        ClientSession bob = sameLsidAs(bobClient, ann);
        bob.getServerSession().getIdentifier().put("uid", uid("ann@app"));
        MongoCommandException e = refused(13, () -> bobClient.getDatabase("app").runCommand(bob,
                new Document("find", "c")));
        assertEquals("Unauthorized to set user digest in LogicalSessionId", e.getErrorMessage());
        BsonDocument annsSession = ann.getServerSession().getIdentifier().clone().append("uid", uid("ann@app"));
        refused(13, () -> bobClient.getDatabase("admin").runCommand(new Document("killSessions",
                List.of(annsSession))));
        annDb.runCommand(ann, new Document("getMore", annCursor).append("collection", "c").append("batchSize", 1));
        // one's own digest is accepted; root (killAnySession) may name ann's session
        bob.getServerSession().getIdentifier().put("uid", uid("bob@app"));
        assertEquals(10, bobClient.getDatabase("app").runCommand(bob, new Document("count", "c")).getInteger("n"));
        client("root", "admin").getDatabase("admin").runCommand(new Document("killSessions", List.of(annsSession)));
        refused(43, () -> annDb.runCommand(new Document("getMore", annCursor).append("collection", "c")));
    }

    private static BsonBinary uid(String userAtDb) throws Exception {
        return new BsonBinary(BsonBinarySubType.BINARY, MessageDigest.getInstance("SHA-256")
                .digest(userAtDb.getBytes(StandardCharsets.UTF_8)));
    }
}

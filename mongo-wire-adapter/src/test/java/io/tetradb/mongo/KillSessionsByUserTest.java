package io.tetradb.mongo;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoCursorNotFoundException;
import com.mongodb.client.ClientSession;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import org.bson.BsonBinary;
import org.bson.BsonBinarySubType;
import org.bson.BsonDocument;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code killAllSessions: [{user, db}]} and {@code killAllSessionsByPattern} through the MongoDB Java driver, as
 * mongod answers them: a session belongs to the user that started it; killing a user's sessions closes their cursors
 * (the next getMore is CursorNotFound) and aborts their transactions (commit is NoSuchTransaction, nothing written),
 * while another user's cursor reads on and its transaction commits.
 */
class KillSessionsByUserTest {
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
        for (AutoCloseable c : open) {
            c.close();
        }
        app.close();
    }

    private MongoClient as(String user, String db) {
        return app.connect(user, db);
    }

    /** One user's session with a cursor past its first batch and a transaction with one uncommitted insert. */
    private final class UserSession {
        final ClientSession session;
        final ClientSession reading;
        final MongoCursor<Document> cursor;
        final MongoCollection<Document> coll;
        final String user;
        final String txnId;

        UserSession(String user) {
            this.user = user;
            this.txnId = "txn-" + user + "-" + open.size(); // two sessions of one user write different documents
            MongoClient client = as(user, "app");
            open.add(client);
            coll = client.getDatabase("app").getCollection("c");
            reading = client.startSession();
            open.add(reading);
            cursor = coll.find(reading).batchSize(2).iterator();
            cursor.next();
            cursor.next(); // the first batch read: the next document needs a getMore
            session = client.startSession();
            open.add(session);
            session.startTransaction();
            coll.insertOne(session, new Document("_id", txnId));
        }

        void assertKilled() {
            assertThrows(MongoCursorNotFoundException.class, () -> {
                while (cursor.hasNext()) {
                    cursor.next();
                }
            }, user + "'s cursor was closed");
            MongoCommandException e = assertThrows(MongoCommandException.class, session::commitTransaction);
            assertEquals(251, e.getErrorCode(), e.getMessage());
            assertEquals(0, coll.countDocuments(new Document("_id", txnId)), "nothing of the transaction");
        }

        void assertAlive() {
            int read = 2;
            while (cursor.hasNext()) {
                cursor.next();
                read++;
            }
            assertEquals(10, read, user + "'s cursor reads to its end");
            session.commitTransaction();
            assertEquals(1, coll.countDocuments(new Document("_id", txnId)), user + "'s transaction");
        }
    }

    private Document admin(MongoClient root, Document command) {
        return root.getDatabase("admin").runCommand(command);
    }

    @Test
    void killAllSessionsOfOneUserLeavesTheOthers() {
        UserSession ann = new UserSession("ann");
        UserSession bob = new UserSession("bob");
        try (MongoClient root = as("root", "admin")) {
            admin(root, new Document("killAllSessions", List.of(new Document("user", "ann").append("db", "app"))));
        }
        ann.assertKilled();
        bob.assertAlive();
    }

    @Test
    void anEmptyListKillsEverySession() {
        UserSession ann = new UserSession("ann");
        UserSession bob = new UserSession("bob");
        try (MongoClient root = as("root", "admin")) {
            admin(root, new Document("killAllSessions", List.of()));
        }
        ann.assertKilled();
        bob.assertKilled();
    }

    @Test
    void anUnknownUserIsUserNotFoundAndKillsNothing() {
        UserSession ann = new UserSession("ann");
        try (MongoClient root = as("root", "admin")) {
            MongoCommandException e = assertThrows(MongoCommandException.class, () -> admin(root,
                    new Document("killAllSessions", List.of(new Document("user", "ann").append("db", "app"),
                            new Document("user", "nobody").append("db", "app")))));
            assertEquals(11, e.getErrorCode());
            assertEquals("Could not find user \"nobody\" for db \"app\"", e.getErrorMessage());
            e = assertThrows(MongoCommandException.class, () -> admin(root,
                    new Document("killAllSessions", List.of(new Document("user", "ann")))));
            assertEquals(40414, e.getErrorCode(), e.getMessage());
            e = assertThrows(MongoCommandException.class, () -> admin(root, new Document("killAllSessions", 1)));
            assertEquals(14, e.getErrorCode(), e.getMessage());
            assertEquals("BSON field 'KillAllSessionsCmd.killAllSessions' is the wrong type 'int', expected type "
                    + "'array'", e.getErrorMessage());
        }
        ann.assertAlive();
    }

    @Test
    void onlyAUserWhoMayKillAnySessionRunsIt() {
        UserSession bob = new UserSession("bob");
        try (MongoClient ann = as("ann", "app")) {
            MongoCommandException e = assertThrows(MongoCommandException.class, () -> admin(ann,
                    new Document("killAllSessions", List.of(new Document("user", "bob").append("db", "app")))));
            assertEquals(13, e.getErrorCode());
            e = assertThrows(MongoCommandException.class, () -> admin(ann,
                    new Document("killAllSessionsByPattern", List.of())));
            assertEquals(13, e.getErrorCode());
        }
        bob.assertAlive();
    }

    @Test
    void killAllSessionsByPatternSelectsByUidOrByLsid() throws Exception {
        UserSession ann = new UserSession("ann");
        UserSession bob = new UserSession("bob");
        UserSession bobAgain = new UserSession("bob");
        try (MongoClient root = as("root", "admin")) {
            // bob's two sessions by their lsids with bob's uid (mongod's SHA-256 of "bob@app"); his other two stay
            List<Document> lsids = new ArrayList<>();
            for (ClientSession s : List.of(bob.reading, bob.session)) {
                lsids.add(new Document("lsid", s.getServerSession().getIdentifier().clone()
                        .append("uid", uid("bob@app"))));
            }
            admin(root, new Document("killAllSessionsByPattern", lsids));
            bob.assertKilled();
            // the same lsid with another user's uid is another session: nothing more ends
            BsonDocument annsLsid = ann.session.getServerSession().getIdentifier().clone()
                    .append("uid", uid("bob@app"));
            admin(root, new Document("killAllSessionsByPattern", List.of(new Document("lsid", annsLsid))));
            // every session of ann's by her uid
            admin(root, new Document("killAllSessionsByPattern", List.of(new Document("uid", uid("ann@app")))));
            ann.assertKilled();
            MongoCommandException e = assertThrows(MongoCommandException.class, () -> admin(root,
                    new Document("killAllSessionsByPattern", List.of(new Document("users",
                            List.of(new Document("user", "ann").append("db", "app"))))))); // impersonation data
            assertEquals(13, e.getErrorCode());
            assertEquals("Not authorized to impersonate in killAllSessionsByPattern", e.getErrorMessage());
            e = assertThrows(MongoCommandException.class, () -> admin(root,
                    new Document("killAllSessionsByPattern", List.of(new Document("user", "ann")))));
            assertEquals(40415, e.getErrorCode(), e.getMessage());
        }
        bobAgain.assertAlive();
    }

    private static BsonBinary uid(String userAtDb) throws Exception {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(userAtDb.getBytes(StandardCharsets.UTF_8));
        assertTrue(digest.length == 32);
        return new BsonBinary(BsonBinarySubType.BINARY, digest);
    }
}

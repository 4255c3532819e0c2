package io.tetradb.mongo;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoCredential;
import com.mongodb.client.ClientSession;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.UpdateOptions;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import org.bson.BsonString;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A running command of a killed session, or one named by {@code killOp}, stops with Interrupted (11601, "operation
 * was interrupted") at its next interrupt check, as mongod's operations do; nothing it had not finished is written.
 * Deterministic: the server's checkpoint hook holds a command (chosen by its {@code comment}) at its first check
 * until the test has sent the kill, then lets it go on to the next check. MongoDB Java driver, users ann and bob
 * (readWrite on app) and root.
 */
class CommandInterruptionTest {
    private static final int DOCS = 300;
    /** How long the test waits for a held or killed command: only a hung one takes that long. */
    private static final long PATIENCE_SECONDS = io.tetradb.testing.TestTime.patience(java.time.Duration.ZERO)
            .toSeconds();
    @TempDir
    Path dir;
    private CosmosClient store;
    private MongoWireServer server;
    private final List<AutoCloseable> open = new ArrayList<>();
    /** Commands to hold at their first check, by comment: reached, then released by the test. */
    private final Map<String, CountDownLatch[]> holds = new ConcurrentHashMap<>();

    @BeforeEach
    void start() {
        store = new CosmosClientBuilder().dataDirectory(dir).buildClient();
        server = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store);
        try (MongoClient anonymous = AuthenticationTest.connect(server, null)) {
            anonymous.getDatabase("admin").runCommand(new Document("createUser", "root").append("pwd", "pw")
                    .append("roles", List.of("root")));
        }
        MongoClient root = client("root", "admin");
        for (String user : List.of("ann", "bob")) {
            root.getDatabase("app").runCommand(new Document("createUser", user).append("pwd", "pw")
                    .append("roles", List.of("readWrite")));
        }
        root.getDatabase("app").getCollection("c").insertMany(IntStream.range(0, DOCS)
                .mapToObj(i -> new Document("_id", i).append("v", i)).toList());
        server.checkpointHook(cmd -> {
            if (cmd.get("comment") instanceof BsonString c) {
                CountDownLatch[] hold = holds.remove(c.getValue()); // held once: the next check goes on
                if (hold != null) {
                    hold[0].countDown();
                    await(hold[1]);
                }
            }
        });
    }

    @AfterEach
    void stop() throws Exception {
        server.checkpointHook(null);
        holds.values().forEach(h -> h[1].countDown());
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
        server.close();
        store.close();
    }

    private MongoClient client(String user, String db) {
        MongoClient c = AuthenticationTest.connect(server, MongoCredential.createScramSha256Credential(user, db,
                "pw".toCharArray()));
        open.add(c);
        return c;
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(PATIENCE_SECONDS, TimeUnit.SECONDS), "the test never released the command");
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs {@code command} on another thread and returns once it is held at its first check. */
    private <T> CompletableFuture<T> heldAtFirstCheck(String comment, Supplier<T> command) {
        CountDownLatch[] hold = {new CountDownLatch(1), new CountDownLatch(1)};
        holds.put(comment, hold);
        CompletableFuture<T> running = CompletableFuture.supplyAsync(command);
        await(hold[0]);
        releases.put(comment, hold[1]);
        return running;
    }

    private final Map<String, CountDownLatch> releases = new ConcurrentHashMap<>();

    private void release(String comment) {
        releases.remove(comment).countDown();
    }

    private static MongoCommandException failure(CompletableFuture<?> running) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> running.get(PATIENCE_SECONDS, TimeUnit.SECONDS));
        return assertInstanceOf(MongoCommandException.class, e.getCause());
    }

    private static void assertInterrupted(CompletableFuture<?> running) {
        MongoCommandException e = failure(running);
        assertEquals(11601, e.getErrorCode(), e.getMessage());
        assertEquals("Interrupted", e.getErrorCodeName());
        assertEquals("operation was interrupted", e.getErrorMessage());
    }

    @Test
    void killAllSessionsInterruptsTheUsersRunningFindAndAggregateOnly() throws Exception {
        MongoCollection<Document> ann = client("ann", "app").getDatabase("app").getCollection("c");
        MongoCollection<Document> bob = client("bob", "app").getDatabase("app").getCollection("c");
        CompletableFuture<List<Document>> annFind = heldAtFirstCheck("ann-find",
                () -> ann.find().comment("ann-find").into(new ArrayList<>()));
        CompletableFuture<List<Document>> annAggregate = heldAtFirstCheck("ann-aggregate",
                () -> ann.aggregate(List.of(new Document("$match", new Document("v", new Document("$gte", 0)))))
                        .comment("ann-aggregate").into(new ArrayList<>()));
        CompletableFuture<List<Document>> bobFind = heldAtFirstCheck("bob-find",
                () -> bob.find().comment("bob-find").into(new ArrayList<>()));

        client("root", "admin").getDatabase("admin").runCommand(new Document("killAllSessions",
                List.of(new Document("user", "ann").append("db", "app"))));
        release("ann-find");
        release("ann-aggregate");
        release("bob-find");
        assertInterrupted(annFind);
        assertInterrupted(annAggregate);
        assertEquals(DOCS, bobFind.get(PATIENCE_SECONDS, TimeUnit.SECONDS).size(), "bob's find was not killed");
        assertEquals(DOCS, ann.countDocuments(), "ann is served again");
    }

    @Test
    void aKilledSessionsTransactionStatementStopsAndNothingOfItIsWritten() throws Exception {
        MongoClient annClient = client("ann", "app");
        MongoCollection<Document> ann = annClient.getDatabase("app").getCollection("c");
        ClientSession session = annClient.startSession();
        open.add(session);
        session.startTransaction();
        ann.insertOne(session, new Document("_id", "in-txn"));
        CompletableFuture<Long> update = heldAtFirstCheck("ann-update", () -> ann.updateMany(session,
                new Document(), new Document("$set", new Document("x", 1)), new UpdateOptions().comment("ann-update"))
                .getModifiedCount());
        // ann ends her own session by name (killSessions is open to every user for their own sessions)
        annClient.getDatabase("admin").runCommand(new Document("killSessions",
                List.of(session.getServerSession().getIdentifier().clone())));
        release("ann-update");
        assertInterrupted(update);
        MongoCommandException commit = assertThrows(MongoCommandException.class, session::commitTransaction);
        assertEquals(251, commit.getErrorCode(), commit.getMessage());
        assertEquals(0, ann.countDocuments(new Document("x", 1)), "no update applied");
        assertEquals(0, ann.countDocuments(new Document("_id", "in-txn")), "nor the insert");
        assertEquals(DOCS, ann.countDocuments());
    }

    @Test
    void killOpStopsOnesOwnOperationAndRefusesAnothersWithoutKillop() throws Exception {
        MongoClient annClient = client("ann", "app");
        MongoDatabase annDb = annClient.getDatabase("app");
        MongoDatabase annAdmin = annClient.getDatabase("admin");
        MongoDatabase bobAdmin = client("bob", "app").getDatabase("admin");
        ClientSession session = annClient.startSession(); // a cursor's getMores go in its session
        long cursor = annDb.runCommand(session, new Document("find", "c").append("batchSize", 2))
                .get("cursor", Document.class).getLong("id");
        CompletableFuture<Document> getMore = heldAtFirstCheck("ann-more", () -> annDb.runCommand(session,
                new Document("getMore", cursor).append("collection", "c").append("comment", "ann-more")));

        Document filter = new Document("currentOp", 1).append("$ownOps", true).append("command.comment", "ann-more");
        assertEquals(List.of(), bobAdmin.runCommand(filter).getList("inprog", Document.class), "not bob's");
        List<Document> mine = annAdmin.runCommand(filter).getList("inprog", Document.class);
        assertEquals(1, mine.size(), mine.toString());
        int opid = mine.get(0).getInteger("opid");
        MongoCommandException e = assertThrows(MongoCommandException.class,
                () -> bobAdmin.runCommand(new Document("killOp", 1).append("op", opid)));
        assertEquals(13, e.getErrorCode(), e.getMessage());
        assertEquals("Unauthorized", e.getErrorMessage());
        Document killed = annAdmin.runCommand(new Document("killOp", 1).append("op", opid));
        assertEquals("attempting to kill op", killed.getString("info"));
        release("ann-more");
        assertInterrupted(getMore);
        e = assertThrows(MongoCommandException.class, () -> annDb.runCommand(session, new Document("getMore", cursor)
                .append("collection", "c")));
        assertEquals(43, e.getErrorCode(), "a getMore that failed leaves no cursor");

        e = assertThrows(MongoCommandException.class, () -> bobAdmin.runCommand(new Document("killOp", 1)));
        assertEquals(4, e.getErrorCode());
        assertEquals("Missing expected field \"op\"", e.getErrorMessage());
        e = assertThrows(MongoCommandException.class,
                () -> bobAdmin.runCommand(new Document("killOp", 1).append("op", "x")));
        assertEquals("Expected field \"op\" to have numeric type, but found string", e.getErrorMessage());
        e = assertThrows(MongoCommandException.class,
                () -> annDb.runCommand(new Document("killOp", 1).append("op", opid)));
        assertEquals(13, e.getErrorCode(), "admin only");
        // root holds killop: an operation that has ended is answered the same
        assertEquals("attempting to kill op", client("root", "admin").getDatabase("admin")
                .runCommand(new Document("killOp", 1).append("op", opid)).getString("info"));
    }
}

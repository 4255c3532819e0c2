package io.tetradb.mongo;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoCredential;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Indexes;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.function.Executable;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MongoDB's built-in roles enforced per command, through the Java driver: each user may run what its roles grant on
 * their database (or every database, for the admin-only roles) and gets 13 Unauthorized with MongoDB's
 * "not authorized on DB to execute command" for the rest, with nothing changed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RoleEnforcementTest {
    private Path dir;
    private CosmosClient store;
    private MongoWireServer server;

    @BeforeAll
    void start() throws Exception {
        dir = Files.createTempDirectory("mongo-roles");
        store = new CosmosClientBuilder().dataDirectory(dir).buildClient();
        server = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store);
        try (MongoClient anonymous = AuthenticationTest.connect(server, null)) {
            anonymous.getDatabase("admin").runCommand(new Document("createUser", "root").append("pwd", "pw")
                    .append("roles", List.of("root")));
        }
        try (MongoClient root = as("root", "admin")) {
            MongoDatabase app = root.getDatabase("app");
            app.getCollection("c").insertOne(new Document("_id", 1).append("v", "seed"));
            root.getDatabase("other").getCollection("c").insertOne(new Document("_id", 1));
            for (String[] u : new String[][] {{"reader", "read"}, {"writer", "readWrite"}, {"dbadm", "dbAdmin"},
                    {"uadmin", "userAdmin"}, {"owner", "dbOwner"}}) {
                app.runCommand(new Document("createUser", u[0]).append("pwd", "pw").append("roles", List.of(u[1])));
            }
            MongoDatabase admin = root.getDatabase("admin");
            admin.runCommand(new Document("createUser", "monitor").append("pwd", "pw")
                    .append("roles", List.of("clusterMonitor")));
            admin.runCommand(new Document("createUser", "anyreader").append("pwd", "pw")
                    .append("roles", List.of("readAnyDatabase")));
            admin.runCommand(new Document("createUser", "manager").append("pwd", "pw")
                    .append("roles", List.of("clusterManager")));
            admin.runCommand(new Document("createUser", "host").append("pwd", "pw")
                    .append("roles", List.of("hostManager")));
        }
    }

    @AfterAll
    void stop() throws Exception {
        server.close();
        store.close();
    }

    private MongoClient as(String user, String db) {
        return AuthenticationTest.connect(server, MongoCredential.createScramSha256Credential(user, db,
                "pw".toCharArray()));
    }

    private static void refused(String expectedStart, Executable command) {
        MongoCommandException e = assertThrows(MongoCommandException.class, command);
        assertEquals(13, e.getErrorCode(), e.getMessage());
        assertEquals("Unauthorized", e.getErrorCodeName());
        assertTrue(e.getErrorMessage().startsWith(expectedStart), e.getErrorMessage());
    }

    private long seedCount() {
        try (MongoClient root = as("root", "admin")) {
            return root.getDatabase("app").getCollection("c").countDocuments();
        }
    }

    @Test
    void readReadsAndNothingElse() {
        try (MongoClient c = as("reader", "app")) {
            MongoCollection<Document> coll = c.getDatabase("app").getCollection("c");
            assertEquals("seed", coll.find().first().getString("v"));
            assertEquals(1, coll.aggregate(List.of(new Document("$match", new Document()))).into(new java.util.ArrayList<>()).size());
            refused("not authorized on app to execute command { insert: \"c\"",
                    () -> coll.insertOne(new Document("_id", 2)));
            refused("not authorized on app", () -> coll.deleteMany(new Document()));
            refused("not authorized on app", () -> coll.createIndex(Indexes.ascending("v")));
            refused("not authorized on app", () -> coll.aggregate(List.of(new Document("$out", "copy"))).toCollection());
            refused("not authorized on other", () -> c.getDatabase("other").getCollection("c").find().first());
            refused("not authorized on app", () -> c.getDatabase("app").runCommand(new Document("createUser", "x")
                    .append("pwd", "x").append("roles", List.of())));
            refused("not authorized on admin", () -> c.getDatabase("admin").runCommand(new Document("serverStatus", 1)));
            // a user may always read about themselves, not about others
            c.getDatabase("app").runCommand(new Document("usersInfo", "reader"));
            refused("not authorized on app", () -> c.getDatabase("app").runCommand(new Document("usersInfo", "writer")));
        }
        assertEquals(1, seedCount(), "nothing the refused commands would have done happened");
    }

    @Test
    void readWriteWritesButDoesNotAdminister() {
        try (MongoClient c = as("writer", "app")) {
            MongoDatabase app = c.getDatabase("app");
            MongoCollection<Document> w = app.getCollection("w");
            w.insertOne(new Document("_id", 1).append("n", 1));
            w.updateOne(new Document("_id", 1), new Document("$inc", new Document("n", 1)));
            w.createIndex(Indexes.ascending("n"));
            c.getDatabase("admin").runCommand(new Document("renameCollection", "app.w").append("to", "app.w2"));
            assertEquals(2, app.getCollection("w2").find().first().getInteger("n"));
            refused("not authorized on app", () -> app.runCommand(new Document("collMod", "w2")
                    .append("validator", new Document())));
            refused("not authorized on admin", () -> c.getDatabase("admin").runCommand(
                    new Document("renameCollection", "app.w2").append("to", "other.w2")));
            refused("not authorized on other", () -> c.getDatabase("other").getCollection("c")
                    .insertOne(new Document("_id", 9)));
            app.getCollection("w2").drop();
        }
    }

    @Test
    void dbAdminAdministersButDoesNotRead() {
        try (MongoClient c = as("dbadm", "app")) {
            MongoDatabase app = c.getDatabase("app");
            app.createCollection("made-by-dbadmin");
            app.runCommand(new Document("collMod", "made-by-dbadmin").append("validator", new Document()));
            app.runCommand(new Document("dbStats", 1));
            refused("not authorized on app", () -> app.getCollection("c").find().first());
            refused("not authorized on app", () -> app.getCollection("c").insertOne(new Document("_id", 3)));
            app.getCollection("made-by-dbadmin").drop();
        }
    }

    @Test
    void userAdminManagesUsersOfItsDatabaseOnly() {
        try (MongoClient c = as("uadmin", "app")) {
            MongoDatabase app = c.getDatabase("app");
            app.runCommand(new Document("createUser", "temp").append("pwd", "pw").append("roles", List.of("read")));
            app.runCommand(new Document("dropUser", "temp"));
            refused("not authorized on app", () -> app.getCollection("c").find().first());
            refused("not authorized on other", () -> c.getDatabase("other").runCommand(new Document("createUser", "t")
                    .append("pwd", "pw").append("roles", List.of())));
        }
    }

    @Test
    void listDatabasesShowsOnlyTheDatabasesAUserHoldsARoleOn() {
        try (MongoClient c = as("reader", "app")) {
            assertEquals(List.of("app"), c.listDatabaseNames().into(new java.util.ArrayList<>()),
                    "MongoDB's authorizedDatabases: a user without the listDatabases action sees its own databases");
            refused("not authorized on admin", () -> c.getDatabase("admin").runCommand(new Document("listDatabases", 1)
                    .append("authorizedDatabases", false)));
        }
        try (MongoClient c = as("anyreader", "admin")) {
            List<String> all = c.listDatabaseNames().into(new java.util.ArrayList<>());
            assertTrue(all.containsAll(List.of("app", "other")), all.toString());
            assertEquals(List.of("admin"), c.getDatabase("admin").runCommand(new Document("listDatabases", 1)
                    .append("nameOnly", true).append("authorizedDatabases", true)).getList("databases", Document.class)
                    .stream().map(d -> d.getString("name")).toList(), "asked for: only where it holds a role");
        }
    }

    @Test
    void othersSessionsAndOperationsNeedKillAnySessionAndKillop() {
        try (MongoClient c = as("manager", "admin")) { // MongoDB 7.0: clusterManager has neither
            refused("not authorized on admin", () -> c.getDatabase("admin").runCommand(
                    new Document("killAllSessions", List.of())));
            refused("Unauthorized", () -> c.getDatabase("admin").runCommand(new Document("killOp", 1)
                    .append("op", 987654)));
        }
        try (MongoClient c = as("host", "admin")) { // hostManager has killAnySession and killop
            c.getDatabase("admin").runCommand(new Document("killAllSessionsByPattern", List.of()));
            assertEquals("attempting to kill op", c.getDatabase("admin").runCommand(new Document("killOp", 1)
                    .append("op", 987654)).getString("info"));
        }
        try (MongoClient c = as("writer", "app")) { // one's own operations need nothing
            MongoDatabase admin = c.getDatabase("admin");
            refused("not authorized on admin", () -> admin.runCommand(new Document("currentOp", 1)));
            assertEquals(1, admin.runCommand(new Document("currentOp", 1).append("$ownOps", true)
                    .append("command.currentOp", 1)).getList("inprog", Document.class).size());
            List<Document> mine = admin.aggregate(List.of(new Document("$currentOp", new Document())))
                    .into(new java.util.ArrayList<>());
            assertTrue(!mine.isEmpty() && mine.stream().allMatch(op -> op.getList("effectiveUsers", Document.class)
                    .equals(List.of(new Document("user", "writer").append("db", "app")))), mine.toString());
            refused("not authorized on admin", () -> admin.aggregate(List.of(new Document("$currentOp",
                    new Document("allUsers", true)))).first());
            refused("Unauthorized", () -> admin.runCommand(new Document("killOp", 1).append("op", 987654)));
        }
    }

    @Test
    void adminOnlyRolesReachEveryDatabaseOrTheServer() {
        try (MongoClient c = as("anyreader", "admin")) {
            assertEquals(1, c.getDatabase("other").getCollection("c").countDocuments());
            assertEquals("seed", c.getDatabase("app").getCollection("c").find().first().getString("v"));
            refused("not authorized on other", () -> c.getDatabase("other").getCollection("c")
                    .insertOne(new Document("_id", 5)));
        }
        try (MongoClient c = as("monitor", "admin")) {
            c.getDatabase("admin").runCommand(new Document("serverStatus", 1));
            refused("not authorized on app", () -> c.getDatabase("app").getCollection("c").find().first());
        }
        try (MongoClient c = as("owner", "app")) {
            MongoDatabase app = c.getDatabase("app");
            app.getCollection("o").insertOne(new Document("_id", 1));
            app.runCommand(new Document("collMod", "o").append("validator", new Document()));
            app.runCommand(new Document("usersInfo", "writer"));
            app.getCollection("o").drop();
        }
    }
}

package io.tetradb.mongo;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoCredential;
import com.mongodb.MongoSecurityException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoDatabase;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import org.bson.BsonBinarySubType;
import org.bson.Document;
import org.bson.types.Binary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * createUser and the other user commands through the Java driver, SCRAM-SHA-256 logins of the created users, and
 * the users surviving a restart over the same data directory (kept in admin.system.users, as keys, never passwords).
 */
class UserManagementTest {

    private static MongoClient as(MongoWireServer server, String user, String db, String password) {
        return AuthenticationTest.connect(server, MongoCredential.createScramSha256Credential(user, db,
                password.toCharArray()));
    }

    private static int code(Executable command) {
        return assertThrows(MongoCommandException.class, command).getErrorCode();
    }

    private static void refusedLogin(MongoWireServer server, String user, String db, String password) {
        try (MongoClient c = as(server, user, db, password)) {
            Exception e = assertThrows(Exception.class, () -> c.getDatabase(db).runCommand(new Document("dbStats", 1)));
            boolean security = false;
            for (Throwable t = e; t != null; t = t.getCause()) {
                security |= t instanceof MongoSecurityException;
            }
            assertTrue(security, e.toString());
        }
    }

    @Test
    void usersAreCreatedManagedAndKeptAcrossARestart(@TempDir Path dir) {
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).buildClient();
             MongoWireServer server = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store)) {
            try (MongoClient anonymous = AuthenticationTest.connect(server, null)) {
                anonymous.getDatabase("shop").getCollection("orders").insertOne(new Document("_id", 1));
                anonymous.getDatabase("admin").runCommand(new Document("createUser", "ann").append("pwd", "pw-ann")
                        .append("roles", List.of("root")).append("customData", new Document("team", "ops")));
                assertEquals(13, code(() -> anonymous.getDatabase("shop").getCollection("orders").find().first()),
                        "once a user exists, every connection must authenticate");
            }
            try (MongoClient ann = as(server, "ann", "admin", "pw-ann")) {
                MongoDatabase shop = ann.getDatabase("shop");
                MongoDatabase admin = ann.getDatabase("admin");
                shop.runCommand(new Document("createUser", "bob").append("pwd", "pw-bob")
                        .append("roles", List.of(new Document("role", "readWrite").append("db", "shop"))));
                assertEquals(51003, code(() -> shop.runCommand(new Document("createUser", "bob")
                        .append("pwd", "x").append("roles", List.of()))));
                assertEquals(31, code(() -> shop.runCommand(new Document("createUser", "carl")
                        .append("pwd", "x").append("roles", List.of("nosuchrole")))));
                assertEquals(31, code(() -> shop.runCommand(new Document("createUser", "carl")
                        .append("pwd", "x").append("roles", List.of("readAnyDatabase")))), "an admin-only role");
                assertEquals(40414, code(() -> shop.runCommand(new Document("createUser", "carl").append("pwd", "x"))));
                assertEquals(2, code(() -> shop.runCommand(new Document("createUser", "carl")
                        .append("roles", List.of()))));
                assertEquals(11, code(() -> shop.runCommand(new Document("dropUser", "nobody"))));
                assertEquals(11, code(() -> shop.runCommand(new Document("updateUser", "nobody").append("pwd", "y"))));

                Document bob = shop.runCommand(new Document("usersInfo", "bob")).getList("users", Document.class).get(0);
                assertEquals("shop.bob", bob.getString("_id"));
                assertEquals("bob", bob.getString("user"));
                assertEquals("shop", bob.getString("db"));
                assertEquals(BsonBinarySubType.UUID_STANDARD.getValue(), bob.get("userId", Binary.class).getType());
                assertEquals(List.of(new Document("role", "readWrite").append("db", "shop")),
                        bob.getList("roles", Document.class));
                assertEquals(List.of("SCRAM-SHA-256"), bob.getList("mechanisms", String.class));
                assertNull(bob.get("credentials"), "credentials only with showCredentials");
                Document withKeys = shop.runCommand(new Document("usersInfo", "bob").append("showCredentials", true))
                        .getList("users", Document.class).get(0);
                Document scram = withKeys.get("credentials", Document.class).get("SCRAM-SHA-256", Document.class);
                assertEquals(15000, scram.getInteger("iterationCount"));
                assertEquals(List.of("iterationCount", "salt", "storedKey", "serverKey"), List.copyOf(scram.keySet()));
                assertFalse(withKeys.toJson().contains("pw-bob"), "no password is kept");

                assertEquals(2, admin.runCommand(new Document("usersInfo", new Document("forAllDBs", true)))
                        .getList("users", Document.class).size());
                assertEquals(1, shop.runCommand(new Document("usersInfo", 1)).getList("users", Document.class).size());
                assertEquals(List.of("ann", "bob"), shop.runCommand(new Document("usersInfo", List.of("bob",
                                new Document("user", "ann").append("db", "admin"), "ghost")))
                        .getList("users", Document.class).stream().map(d -> d.getString("user")).sorted().toList());
                assertEquals(new Document("team", "ops"), admin.runCommand(new Document("usersInfo", "ann"))
                        .getList("users", Document.class).get(0).get("customData", Document.class));

                assertEquals(List.of("readWrite"), shop.runCommand(new Document("rolesInfo", "readWrite"))
                        .getList("roles", Document.class).stream().map(d -> d.getString("role")).toList());
                assertEquals(0, shop.runCommand(new Document("rolesInfo", 1)).getList("roles", Document.class).size(),
                        "no user-defined roles");
                assertTrue(admin.runCommand(new Document("rolesInfo", 1).append("showBuiltinRoles", true))
                        .getList("roles", Document.class).stream().anyMatch(d -> d.getString("role").equals("root")));
                shop.runCommand(new Document("grantRolesToUser", "bob").append("roles",
                        List.of(new Document("role", "read").append("db", "reports"), "dbAdmin")));
                shop.runCommand(new Document("revokeRolesFromUser", "bob").append("roles", List.of("readWrite")));
                shop.runCommand(new Document("updateUser", "bob").append("pwd", "pw-bob-2")
                        .append("customData", new Document("desk", 7)));
                Document changed = shop.runCommand(new Document("usersInfo", "bob"))
                        .getList("users", Document.class).get(0);
                assertEquals(List.of(new Document("role", "read").append("db", "reports"),
                        new Document("role", "dbAdmin").append("db", "shop")), changed.getList("roles", Document.class));
                assertEquals(new Document("desk", 7), changed.get("customData", Document.class));
                assertFalse(admin.getCollection("system.users").find().into(new java.util.ArrayList<>()).toString()
                        .contains("pw-bob"), "the store keeps SCRAM keys, not passwords");
            }
            try (MongoClient bob = as(server, "bob", "shop", "pw-bob-2")) {
                Document status = bob.getDatabase("shop").runCommand(new Document("connectionStatus", 1))
                        .get("authInfo", Document.class);
                assertEquals(new Document("user", "bob").append("db", "shop"),
                        status.getList("authenticatedUsers", Document.class).get(0));
                assertEquals(2, status.getList("authenticatedUserRoles", Document.class).size());
                // roles are enforced: dbAdmin administers shop but does not read its documents
                assertEquals(13, code(() -> bob.getDatabase("shop").getCollection("orders").countDocuments()));
                assertEquals(1, bob.getDatabase("shop").runCommand(new Document("listCollections", 1))
                        .get("cursor", Document.class).getList("firstBatch", Document.class).size());
            }
            refusedLogin(server, "bob", "shop", "pw-bob");
            refusedLogin(server, "bob", "admin", "pw-bob-2");
        }
        // a restart over the same data directory: the users are read back from the store
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).buildClient();
             MongoWireServer server = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store)) {
            try (MongoClient anonymous = AuthenticationTest.connect(server, null)) {
                assertEquals(13, code(() -> anonymous.getDatabase("shop").getCollection("orders").find().first()));
            }
            try (MongoClient bob = as(server, "bob", "shop", "pw-bob-2")) { // and its roles came back too
                assertEquals(13, code(() -> bob.getDatabase("shop").getCollection("orders").countDocuments()));
                bob.getDatabase("shop").runCommand(new Document("dbStats", 1));
            }
            try (MongoClient ann = as(server, "ann", "admin", "pw-ann")) {
                ann.getDatabase("shop").runCommand(new Document("dropUser", "bob"));
                assertEquals(0, ann.getDatabase("shop").runCommand(new Document("usersInfo", 1))
                        .getList("users", Document.class).size());
                assertEquals(1, ann.getDatabase("admin").runCommand(new Document("dropAllUsersFromDatabase", 1))
                        .getInteger("n"));
            }
            refusedLogin(server, "bob", "shop", "pw-bob-2");
            try (MongoClient anonymous = AuthenticationTest.connect(server, null)) {
                assertEquals(1, anonymous.getDatabase("shop").getCollection("orders").countDocuments(),
                        "without users, no authentication is needed (as before any user existed)");
                anonymous.getDatabase("admin").runCommand(new Document("createUser", "dora").append("pwd", "pw-d")
                        .append("roles", List.of("root")));
            }
            try (MongoClient dora = as(server, "dora", "admin", "pw-d")) {
                dora.getDatabase("shop").runCommand(new Document("createUser", "eve").append("pwd", "pw-e")
                        .append("roles", List.of("read")));
                try (MongoClient eve = as(server, "eve", "shop", "pw-e")) {
                    assertEquals(13, code(() -> eve.getDatabase("admin").getCollection("system.users").drop()),
                            "a reader of shop may not drop the users");
                }
                dora.getDatabase("admin").getCollection("system.users").drop(); // takes every user along
            }
            try (MongoClient anonymous = AuthenticationTest.connect(server, null)) {
                assertEquals(1, anonymous.getDatabase("shop").getCollection("orders").countDocuments());
            }
        }
    }
}

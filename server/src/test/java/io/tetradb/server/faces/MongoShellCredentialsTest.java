package io.tetradb.server.faces;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import io.tetradb.cosmos.TlsCertificate;
import io.tetradb.server.ServerConfig;
import io.tetradb.server.TetraDbServer;
import io.tetradb.testing.NodeClients;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 19's "{@code mongosh -u -p} and connection-string credentials work", with mongosh itself (npm, the pinned
 * {@code mongosh.version}): users made with {@code createUser} (MongoDB Java driver, under the localhost exception),
 * then mongosh logs in with {@code -u/-p/--authenticationDatabase}, with the credentials in the connection string,
 * and over TLS ({@code --tls --tlsCAFile} with the generated certificate); a wrong password is "Authentication
 * failed", and a {@code read} user's insert is refused with 13 Unauthorized, as mongod answers both.
 */
class MongoShellCredentialsTest {
    private static final long MONGOSH_TIMEOUT_SECONDS = 120;
    private static final String WHO = "const s = db.getSiblingDB('admin').runCommand({connectionStatus: 1});"
            + "print('USER ' + s.authInfo.authenticatedUsers.map(u => u.user + '@' + u.db).join(','))";

    @Test
    void mongoshLogsInWithUserAndPasswordAndOverTls(@TempDir Path dataDir) throws Exception {
        NodeClients.requireNodeAndNpm();
        Path dir = Path.of(System.getProperty("mongosh.dir", "target/mongosh"));
        NodeClients.install(dir, "mongosh", System.getProperty("mongosh.version", "2.12.0"));
        ServerConfig config = ServerConfig.ephemeral(dataDir).withCosmosPort(0).withMongoPort(0);
        try (TetraDbServer server = new TetraDbServer(config).start()) {
            String url = server.endpoint("mongo").url();
            try (MongoClient first = MongoClients.create(url)) { // MongoDB's localhost exception: the first user
                first.getDatabase("admin").runCommand(new Document("createUser", "ops").append("pwd", "ops-secret")
                        .append("roles", List.of("root")));
            }
            try (MongoClient ops = MongoClients.create(url.replace("mongodb://", "mongodb://ops:ops-secret@")
                    + "/?authSource=admin")) {
                ops.getDatabase("shop").runCommand(new Document("createUser", "reader").append("pwd", "r-secret")
                        .append("roles", List.of("read")));
            }

            assertEquals("USER ops@admin", who(dir, url, "-u", "ops", "-p", "ops-secret",
                    "--authenticationDatabase", "admin"));
            assertEquals("USER ops@admin", who(dir, url.replace("mongodb://", "mongodb://ops:ops-secret@")
                    + "/?authSource=admin"));
            String pem = dataDir.resolve("tls").resolve(TlsCertificate.CERTIFICATE_FILE).toString();
            assertEquals("USER reader@shop", who(dir, url + "/?tls=true", "--tlsCAFile", pem, "-u", "reader",
                    "-p", "r-secret", "--authenticationDatabase", "shop"));

            AssertionError wrong = assertThrows(AssertionError.class, () -> who(dir, url, "-u", "ops", "-p", "nope",
                    "--authenticationDatabase", "admin"));
            assertTrue(wrong.getMessage().contains("Authentication failed"), wrong.getMessage());

            String denied = mongosh(dir, url + "/shop", "-u", "reader", "-p", "r-secret", "--authenticationDatabase",
                    "shop", "--quiet", "--eval", "try { db.orders.insertOne({_id: 1}); print('INSERTED') } "
                            + "catch (e) { print('CODE ' + e.code) }");
            assertTrue(denied.lines().anyMatch("CODE 13"::equals), denied);
        }
    }

    private static String who(Path dir, String url, String... options) throws Exception {
        String[] args = new String[options.length + 3];
        System.arraycopy(options, 0, args, 0, options.length);
        args[options.length] = "--quiet";
        args[options.length + 1] = "--eval";
        args[options.length + 2] = WHO;
        return mongosh(dir, url, args).lines().filter(l -> l.startsWith("USER ")).findFirst().orElse("none");
    }

    private static String mongosh(Path dir, String url, String... args) throws Exception {
        String[] command = new String[args.length + 3];
        command[0] = "node";
        command[1] = "node_modules/mongosh/bin/mongosh.js";
        command[2] = url;
        System.arraycopy(args, 0, command, 3, args.length);
        return NodeClients.run(dir, MONGOSH_TIMEOUT_SECONDS, command);
    }
}

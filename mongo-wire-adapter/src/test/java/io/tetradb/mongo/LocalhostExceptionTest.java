package io.tetradb.mongo;

import com.mongodb.MongoClientSettings;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoCredential;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * MongoDB's localhost exception on a face bound beyond loopback, through the Java driver: without users only a
 * loopback connection may create the first (admin) user, and nothing else; a connection from the machine's network
 * address gets 13 for everything but the handshake; once the last user is dropped the same holds again (the face
 * does not fall open, as it does bound to loopback).
 */
class LocalhostExceptionTest {

    private static MongoClient client(String host, int port, MongoCredential credential) {
        MongoClientSettings.Builder b = PatientDriver.settings("mongodb://" + host + ":" + port
                + "/?directConnection=true");
        if (credential != null) {
            b.credential(credential);
        }
        return MongoClients.create(b.build());
    }

    /** An address of this machine that is not loopback, so a connection to it comes from a non-loopback peer. */
    private static String networkAddress() throws SocketException {
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nic.isUp() || nic.isLoopback()) {
                continue;
            }
            for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                if (a instanceof Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress()) {
                    return a.getHostAddress();
                }
            }
        }
        return null;
    }

    private static MongoCommandException refused(Executable command) {
        return assertThrows(MongoCommandException.class, command);
    }

    private static Document createRoot(String name) {
        return new Document("createUser", name).append("pwd", "pw-" + name).append("roles", List.of("root"));
    }

    @Test
    void onlyLoopbackConnectionsMayCreateTheFirstUser(@TempDir Path dir) throws Exception {
        String lan = networkAddress();
        assumeTrue(lan != null, "this machine has no non-loopback IPv4 address to connect from");
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).buildClient();
             MongoWireServer server = MongoWireServer.start(InetAddress.getByName("0.0.0.0"), 0, store)) {
            int port = server.address().getPort();
            try (MongoClient remote = client(lan, port, null); MongoClient local = client("127.0.0.1", port, null)) {
                assertNoUserYet(remote, local);
                // the exception's only privilege: the first user, on admin, with admin's roles
                local.getDatabase("admin").runCommand(createRoot("root"));
                MongoCommandException again = refused(() -> local.getDatabase("admin").runCommand(createRoot("other")));
                assertEquals(13, again.getErrorCode(), "the first user closes the exception, for its creator too");
                assertEquals(13, refused(() -> remote.getDatabase("app").getCollection("c").find().first())
                        .getErrorCode());
            }
            MongoCredential root = MongoCredential.createScramSha256Credential("root", "admin", "pw-root".toCharArray());
            try (MongoClient admin = client(lan, port, root)) {
                admin.getDatabase("app").getCollection("c").insertOne(new Document("_id", 1));
                assertEquals(1, admin.getDatabase("app").getCollection("c").countDocuments());
                admin.getDatabase("admin").runCommand(new Document("dropUser", "root")); // the last one
            }
            try (MongoClient remote = client(lan, port, null); MongoClient local = client("127.0.0.1", port, null)) {
                assertNoUserYet(remote, local);
                local.getDatabase("admin").runCommand(createRoot("root2"));
            }
            MongoCredential root2 = MongoCredential.createScramSha256Credential("root2", "admin",
                    "pw-root2".toCharArray());
            try (MongoClient admin = client(lan, port, root2)) {
                assertEquals(1, admin.getDatabase("app").getCollection("c").countDocuments(), "data kept throughout");
            }
        }
    }

    /** No user: the network connection may do nothing, the loopback one nothing but create the first admin user. */
    private static void assertNoUserYet(MongoClient remote, MongoClient local) {
        assertEquals(1.0, remote.getDatabase("admin").runCommand(new Document("ping", 1)).get("ok", Number.class)
                .doubleValue(), "the handshake and ping stay open");
        MongoCommandException find = refused(() -> remote.getDatabase("app").getCollection("c").find().first());
        assertEquals(13, find.getErrorCode());
        assertTrue(find.getErrorMessage().contains("requires authentication"), find.getErrorMessage());
        assertEquals(13, refused(() -> remote.getDatabase("admin").runCommand(createRoot("intruder"))).getErrorCode(),
                "only a loopback connection may create the first user");
        assertEquals(13, refused(() -> remote.getDatabase("admin").runCommand(new Document("listDatabases", 1)))
                .getErrorCode());

        MongoCommandException localFind = refused(() -> local.getDatabase("app").getCollection("c").find().first());
        assertEquals(13, localFind.getErrorCode());
        assertTrue(localFind.getErrorMessage().startsWith("not authorized on app to execute command { find:"),
                localFind.getErrorMessage());
        assertEquals(13, refused(() -> local.getDatabase("app").getCollection("c").insertOne(new Document("_id", 2)))
                .getErrorCode(), "as mongod since SERVER-12621: the exception does not write data");
        assertEquals(13, refused(() -> local.getDatabase("app").runCommand(createRoot("appuser"))).getErrorCode(),
                "users of other databases: not through the exception");
        MongoCommandException otherRole = refused(() -> local.getDatabase("admin").runCommand(
                new Document("createUser", "x").append("pwd", "x")
                        .append("roles", List.of(new Document("role", "readWrite").append("db", "app")))));
        assertEquals(13, otherRole.getErrorCode());
        assertEquals("Not authorized to grant role: readWrite@app", otherRole.getErrorMessage());
        assertEquals(13, refused(() -> local.getDatabase("admin").runCommand(new Document("listDatabases", 1)))
                .getErrorCode());
    }
}

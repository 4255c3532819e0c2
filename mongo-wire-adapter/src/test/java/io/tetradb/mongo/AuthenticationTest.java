package io.tetradb.mongo;

import com.mongodb.MongoClientSettings;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoCredential;
import com.mongodb.MongoSecurityException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.mongo.auth.MongoUsers;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** SCRAM-SHA-256 through the Java driver (which authenticates speculatively in its handshake). */
class AuthenticationTest {

    static MongoClient connect(MongoWireServer server, MongoCredential credential) {
        MongoClientSettings.Builder b = PatientDriver.settings(PatientDriver.uri(server, ""));
        if (credential != null) {
            b.credential(credential);
        }
        return MongoClients.create(b.build());
    }

    @Test
    void usersMustAuthenticateWithScramSha256(@TempDir Path dir) {
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).buildClient();
             MongoWireServer server = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store,
                     MongoUsers.of(Map.of("ann", "s3cret p\u00e4ss")))) {
            try (MongoClient ann = connect(server, MongoCredential.createScramSha256Credential("ann", "admin",
                    "s3cret p\u00e4ss".toCharArray()))) {
                ann.getDatabase("auth").getCollection("c").insertOne(new Document("_id", 1));
                assertEquals(1, ann.getDatabase("auth").getCollection("c").countDocuments());
                Document status = ann.getDatabase("admin").runCommand(new Document("connectionStatus", 1));
                assertEquals("ann", status.get("authInfo", Document.class)
                        .getList("authenticatedUsers", Document.class).get(0).getString("user"));
            }
            try (MongoClient defaultMechanism = connect(server, MongoCredential.createCredential("ann", "admin",
                    "s3cret p\u00e4ss".toCharArray()))) {
                assertEquals(List.of("auth"), defaultMechanism.listDatabaseNames().into(new java.util.ArrayList<>()),
                        "the driver negotiates SCRAM-SHA-256 through saslSupportedMechs");
            }
            try (MongoClient wrong = connect(server, MongoCredential.createScramSha256Credential("ann", "admin",
                    "nope".toCharArray()))) {
                Exception e = assertThrows(Exception.class, () -> wrong.listDatabaseNames().first());
                assertEquals(MongoSecurityException.class, rootSecurity(e).getClass(), e.toString());
            }
            try (MongoClient stranger = connect(server, MongoCredential.createScramSha256Credential("bob", "admin",
                    "s3cret p\u00e4ss".toCharArray()))) {
                Exception e = assertThrows(Exception.class, () -> stranger.listDatabaseNames().first());
                assertEquals(MongoSecurityException.class, rootSecurity(e).getClass(), e.toString());
            }
            try (MongoClient anonymous = connect(server, null)) {
                assertEquals(1.0, ((Number) anonymous.getDatabase("admin").runCommand(new Document("ping", 1))
                        .get("ok")).doubleValue(), "ping needs no authentication");
                MongoCommandException e = assertThrows(MongoCommandException.class,
                        () -> anonymous.getDatabase("auth").getCollection("c").find().first());
                assertEquals(13, e.getErrorCode());
            }
        }
    }

    private static Throwable rootSecurity(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof MongoSecurityException) {
                return t;
            }
        }
        return e;
    }
}

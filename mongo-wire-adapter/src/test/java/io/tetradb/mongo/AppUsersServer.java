package io.tetradb.mongo;

import com.mongodb.MongoCredential;
import com.mongodb.client.MongoClient;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import org.bson.Document;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The session tests' server: a fresh store and Mongo server on loopback with the users {@code root} (root, on admin),
 * {@code ann} and {@code bob} (readWrite on app), all with the password {@code pw}, and {@code app.c} holding
 * {@code _id} 0 to 9.
 */
final class AppUsersServer implements AutoCloseable {
    private final CosmosClient store;
    private final MongoWireServer server;

    private AppUsersServer(CosmosClient store, MongoWireServer server) {
        this.store = store;
        this.server = server;
    }

    static AppUsersServer start(Path dir) {
        CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).buildClient();
        AppUsersServer app = new AppUsersServer(store,
                MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store));
        try {
            try (MongoClient anonymous = AuthenticationTest.connect(app.server, null)) { // the localhost exception
                anonymous.getDatabase("admin").runCommand(new Document("createUser", "root").append("pwd", "pw")
                        .append("roles", List.of("root")));
            }
            try (MongoClient root = app.connect("root", "admin")) {
                for (String user : List.of("ann", "bob")) {
                    root.getDatabase("app").runCommand(new Document("createUser", user).append("pwd", "pw")
                            .append("roles", List.of("readWrite")));
                }
                root.getDatabase("app").getCollection("c").insertMany(IntStream.range(0, 10)
                        .mapToObj(i -> new Document("_id", i)).toList());
            }
            return app;
        } catch (RuntimeException e) {
            app.close();
            throw e;
        }
    }

    /** A client authenticated as {@code user} (SCRAM-SHA-256, password {@code pw}) against {@code db}. */
    MongoClient connect(String user, String db) {
        return AuthenticationTest.connect(server, MongoCredential.createScramSha256Credential(user, db,
                "pw".toCharArray()));
    }

    @Override
    public void close() {
        server.close();
        store.close();
    }
}

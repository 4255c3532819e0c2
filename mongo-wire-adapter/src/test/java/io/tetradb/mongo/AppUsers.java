package io.tetradb.mongo;

import com.mongodb.MongoCredential;
import com.mongodb.client.MongoClient;
import org.bson.Document;

import java.util.List;
import java.util.stream.IntStream;

/**
 * The session tests' users on a fresh server: {@code root} (root, on admin), {@code ann} and {@code bob} (readWrite
 * on app), all with the password {@code pw}; and {@code app.c} holding {@code _id} 0 to 9.
 */
final class AppUsers {
    private AppUsers() {
    }

    /** Creates the users (root through the localhost exception) and the collection. */
    static void create(MongoWireServer server) {
        try (MongoClient anonymous = AuthenticationTest.connect(server, null)) {
            anonymous.getDatabase("admin").runCommand(new Document("createUser", "root").append("pwd", "pw")
                    .append("roles", List.of("root")));
        }
        try (MongoClient root = connect(server, "root", "admin")) {
            for (String user : List.of("ann", "bob")) {
                root.getDatabase("app").runCommand(new Document("createUser", user).append("pwd", "pw")
                        .append("roles", List.of("readWrite")));
            }
            root.getDatabase("app").getCollection("c").insertMany(IntStream.range(0, 10)
                    .mapToObj(i -> new Document("_id", i)).toList());
        }
    }

    /** A client authenticated as {@code user} (SCRAM-SHA-256, password {@code pw}) against {@code db}. */
    static MongoClient connect(MongoWireServer server, String user, String db) {
        return AuthenticationTest.connect(server, MongoCredential.createScramSha256Credential(user, db,
                "pw".toCharArray()));
    }
}

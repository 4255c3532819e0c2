package io.tetradb.mongo;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import io.tetradb.core.net.ConnectionLimits;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.mongo.auth.MongoUsers;
import io.tetradb.mongo.command.CursorLimits;
import org.bson.BsonString;
import org.bson.Document;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * A Mongo wire server measuring time on a clock the test moves, whose checkpoint hook (called at every interrupt
 * check of a command, the core's polls included) hands the test each check of a command with a string
 * {@code comment}, and the MongoDB Java driver connected to it with collection {@code app.c} holding the given
 * documents: the setup of the tests that stop commands by deadline or kill without timers ({@code MaxTimeMSTest},
 * {@code StopInsideOneCoreCallTest}).
 */
final class ClockedMongoServer implements AutoCloseable {
    final MongoClient client;
    final MongoDatabase db;
    final MongoCollection<Document> c;
    private final CosmosClient store;
    private final MongoWireServer server;

    /** {@code onCheck} gets the comment of the command at each of its checks (on the command's thread). */
    ClockedMongoServer(Path dir, CursorLifetimeTest.ManualClock clock, Consumer<String> onCheck, List<Document> docs) {
        store = new CosmosClientBuilder().dataDirectory(dir).buildClient();
        server = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store, MongoUsers.none(),
                ConnectionLimits.defaults(), null, CursorLimits.defaults().withClock(clock));
        server.checkpointHook(cmd -> {
            if (cmd.get("comment") instanceof BsonString s) {
                onCheck.accept(s.getValue());
            }
        });
        client = AuthenticationTest.connect(server, null);
        db = client.getDatabase("app");
        c = db.getCollection("c");
        c.insertMany(docs);
    }

    @Override
    public void close() {
        server.checkpointHook(null);
        client.close();
        server.close();
        store.close();
    }
}

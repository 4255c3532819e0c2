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
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A Mongo wire server measuring time on a clock the test moves — its checkpoint hook (called at every interrupt check
 * of a command, the core's polls included) moves the clock {@link #slowStep} ms at each check of a command whose
 * comment is "slow" and hands the test the checks of commands with other string comments — and the MongoDB Java
 * driver connected to it with collection {@code app.c} holding the given documents: the setup of the tests that stop
 * commands by deadline or kill without timers ({@code MaxTimeMSTest}, {@code StopInsideOneCoreCallTest}).
 */
final class ClockedMongoServer implements AutoCloseable {
    final CursorLifetimeTest.ManualClock clock = new CursorLifetimeTest.ManualClock();
    /** How far each check of a "slow" command moves the clock, in ms. */
    final AtomicLong slowStep;
    /** The checks of "slow" commands so far. */
    final AtomicInteger slowChecks = new AtomicInteger();
    final MongoClient client;
    final MongoDatabase db;
    final MongoCollection<Document> c;
    private final CosmosClient store;
    private final MongoWireServer server;

    /** {@code onOtherCheck} gets the comment at each check of a command with another comment (on its thread). */
    ClockedMongoServer(Path dir, long slowStepMillis, Consumer<String> onOtherCheck, List<Document> docs) {
        slowStep = new AtomicLong(slowStepMillis);
        store = new CosmosClientBuilder().dataDirectory(dir).buildClient();
        server = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store, MongoUsers.none(),
                ConnectionLimits.defaults(), null, CursorLimits.defaults().withClock(clock));
        server.checkpointHook(cmd -> {
            if (!(cmd.get("comment") instanceof BsonString s)) {
                return;
            }
            if (s.getValue().equals("slow")) {
                slowChecks.incrementAndGet();
                clock.advance(Duration.ofMillis(slowStep.get()));
            } else {
                onOtherCheck.accept(s.getValue());
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

package io.tetradb.server.fuzz;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.CreateCollectionOptions;
import com.mongodb.client.model.ValidationAction;
import com.mongodb.client.model.ValidationOptions;
import io.tetradb.testing.TestTime;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A client can make the Mongo face log: a collection whose validator only warns logs every invalid document it
 * takes. With the server's stderr unread (a stalled log shipper, a paused terminal), those lines filled the 64 KB pipe
 * and the command thread that logged blocked in {@code write(2)}: the insert never returned. Now the server logs
 * through Logback's async appender, which never blocks ({@code logging.CountedAsyncAppender}: one worker writes
 * stderr, a full queue drops and counts), with repeats of a pattern limited ({@code logging.RepeatedLineFilter}):
 * 2,000 invalid inserts with 200-character ids (≈ 0.5 MB of warnings before) all return.
 */
class MongoUnreadStderrTest {
    private static final int INSERTS = 2_000;
    /** How long an insert's answer is waited for: only a hung server takes that long. */
    private static final Duration ANSWER = TestTime.patience(Duration.ofSeconds(120));

    @Test
    void validatorWarningsDoNotBlockCommandsWhenStderrIsFull(@TempDir Path tmp) throws Exception {
        Path data = Files.createDirectories(tmp.resolve("data"));
        try (ServerProcess server = ServerProcess.start(data, "1g", false)) {
            MongoClientSettings settings = MongoClientSettings.builder()
                    .applyConnectionString(new ConnectionString("mongodb://127.0.0.1:" + server.port("mongo")))
                    // the driver's defaults but two, which this test needs: a read timeout (the default waits
                    // forever, and a blocked command thread never answers: fail instead, only once hung), and no
                    // retried writes (a retry after that timeout would send the insert again and hide the hang)
                    .applyToSocketSettings(s -> s.readTimeout(ANSWER.toMillis(), TimeUnit.MILLISECONDS))
                    .retryWrites(false).build();
            try (MongoClient client = MongoClients.create(settings)) {
                client.getDatabase("logs").createCollection("warned", new CreateCollectionOptions()
                        .validationOptions(new ValidationOptions().validator(new Document("$jsonSchema",
                                new Document("required", java.util.List.of("must"))))
                                .validationAction(ValidationAction.WARN)));
                MongoCollection<Document> warned = client.getDatabase("logs").getCollection("warned");
                String pad = "x".repeat(200); // _id: at most 255 characters
                long start = System.nanoTime();
                for (int i = 0; i < INSERTS; i++) {
                    try {
                        warned.insertOne(new Document("_id", pad + i).append("v", i)); // invalid: no "must"
                    } catch (com.mongodb.MongoSocketReadTimeoutException e) {
                        throw new AssertionError("invalid insert " + i + " of " + INSERTS + " got no answer in " + ANSWER, e);
                    }
                }
                System.out.printf("MONGO-UNREAD-STDERR %d warned inserts in %d ms%n", INSERTS,
                        (System.nanoTime() - start) / 1_000_000);
                assertEquals(INSERTS, warned.countDocuments(), "every invalid document was taken (the action warns)");
                assertEquals(1, client.getDatabase("admin").runCommand(new Document("ping", 1))
                        .get("ok", Number.class).intValue());
            }
        }
    }
}

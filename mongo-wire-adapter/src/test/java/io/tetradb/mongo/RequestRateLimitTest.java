package io.tetradb.mongo;

import com.mongodb.MongoClientSettings;
import com.mongodb.MongoCommandException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import io.tetradb.core.net.ConnectionLimits;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.mongo.auth.MongoUsers;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --max-requests-per-second} through the MongoDB Java driver, on a clock the test moves: past the rate, a
 * command gets mongod's ingress rate-limit error (462 IngressRequestRateLimitExceeded, label SystemOverloadedError)
 * and is not run; once the clock has moved a second the same connection is served again.
 */
class RequestRateLimitTest {
    private static final int RATE = 20;
    @TempDir
    static Path dataDir;
    static CosmosClient store;
    static MongoWireServer server;
    static final AtomicLong clock = new AtomicLong(1_000_000_000L);

    @BeforeAll
    static void start() {
        store = new CosmosClientBuilder().dataDirectory(dataDir).buildClient();
        server = MongoWireServer.start(InetAddress.getLoopbackAddress(), 0, store, MongoUsers.none(),
                ConnectionLimits.defaults().withMaxRequestsPerSecond(RATE).withClock(clock::get));
    }

    @AfterAll
    static void stop() {
        server.close();
        store.close();
    }

    @Test
    void aConnectionOverTheRateIsRefusedWith462AndServedAgainOnceTheSecondHasPassed() {
        MongoClientSettings settings = PatientDriver.settings(PatientDriver.uri(server,
                        "/?retryReads=false&retryWrites=false"))
                .applyToConnectionPoolSettings(p -> p.maxSize(1))
                .applyToSocketSettings(s -> s.readTimeout(PatientDriver.WAIT_MILLIS, TimeUnit.MILLISECONDS))
                .build();
        try (MongoClient client = MongoClients.create(settings)) {
            MongoDatabase db = client.getDatabase("rate");
            MongoCommandException refused = null;
            int inserted = 0;
            for (int i = 0; i < 2 * RATE && refused == null; i++) {
                try {
                    db.getCollection("c").insertOne(new Document("_id", i));
                    inserted++;
                } catch (MongoCommandException e) {
                    refused = e;
                }
            }
            assertNotNull(refused, "more than " + RATE + " requests in one second were all served");
            assertEquals(462, refused.getErrorCode());
            assertEquals("IngressRequestRateLimitExceeded", refused.getErrorCodeName());
            assertTrue(refused.hasErrorLabel("SystemOverloadedError"), refused.getMessage());
            assertTrue(inserted > 0 && inserted < RATE, "the handshake counts too: " + inserted);
            assertTrue(server.connectionGuard().rateRefused() >= 1);

            clock.addAndGet(999_000_000L); // still inside the second: still refused
            MongoCommandException again = null;
            try {
                db.getCollection("c").insertOne(new Document("_id", "late"));
            } catch (MongoCommandException e) {
                again = e;
            }
            assertNotNull(again, "refused until the second is over");
            assertEquals(462, again.getErrorCode());

            clock.addAndGet(1_000_000L); // the second is over: served again, on the same connection
            db.getCollection("c").insertOne(new Document("_id", "after"));
            assertEquals(inserted + 1, db.getCollection("c").countDocuments(), "refused inserts were not run");
        }
    }

    @Test
    void unlimitedByDefault() {
        assertEquals(0, ConnectionLimits.defaults().maxRequestsPerSecond());
    }
}

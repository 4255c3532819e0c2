package io.tetradb.mongo;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import io.tetradb.testing.TestTime;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The MongoDB Java driver's settings for tests that wait for the server, not time it: server selection and the
 * connect/hello wait are {@link TestTime#patience}, since a loaded machine can take many seconds to accept a
 * connection and answer the first hello. A test that asserts a timeout sets its own short one on top.
 */
final class PatientDriver {
    /** The driver's waits, in ms: only a hung server reaches them. */
    static final long WAIT_MILLIS = TestTime.patience(Duration.ofSeconds(10)).toMillis();

    private PatientDriver() {
    }

    /** Settings for {@code connectionString} with patient server selection, connection and handshake. */
    static MongoClientSettings.Builder settings(String connectionString) {
        return MongoClientSettings.builder()
                .applyConnectionString(new ConnectionString(connectionString))
                .applyToClusterSettings(b -> b.serverSelectionTimeout(WAIT_MILLIS, TimeUnit.MILLISECONDS))
                .applyToSocketSettings(b -> b.connectTimeout((int) WAIT_MILLIS, TimeUnit.MILLISECONDS));
    }

    /** The connection string of {@code server} on loopback, with {@code options} ("" or "/?…"). */
    static String uri(MongoWireServer server, String options) {
        return "mongodb://127.0.0.1:" + server.address().getPort() + options;
    }

    /** A client of {@code server} with {@link #settings}. */
    static MongoClient client(MongoWireServer server) {
        return MongoClients.create(settings(uri(server, "")).build());
    }
}

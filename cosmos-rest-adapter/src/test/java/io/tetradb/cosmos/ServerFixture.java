package io.tetradb.cosmos;

import com.azure.cosmos.ConsistencyLevel;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import io.tetradb.core.storage.Durability;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A CosmosHttpServer on a free port over a fresh core store, and the real azure-cosmos Java SDK pointed at it in
 * gateway mode over plain HTTP (the emulator settings: well-known key, {@code COSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ServerFixture {
    static {
        // read once when the SDK's gateway model class loads: before any client is built
        System.setProperty("COSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED", "true");
        // the emulator's TLS setting: trust the self-signed certificate of localhost
        System.setProperty("COSMOS.EMULATOR_SERVER_CERTIFICATE_VALIDATION_DISABLED", "true");
    }

    static final String KEY = CosmosRestOptions.EMULATOR_KEY;
    Path dir;
    io.tetradb.document.CosmosClient core;
    CosmosHttpServer server;
    CosmosClient sdk;

    CosmosRestOptions options() {
        return CosmosRestOptions.defaults();
    }

    @BeforeAll
    void startServer() throws Exception {
        dir = Files.createTempDirectory("cosmos-rest");
        startOn(dir);
    }

    /** The store's clock (a test of expiry gives a ManualClock). */
    java.time.Clock clock() {
        return java.time.Clock.systemUTC();
    }

    void startOn(Path data) {
        // scripts' time bounds on a clock that counts their work (1 ms a reading), not the machine's load: a short
        // script stays far from Cosmos's 5 s however slow the machine, a runaway one still ends with 408
        core = new io.tetradb.document.CosmosClientBuilder().dataDirectory(data).durability(Durability.ASYNC)
                .clock(clock()).scriptLimits(io.tetradb.core.script.ScriptLimits.DEFAULTS
                        .withClock(new io.tetradb.testing.TickingScriptClock(java.time.Duration.ofMillis(1))))
                .buildClient();
        server = CosmosHttpServer.start(InetAddress.getLoopbackAddress(), 0, core, options());
        sdk = client(KEY);
    }

    void stopServer() {
        if (sdk != null) {
            sdk.close();
        }
        server.close();
        core.close();
    }

    String endpoint() {
        return "http://localhost:" + server.address().getPort();
    }

    CosmosClient client(String key) {
        return new CosmosClientBuilder().endpoint(endpoint()).key(key).gatewayMode()
                .consistencyLevel(ConsistencyLevel.SESSION).buildClient();
    }

    static String unique(String prefix) {
        return prefix + UUID.randomUUID().toString().substring(0, 8);
    }

    @AfterAll
    void cleanUp() throws Exception {
        stopServer();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}

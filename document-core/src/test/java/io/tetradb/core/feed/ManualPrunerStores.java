package io.tetradb.core.feed;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosContainerProperties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The pruner tests' stores: containers in fresh directories, pruned only by the passes a test asks for. */
abstract class ManualPrunerStores {
    static final ObjectMapper M = new ObjectMapper();
    @TempDir
    Path dir;
    final List<CosmosClient> clients = new ArrayList<>();

    @BeforeEach
    void noBackgroundPasses() {
        System.setProperty("tetradb.feed.pruneIntervalMillis", "0"); // passes only when the test asks
    }

    @AfterEach
    void close() {
        clients.forEach(CosmosClient::close);
        System.clearProperty("tetradb.feed.pruneIntervalMillis");
        System.clearProperty("tetradb.feed.prunerTrackedItems");
        System.clearProperty("tetradb.feed.prunerNotes");
    }

    CosmosContainer open(String name, Duration retention) {
        CosmosClient client = new CosmosClientBuilder().dataDirectory(dir.resolve(name)).buildClient();
        clients.add(client);
        client.createDatabaseIfNotExists("db");
        CosmosContainerProperties properties = new CosmosContainerProperties("c", "/pk");
        if (retention != null) {
            properties.setChangeFeedPolicy(
                    io.tetradb.document.ChangeFeedPolicy.createAllVersionsAndDeletesPolicy(retention));
        }
        client.getDatabase("db").createContainerIfNotExists(properties);
        return client.getDatabase("db").getContainer("c");
    }
}

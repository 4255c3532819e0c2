package io.tetradb.core.feed;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.core.store.CoreStore;
import io.tetradb.core.store.StoreConfig;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosContainerProperties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The pruner tests' stores: containers (or whole core stores) in fresh directories, pruned only by the passes a test
 * asks for; the feed switches a test sets are cleared after it.
 */
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
        System.clearProperty("tetradb.feed.versionImages");
        System.clearProperty("tetradb.itemReads");
    }

    /** A core store (no document API) in directory {@code name} on {@code clock}; the test closes it (and reopens). */
    CoreStore openCore(String name, Clock clock) {
        return CoreStore.open(StoreConfig.defaults(dir.resolve(name)).withClock(clock));
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

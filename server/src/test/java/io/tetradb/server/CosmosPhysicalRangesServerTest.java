package io.tetradb.server;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.ThroughputProperties;
import io.tetradb.cosmos.CosmosRestOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code --cosmos-physical-ranges} ({@link TetraDbServer#withPhysicalPartitionRanges}): azure-cosmos 4.81.0 sees a
 * 30,000 RU/s container's three physical partitions as three feed ranges (on, the default); off: one.
 */
class CosmosPhysicalRangesServerTest {
    static {
        System.setProperty("COSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED", "true");
    }

    static int feedRanges(TetraDbServer server) {
        try (CosmosClient sdk = new CosmosClientBuilder()
                .endpoint("http://" + Endpoint.hostPort(server.endpoint("cosmos").address()))
                .key(CosmosRestOptions.EMULATOR_KEY).gatewayMode().buildClient()) {
            sdk.createDatabaseIfNotExists("ranges");
            sdk.getDatabase("ranges").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"),
                    ThroughputProperties.createManualThroughput(30_000));
            CosmosContainer c = sdk.getDatabase("ranges").getContainer("c");
            return c.getFeedRanges().size();
        }
    }

    @Test
    void theOptionShowsPhysicalPartitionsAsRanges(@TempDir Path dir) {
        try (TetraDbServer server = new TetraDbServer(ServerConfig.ephemeral(dir.resolve("on")).withCosmosPort(0))
                .start()) {
            assertEquals(3, feedRanges(server));
        }
        try (TetraDbServer server = new TetraDbServer(ServerConfig.ephemeral(dir.resolve("off")).withCosmosPort(0))
                .withPhysicalPartitionRanges(false).start()) {
            assertEquals(1, feedRanges(server));
        }
    }
}

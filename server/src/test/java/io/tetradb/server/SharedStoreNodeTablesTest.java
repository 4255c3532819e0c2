package io.tetradb.server;

import io.tetradb.testing.SharedEmbeddedStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/**
 * The npm Tables SDK against two servers on one shared store without a cluster (an embedded directory presented as
 * shared, served as on Cassandra: {@link TetraDbServer#onSharedStores}); the same checks run on the 3-node cluster in
 * {@code CassandraFacesClusterTest}.
 */
class SharedStoreNodeTablesTest {
    @Test
    void nodeTablesSdkAcrossTwoServersOnOneSharedStore(@TempDir Path dir) throws Exception {
        try (SharedEmbeddedStore shared = new SharedEmbeddedStore(dir.resolve("shared"))) {
            try (TetraDbServer a = server(dir.resolve("a"), shared); TetraDbServer b = server(dir.resolve("b"), shared)) {
                NodeTablesTwoServers.check(a, b);
            }
        }
    }

    private static TetraDbServer server(Path dir, SharedEmbeddedStore shared) {
        return new TetraDbServer(ServerConfig.ephemeral(dir).withTablePort(0))
                .onSharedStores(shared.metadata(), shared.partitions()).start();
    }
}

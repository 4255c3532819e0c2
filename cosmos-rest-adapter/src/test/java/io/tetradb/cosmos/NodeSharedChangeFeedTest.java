package io.tetradb.cosmos;

import io.tetradb.core.storage.Durability;
import io.tetradb.testing.SharedEmbeddedStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code @azure/cosmos} 4.10.1's {@code getChangeFeedIterator} against two servers on one shared store (an embedded
 * directory presented as shared, as a Cassandra keyspace is to several servers): a continuation taken on one server
 * is resumed on the other after that one restarted (every item changed since once, at its last version, each logical
 * partition in {@code _lsn} order; nothing after the end), a "from now" token taken on one before its restart reads
 * exactly the later changes on the other, and the all-versions-and-deletes mode resumes a token across both
 * ({@code cosmos-changefeed-two-servers.mjs}).
 */
class NodeSharedChangeFeedTest {
    @TempDir
    Path dir;

    /** One TetraDB server: its own data directory, the shared stores, the REST face on a free port. */
    private record Server(io.tetradb.document.CosmosClient core, CosmosHttpServer http) implements AutoCloseable {
        static Server start(Path dir, SharedEmbeddedStore shared) {
            io.tetradb.document.CosmosClient core = new io.tetradb.document.CosmosClientBuilder().dataDirectory(dir)
                    .durability(Durability.ASYNC).storage(shared.metadata(), shared.partitions()).buildClient();
            return new Server(core, CosmosHttpServer.start(InetAddress.getLoopbackAddress(), 0, core,
                    CosmosRestOptions.defaults()));
        }

        String endpoint() {
            return "http://localhost:" + http.address().getPort();
        }

        public void close() {
            http.close();
            core.close();
        }
    }

    @Test
    void aContinuationTakenOnOneServerResumesOnTheOtherAfterARestart() throws Exception {
        try (SharedEmbeddedStore shared = new SharedEmbeddedStore(dir.resolve("shared"))) {
            Server a = Server.start(dir.resolve("a"), shared);
            Server b = Server.start(dir.resolve("b"), shared);
            try {
                String first = NodeSdkTest.runScript("cosmos-changefeed-two-servers.mjs", Map.of(), "first",
                        a.endpoint(), b.endpoint(), CosmosRestOptions.EMULATOR_KEY);
                String state = first.strip().lines().reduce((x, y) -> y).orElseThrow();
                b.close();
                b = Server.start(dir.resolve("b"), shared);
                String second = NodeSdkTest.runScript("cosmos-changefeed-two-servers.mjs", Map.of(), "second",
                        a.endpoint(), b.endpoint(), CosmosRestOptions.EMULATOR_KEY, state);
                assertTrue(second.contains("OK node change feed across two servers"), first + second);
            } finally {
                a.close();
                b.close();
            }
        }
    }
}

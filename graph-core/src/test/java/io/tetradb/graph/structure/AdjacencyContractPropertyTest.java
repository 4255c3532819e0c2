package io.tetradb.graph.structure;

import io.tetradb.core.storage.Durability;
import io.tetradb.core.storage.RocksEngine;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.meta.EmbeddedMetadataStore;
import io.tetradb.core.storage.partition.EmbeddedPartitionStore;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link AdjacencyPropertyTest}'s random graphs with the adjacency entries written and read through the storage
 * contracts (issue 20), no cluster needed: once with metadata and items in another engine's stores, as a server on
 * {@code --storage cassandra} has them (the local data directory must then hold no entry: every hop, count and check
 * went through the contracts), and once with {@code -Dtetradb.itemReads=contract} over the embedded engine.
 */
class AdjacencyContractPropertyTest {
    @TempDir
    Path dir;

    @Test
    void randomGraphsTraverseAlikeWithMetadataAndItemsOnTheContracts() {
        long seed = new Random().nextLong();
        try (RocksEngine shared = RocksEngine.open(dir.resolve("shared"), Durability.SYNC, 8 << 20)) {
            try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir.resolve("local"))
                    .storage(new EmbeddedMetadataStore(shared), new EmbeddedPartitionStore(shared)).buildClient()) {
                assertTrue(client.coreStore().onSharedEngine());
                AdjacencyPropertyTest.randomRounds(client, seed);
            }
            assertTrue(entries(shared) > 0, "the entries are in the item store's engine");
        }
        try (RocksEngine local = RocksEngine.open(dir.resolve("local"), Durability.SYNC, 8 << 20)) {
            assertEquals(0, entries(local), "no adjacency entry in the local data directory");
        }
    }

    @Test
    void randomGraphsTraverseAlikeWithItemReadsThroughTheContract() {
        long seed = new Random().nextLong();
        System.setProperty("tetradb.itemReads", "contract");
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir.resolve("contract")).buildClient()) {
            System.clearProperty("tetradb.itemReads");
            AdjacencyPropertyTest.randomRounds(client, seed);
        } finally {
            System.clearProperty("tetradb.itemReads");
        }
    }

    private static long entries(io.tetradb.core.storage.StorageEngine engine) {
        long[] n = {0};
        engine.scan(Space.ADJACENCY, new byte[0], null, kv -> {
            n[0]++;
            return true;
        });
        return n[0];
    }
}

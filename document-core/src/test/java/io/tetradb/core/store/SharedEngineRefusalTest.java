package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.storage.Durability;
import io.tetradb.core.storage.RocksEngine;
import io.tetradb.core.storage.SharedEngineRefusal;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.meta.EmbeddedMetadataStore;
import io.tetradb.core.storage.partition.EmbeddedPartitionStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A core whose metadata and items are on another engine (what {@code --storage cassandra} gives; here a second
 * embedded engine): the paths that still need the local engine are refused with 400 naming the option before anything
 * is written, their background jobs are off, and items written land on the shared engine, not the local one.
 */
class SharedEngineRefusalTest {
    @TempDir
    Path dir;
    private RocksEngine shared;
    private CoreStore store;
    private final ObjectMapper json = new ObjectMapper();

    @BeforeEach
    void open() {
        shared = RocksEngine.open(dir.resolve("shared"), Durability.SYNC, 8 << 20);
        store = CoreStore.open(StoreConfig.defaults(dir.resolve("local")).withSplitThresholdBytes(4096),
                new EmbeddedMetadataStore(shared), new EmbeddedPartitionStore(shared));
        store.createDatabase("db", null);
    }

    @AfterEach
    void close() {
        store.close();
        shared.close();
    }

    private static void assertRefused(String what, org.junit.jupiter.api.function.Executable call) {
        StoreException e = assertThrows(SharedEngineRefusal.class, call);
        assertEquals(400, e.status());
        assertTrue(e.getMessage().contains("--storage cassandra"), e.getMessage());
        assertTrue(e.getMessage().contains(what), e.getMessage());
    }

    @Test
    void localEnginePathsAreRefusedAndNothingChanges() throws Exception {
        assertTrue(store.onSharedEngine());
        // served through the contracts since issue 20's TTL and adjacency paths: a TTL container, graph adjacency
        assertEquals(60, store.createContainer("db", "ttl", PartitionKeyDefinition.of("/pk"), null, 60, null, null)
                .definition().defaultTimeToLive());
        ContainerStore c = store.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, null, null);
        // a default TTL change is served: the rule in the metadata, its entries converted (SharedTtlChangeContract)
        assertEquals(-1, store.replaceContainer("db", "c", null, null, -1).defaultTimeToLive());
        store.replaceContainer("db", "c", null, null, null);
        // an indexing-policy replace is served through the contracts (PartitionIndexRebuild, SharedIndexRebuildContract)
        assertNull(store.container("db", "c").definition().defaultTimeToLive());
        // a face-defined (Mongo) unique index is served through owner records (SharedUniqueIndexContract)
        // a date-field expiry (a Mongo TTL index) is served: the field in the metadata (SharedTtlChangeContract)
        c.setDateFieldExpiry("at_1", List.of("at"), 60L);
        assertTrue(c.expiryRule().active());
        c.setDateFieldExpiry("at_1", List.of(), null);
        assertFalse(c.expiryRule().active());
        assertNotNull(c.enableGraphAdjacency());
        assertTrue(store.ttlPurger().isRunning(), "the TTL purger runs through the contracts");
    }

    @Test
    void itemsLandOnTheSharedEngineAndPartitionsDoNotSplit() throws Exception {
        ContainerStore c = store.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, null, null);
        for (int i = 0; i < 200; i++) { // far past the 4 KB split threshold
            ObjectNode item = json.createObjectNode().put("id", "i" + i).put("pk", "p" + (i % 20))
                    .put("pad", "x".repeat(200));
            c.execute(PartitionKeyValue.of(json.getNodeFactory().textNode("p" + (i % 20))), ItemOperation.create(item));
        }
        store.awaitSplits();
        assertEquals(1, c.partitionMap().partitions().size(), "no split on a shared engine");
        AtomicInteger local = new AtomicInteger();
        store.engine().scan(Space.DOCS, new byte[0], new byte[]{(byte) 0xFF}, kv -> {
            local.incrementAndGet();
            return true;
        });
        assertEquals(0, local.get(), "no item in the local engine");
        AtomicInteger onShared = new AtomicInteger();
        shared.scan(Space.DOCS, new byte[0], new byte[]{(byte) 0xFF}, kv -> {
            onShared.incrementAndGet();
            return true;
        });
        assertEquals(200, onShared.get());
    }
}

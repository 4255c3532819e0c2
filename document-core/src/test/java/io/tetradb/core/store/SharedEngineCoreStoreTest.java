package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.storage.Durability;
import io.tetradb.core.storage.RocksEngine;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.StorageEngine;
import io.tetradb.core.storage.meta.EmbeddedMetadataStore;
import io.tetradb.core.storage.partition.EmbeddedPartitionStore;
import io.tetradb.core.unique.TagsUniqueIndex;
import io.tetradb.testing.TestTime;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A core whose metadata and items are on another engine (what {@code --storage cassandra} gives; here a second
 * embedded engine): the paths a shared engine once refused (TTL containers and changes, policy replaces, face-unique
 * indexes, date-field expiries, graph adjacency) are served and leave no data in the local engine, partitions do not
 * split, and items land on the shared engine.
 */
class SharedEngineCoreStoreTest {
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
        store.uniqueIndexKinds().register("tags", TagsUniqueIndex.TAGS);
        store.catalogCheckMillis(50); // the conversions first wait two catalog checks (every server follows the rule)
        store.createDatabase("db", null);
    }

    @AfterEach
    void close() {
        store.close();
        shared.close();
    }

    private static int count(StorageEngine engine, Space space) {
        AtomicInteger n = new AtomicInteger();
        engine.scan(space, new byte[0], new byte[]{(byte) 0xFF}, kv -> {
            n.incrementAndGet();
            return true;
        });
        return n.get();
    }

    /** Waits (bounded) until the expiry entries' conversion of {@code c} has ended (its record is gone). */
    private void awaitExpiryConversion(ContainerStore c) throws InterruptedException {
        long until = System.nanoTime() + TestTime.patience(java.time.Duration.ofSeconds(60)).toNanos();
        while (store.metadata().get(SharedExpiryRebuild.recordKey(c.collId())) != null && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        assertNull(store.metadata().get(SharedExpiryRebuild.recordKey(c.collId())), "the conversion ended");
    }

    @Test
    void pathsOnceRefusedAreServedAndKeepNothingLocal() throws Exception {
        assertTrue(store.onSharedEngine());
        assertEquals(60, store.createContainer("db", "ttl", PartitionKeyDefinition.of("/pk"), null, 60, null, null)
                .definition().defaultTimeToLive());
        ContainerStore c = store.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, null, null);
        for (int i = 0; i < 20; i++) {
            ObjectNode item = TagsUniqueIndex.item("i" + i, "p" + (i % 4), "t" + i).put("a", i);
            c.execute(PartitionKeyValue.of(item.get("pk")), ItemOperation.create(item));
        }
        // a default TTL change: the rule in the metadata, its entries converted (SharedTtlChangeContract)
        assertEquals(-1, store.replaceContainer("db", "c", null, null, -1).defaultTimeToLive());
        awaitExpiryConversion(c);
        store.replaceContainer("db", "c", null, null, null);
        awaitExpiryConversion(c);
        assertNull(store.container("db", "c").definition().defaultTimeToLive());
        // an indexing-policy replace: one logical partition per conditional apply (SharedIndexRebuildContract)
        store.replaceContainer("db", "c", null, json.readTree("{\"indexingMode\":\"consistent\","
                + "\"includedPaths\":[{\"path\":\"/a/?\"}],\"excludedPaths\":[{\"path\":\"/*\"}]}"), null);
        c.awaitIndexRebuild();
        assertTrue(c.checkIndexes().consistent());
        // a face-defined unique index: owner records (SharedUniqueIndexContract)
        assertTrue(c.addUniqueIndex(TagsUniqueIndex.tags(false)));
        assertEquals(1, c.uniqueIndexes().size());
        // a date-field expiry (a Mongo TTL index): the field in the metadata (SharedTtlChangeContract)
        c.setDateFieldExpiry("at_1", List.of("at"), 60L);
        awaitExpiryConversion(c);
        assertTrue(c.expiryRule().active());
        c.setDateFieldExpiry("at_1", List.of(), null);
        awaitExpiryConversion(c);
        assertFalse(c.expiryRule().active());
        assertNotNull(c.enableGraphAdjacency());
        assertTrue(store.ttlPurger().isRunning(), "the TTL purger runs through the contracts");
        // nothing of it is in the local (in-memory) engine: it would be lost at a restart and unseen by other servers
        for (Space space : List.of(Space.DOCS, Space.META, Space.INDEX, Space.ADJACENCY)) {
            assertEquals(0, count(store.engine(), space), space + " of the local engine");
        }
        assertEquals(20, count(shared, Space.DOCS));
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
        assertEquals(0, count(store.engine(), Space.DOCS), "no item in the local engine");
        assertEquals(200, count(shared, Space.DOCS));
    }
}

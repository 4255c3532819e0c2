package io.tetradb.core.store;

import io.tetradb.core.storage.Durability;
import io.tetradb.core.storage.RocksEngine;
import io.tetradb.core.storage.meta.EmbeddedMetadataStore;
import io.tetradb.core.storage.meta.MetadataStore;
import io.tetradb.core.storage.partition.EmbeddedPartitionStore;
import io.tetradb.core.storage.partition.PartitionStore;
import io.tetradb.testing.SharedMetadataView;
import org.junit.jupiter.api.AfterEach;

/**
 * {@link SharedIndexRebuildContract} on another embedded engine's stores presented as shared (no cluster): neither
 * core store's own data directory holds the items, so the rebuild and every writer go through the contracts.
 */
class SharedIndexRebuildEmbeddedTest extends SharedIndexRebuildContract {
    private RocksEngine engine;

    @Override
    protected MetadataStore sharedMetadata() {
        engine = RocksEngine.open(dirs.resolve("shared"), Durability.SYNC, 8 << 20);
        return SharedMetadataView.of(new EmbeddedMetadataStore(engine));
    }

    @Override
    protected PartitionStore sharedPartitions() {
        return new EmbeddedPartitionStore(engine);
    }

    @AfterEach
    void closeEngine() {
        engine.close();
    }
}

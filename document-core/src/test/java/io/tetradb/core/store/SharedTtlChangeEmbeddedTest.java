package io.tetradb.core.store;

import io.tetradb.core.storage.Durability;
import io.tetradb.core.storage.RocksEngine;
import io.tetradb.core.storage.meta.EmbeddedMetadataStore;
import io.tetradb.core.storage.meta.MetadataStore;
import io.tetradb.testing.SharedMetadataView;
import io.tetradb.core.storage.partition.EmbeddedPartitionStore;
import io.tetradb.core.storage.partition.PartitionStore;
import org.junit.jupiter.api.AfterEach;

/**
 * {@link SharedTtlChangeContract} on another embedded engine's stores presented as shared (no cluster): expiry
 * entries, rules and items are all there, so every conversion and purge goes through the contracts.
 */
class SharedTtlChangeEmbeddedTest extends SharedTtlChangeContract {
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

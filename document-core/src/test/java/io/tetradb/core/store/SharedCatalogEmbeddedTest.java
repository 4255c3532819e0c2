package io.tetradb.core.store;

import io.tetradb.core.storage.Durability;
import io.tetradb.core.storage.RocksEngine;
import io.tetradb.core.storage.meta.EmbeddedMetadataStore;
import io.tetradb.core.storage.meta.MetadataStore;
import io.tetradb.testing.SharedMetadataView;
import org.junit.jupiter.api.AfterEach;

/**
 * The shared-catalog suite in document-core's build: both core stores on one embedded metadata store of their own
 * directory, presented as shared (what a Cassandra keyspace is to several servers), so the caches' refresh logic is
 * tested without a cluster.
 */
class SharedCatalogEmbeddedTest extends SharedCatalogContract {
    private RocksEngine engine;

    @Override
    protected MetadataStore sharedMetadata() {
        engine = RocksEngine.open(dirs.resolve("meta"), Durability.SYNC, 8 << 20);
        return SharedMetadataView.of(new EmbeddedMetadataStore(engine));
    }

    @AfterEach
    void closeEngine() {
        engine.close();
    }
}

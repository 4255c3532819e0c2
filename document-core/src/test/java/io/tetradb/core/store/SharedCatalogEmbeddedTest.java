package io.tetradb.core.store;

import io.tetradb.core.storage.Durability;
import io.tetradb.core.storage.RocksEngine;
import io.tetradb.core.storage.meta.EmbeddedMetadataStore;
import io.tetradb.core.storage.meta.MetaEntry;
import io.tetradb.core.storage.meta.MetaWrite;
import io.tetradb.core.storage.meta.MetadataStore;
import org.junit.jupiter.api.AfterEach;

import java.util.List;

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
        EmbeddedMetadataStore inner = new EmbeddedMetadataStore(engine);
        return new MetadataStore() {
            public MetaEntry get(byte[] key) {
                return inner.get(key);
            }

            public List<MetaEntry> list(byte[] from, byte[] to) {
                return inner.list(from, to);
            }

            public boolean apply(MetaWrite write) {
                return inner.apply(write);
            }

            public long catalogStamp() {
                return inner.catalogStamp();
            }

            public boolean isShared() {
                return true;
            }

            public void close() {
            }
        };
    }

    @AfterEach
    void closeEngine() {
        engine.close();
    }
}

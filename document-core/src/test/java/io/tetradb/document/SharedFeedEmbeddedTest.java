package io.tetradb.document;

import io.tetradb.core.storage.Durability;
import io.tetradb.core.storage.RocksEngine;
import io.tetradb.core.storage.meta.EmbeddedMetadataStore;
import io.tetradb.core.storage.meta.MetadataStore;
import io.tetradb.testing.SharedMetadataView;
import io.tetradb.core.storage.partition.PartitionStore;
import org.junit.jupiter.api.AfterEach;

/**
 * {@link SharedFeedContract} in document-core's build: the metadata and the items of both servers in one embedded
 * directory of their own, presented as shared (what a Cassandra keyspace is to several servers).
 */
class SharedFeedEmbeddedTest extends SharedFeedContract {
    private RocksEngine engine;

    @Override
    protected MetadataStore sharedMetadata() {
        engine = RocksEngine.open(dirs().resolve("shared"), Durability.SYNC, 8 << 20);
        return SharedMetadataView.of(new EmbeddedMetadataStore(engine));
    }

    /** The embedded partitions with each partition's change records kept by lsn, as the contract reads them. */
    @Override
    protected PartitionStore sharedPartitions() {
        return io.tetradb.testing.SharedEmbeddedStore.partitionsOf(engine);
    }

    @Override
    protected boolean deletionRemovesItemRows() {
        return true; // the metadata store applies the deletion's range deletes to the same directory
    }

    @AfterEach
    void closeEngine() {
        engine.close();
    }
}

package io.tetradb.cassandra.store;

import io.tetradb.core.storage.meta.MetadataStore;
import io.tetradb.core.storage.partition.PartitionStore;
import io.tetradb.core.store.SharedCatalogContract;
import org.junit.jupiter.api.Tag;

/**
 * Two TetraDB core stores on one Cassandra keyspace ({@link SharedCatalogContract}): metadata in {@link
 * CassandraMetadataStore}, item transactions applied through {@link CassandraPartitionStore}. A container created
 * through one is usable through the other at once; a deletion and a replaced policy are seen by the other's cache;
 * racing creations through both have one winner and distinct numbers.
 */
@Tag("cluster")
class CassandraSharedCatalogTest extends SharedCatalogContract {
    private static final String KEYSPACE = "tetradb_shared";

    @Override
    protected MetadataStore sharedMetadata() {
        return CassandraMetadataStore.open(TestCluster.session(), KEYSPACE, 3, CassandraPartitionStore.Consistency.QUORUM);
    }

    @Override
    protected PartitionStore sharedPartitions() {
        return CassandraPartitionStore.open(TestCluster.session(), KEYSPACE, 3, CassandraPartitionStore.Consistency.QUORUM);
    }
}

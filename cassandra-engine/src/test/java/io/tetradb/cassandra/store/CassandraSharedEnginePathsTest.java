package io.tetradb.cassandra.store;

import io.tetradb.core.storage.meta.MetadataStore;
import io.tetradb.core.storage.partition.PartitionStore;
import io.tetradb.core.store.SharedEnginePathsContract;
import org.junit.jupiter.api.Tag;

/**
 * Graph adjacency with two TetraDB core stores on one Cassandra keyspace ({@link SharedEnginePathsContract}): entries
 * backfilled through conditional applies, out-entries read from the vertex's partition, in-entries across partitions
 * through the side rows' storage-attached indexes ({@link DerivedSeek}), writes through either store keeping them.
 */
@Tag("cluster")
class CassandraSharedEnginePathsTest extends SharedEnginePathsContract {
    private static final String KEYSPACE = "tetradb_adjacency";

    @Override
    protected MetadataStore sharedMetadata() {
        return CassandraMetadataStore.open(TestCluster.session(), KEYSPACE, 3, CassandraPartitionStore.Consistency.QUORUM);
    }

    @Override
    protected PartitionStore sharedPartitions() {
        return CassandraPartitionStore.open(TestCluster.session(), KEYSPACE, 3, CassandraPartitionStore.Consistency.QUORUM);
    }
}

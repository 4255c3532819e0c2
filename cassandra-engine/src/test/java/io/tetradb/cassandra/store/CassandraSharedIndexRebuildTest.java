package io.tetradb.cassandra.store;

import io.tetradb.core.storage.meta.MetadataStore;
import io.tetradb.core.storage.partition.PartitionStore;
import io.tetradb.core.store.SharedIndexRebuildContract;
import org.junit.jupiter.api.Tag;

/**
 * Indexing-policy replaces with two TetraDB core stores on one Cassandra keyspace ({@link SharedIndexRebuildContract}):
 * one logical partition converted per conditional batch that bumps its version and records its policy epoch; both
 * stores writing meanwhile (one with a stale catalog cache); a rebuild stopped on one store resumed by the other.
 */
@Tag("cluster")
class CassandraSharedIndexRebuildTest extends SharedIndexRebuildContract {
    private static final String KEYSPACE = "tetradb_rebuild";

    @Override
    protected MetadataStore sharedMetadata() {
        return CassandraMetadataStore.open(TestCluster.session(), KEYSPACE, 3, CassandraPartitionStore.Consistency.QUORUM);
    }

    @Override
    protected PartitionStore sharedPartitions() {
        return CassandraPartitionStore.open(TestCluster.session(), KEYSPACE, 3, CassandraPartitionStore.Consistency.QUORUM);
    }
}

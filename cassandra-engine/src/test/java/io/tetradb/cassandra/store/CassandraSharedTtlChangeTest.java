package io.tetradb.cassandra.store;

import io.tetradb.core.storage.meta.MetadataStore;
import io.tetradb.core.storage.partition.PartitionStore;
import io.tetradb.core.store.SharedTtlChangeContract;
import org.junit.jupiter.api.Tag;

/**
 * A TTL change on an existing container with two TetraDB core stores on one Cassandra keyspace
 * ({@link SharedTtlChangeContract}): the rule followed through the metadata, the expiry entries (side rows with the
 * storage-attached index columns) converted one logical partition per conditional batch, both servers' purgers
 * deleting exactly what expired under the new rule.
 */
@Tag("cluster")
class CassandraSharedTtlChangeTest extends SharedTtlChangeContract {
    private static final String KEYSPACE = "tetradb_ttl_change";

    @Override
    protected MetadataStore sharedMetadata() {
        return CassandraMetadataStore.open(TestCluster.session(), KEYSPACE, 3, CassandraPartitionStore.Consistency.QUORUM);
    }

    @Override
    protected PartitionStore sharedPartitions() {
        return CassandraPartitionStore.open(TestCluster.session(), KEYSPACE, 3, CassandraPartitionStore.Consistency.QUORUM);
    }
}

package io.tetradb.cassandra.store;

import io.tetradb.core.storage.meta.MetadataStore;
import io.tetradb.core.storage.partition.PartitionStore;
import io.tetradb.core.store.SharedUniqueIndexContract;
import org.junit.jupiter.api.Tag;

/**
 * Face-defined (Mongo) unique indexes with two TetraDB core stores on one Cassandra keyspace
 * ({@link SharedUniqueIndexContract}): owner records decided by conditional batches (LWT) on their own partitions,
 * a build over duplicates refused, racing writers in many partitions through both stores with one winner each round,
 * a crashed claimant's partition fenced.
 */
@Tag("cluster")
class CassandraSharedUniqueIndexTest extends SharedUniqueIndexContract {
    private static final String KEYSPACE = "tetradb_unique";

    @Override
    protected MetadataStore sharedMetadata() {
        return CassandraMetadataStore.open(TestCluster.session(), KEYSPACE, 3, CassandraPartitionStore.Consistency.QUORUM);
    }

    @Override
    protected PartitionStore sharedPartitions() {
        return CassandraPartitionStore.open(TestCluster.session(), KEYSPACE, 3, CassandraPartitionStore.Consistency.QUORUM);
    }
}

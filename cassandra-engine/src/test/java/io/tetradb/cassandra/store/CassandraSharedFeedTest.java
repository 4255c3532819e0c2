package io.tetradb.cassandra.store;

import io.tetradb.core.storage.meta.MetadataStore;
import io.tetradb.core.storage.partition.PartitionStore;
import io.tetradb.document.SharedFeedContract;
import org.junit.jupiter.api.Tag;

/**
 * The change feed of two TetraDB servers on one Cassandra keyspace ({@link SharedFeedContract}): both write, one
 * reads the feed with a continuation, the other resumes it after a restart; positions are the logical partitions'
 * lsns (decided by the conditional batches), so nothing is lost or repeated and each partition's changes come in
 * order; a "from now" reader on one server sees the other's writes.
 */
@Tag("cluster")
class CassandraSharedFeedTest extends SharedFeedContract {
    private static final String KEYSPACE = "tetradb_feed";

    @Override
    protected MetadataStore sharedMetadata() {
        return CassandraMetadataStore.open(TestCluster.session(), KEYSPACE, 3, CassandraPartitionStore.Consistency.QUORUM);
    }

    @Override
    protected PartitionStore sharedPartitions() {
        return CassandraPartitionStore.open(TestCluster.session(), KEYSPACE, 3, CassandraPartitionStore.Consistency.QUORUM);
    }
}

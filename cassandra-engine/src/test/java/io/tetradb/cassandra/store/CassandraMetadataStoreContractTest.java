package io.tetradb.cassandra.store;

import io.tetradb.core.storage.meta.MetadataStore;
import io.tetradb.core.storage.meta.MetadataStoreContract;
import org.junit.jupiter.api.Tag;

/**
 * The metadata contract ({@link MetadataStoreContract}, the suite the embedded store passes in document-core) on a
 * real 3-node Cassandra 5.0 cluster (separate JVMs on 127.0.0.1-3, replication factor 3, QUORUM / SERIAL). Runs with
 * {@code mvn -Pcluster -pl cassandra-engine -am verify}.
 */
@Tag("cluster")
class CassandraMetadataStoreContractTest extends MetadataStoreContract {
    @Override
    protected MetadataStore openStore() {
        return CassandraMetadataStore.open(TestCluster.session(), "tetradb_meta", 3,
                CassandraPartitionStore.Consistency.QUORUM);
    }
}

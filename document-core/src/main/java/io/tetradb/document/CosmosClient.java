package io.tetradb.document;

import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.store.CoreStore;
import io.tetradb.core.store.DatabaseDefinition;
import io.tetradb.core.store.PartitionStatistics;
import io.tetradb.core.store.StoreConfig;

import java.util.List;

/** The entry point of the document API over an embedded store; close it to flush and release the directory. */
public final class CosmosClient implements AutoCloseable {
    private final CoreStore store;
    private final boolean contentResponseOnWriteEnabled;

    CosmosClient(StoreConfig config, boolean contentResponseOnWriteEnabled) {
        this(config, contentResponseOnWriteEnabled, null);
    }

    CosmosClient(StoreConfig config, boolean contentResponseOnWriteEnabled,
                 io.tetradb.core.storage.partition.PartitionStore itemStore) {
        this.store = CosmosException.call(() -> CoreStore.open(config, itemStore));
        this.contentResponseOnWriteEnabled = contentResponseOnWriteEnabled;
    }

    public CosmosDatabaseResponse createDatabase(String id) {
        return createDatabase(id, null);
    }

    public CosmosDatabaseResponse createDatabase(String id, ThroughputProperties throughput) {
        DatabaseDefinition db = CosmosException.call(() -> store.createDatabase(id, manual(throughput)));
        Throughputs.recordAutoscale(store, db, throughput);
        return new CosmosDatabaseResponse(Status.CREATED, new CosmosDatabaseProperties(db));
    }

    public CosmosDatabaseResponse createDatabaseIfNotExists(String id) {
        return createDatabaseIfNotExists(id, null);
    }

    public CosmosDatabaseResponse createDatabaseIfNotExists(String id, ThroughputProperties throughput) {
        try {
            return createDatabase(id, throughput);
        } catch (CosmosException e) {
            if (e.getStatusCode() != Status.CONFLICT) {
                throw e;
            }
            return new CosmosDatabaseResponse(Status.OK,
                    new CosmosDatabaseProperties(CosmosException.call(() -> store.readDatabase(id))));
        }
    }

    /** A handle; nothing is checked until it is used. */
    public CosmosDatabase getDatabase(String id) {
        return new CosmosDatabase(this, id);
    }

    public List<CosmosDatabaseProperties> readAllDatabases() {
        return CosmosException.call(() -> store.listDatabases()).stream().map(CosmosDatabaseProperties::new).toList();
    }

    /** TetraDB extension: the partition statistics of every container (what the partition storage page shows). */
    public List<PartitionStatistics> readAllPartitionStatistics() {
        return CosmosException.call(store::partitionStatistics);
    }

    /** TetraDB extension: RU consumption and throttling per physical partition (what the partition page shows). */
    public List<io.tetradb.core.store.ThroughputMetrics.Container> readAllThroughputMetrics(int windowSeconds) {
        return CosmosException.call(() -> store.throughputMetrics(windowSeconds));
    }

    /** The core store under this client, for the other faces and the server. */
    public CoreStore coreStore() {
        return store;
    }

    boolean contentResponseOnWriteEnabled() {
        return contentResponseOnWriteEnabled;
    }

    @Override
    public void close() {
        store.close();
    }

    /** The RU/s a creation sizes partitions by: the manual value or the autoscale maximum. */
    static Integer manual(ThroughputProperties throughput) {
        return throughput == null ? null : throughput.settings().maxRuPerSecond();
    }

    static StoreException notFound(String what) {
        return new StoreException(Status.NOT_FOUND, what + " does not exist");
    }
}

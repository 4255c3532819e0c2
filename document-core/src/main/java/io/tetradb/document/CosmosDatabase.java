package io.tetradb.document;

import io.tetradb.core.Status;
import io.tetradb.core.store.ContainerDefinition;
import io.tetradb.core.store.ContainerStore;

import java.util.List;

/** A database handle, as in azure-cosmos. */
public final class CosmosDatabase {
    private final CosmosClient client;
    private final String id;

    CosmosDatabase(CosmosClient client, String id) {
        this.client = client;
        this.id = id;
    }

    public String getId() {
        return id;
    }

    public CosmosDatabaseResponse read() {
        return new CosmosDatabaseResponse(Status.OK,
                new CosmosDatabaseProperties(CosmosException.call(() -> client.coreStore().readDatabase(id))));
    }

    public CosmosDatabaseResponse delete() {
        CosmosException.call(() -> {
            client.coreStore().deleteDatabase(id);
            return null;
        });
        return new CosmosDatabaseResponse(Status.NO_CONTENT, null);
    }

    public CosmosContainerResponse createContainer(CosmosContainerProperties properties) {
        return createContainer(properties, null);
    }

    public CosmosContainerResponse createContainer(CosmosContainerProperties properties, ThroughputProperties throughput) {
        ContainerStore c = CosmosException.call(() -> client.coreStore().createContainer(id, properties.getId(),
                properties.getPartitionKeyDefinition().toCore(), properties.getIndexingPolicy().toJson(),
                properties.getDefaultTimeToLiveInSeconds(), CosmosClient.manual(throughput),
                properties.getUniqueKeyPolicy().getUniqueKeys().isEmpty() ? null
                        : properties.getUniqueKeyPolicy().toJson(),
                properties.getMaxItemBytes()));
        CosmosException.call(() -> {
            CosmosContainerProperties.applyChangeFeedPolicy(properties, c);
            return null;
        });
        Throughputs.recordAutoscale(client.coreStore(), c, throughput);
        return new CosmosContainerResponse(Status.CREATED, CosmosContainerProperties.of(c));
    }

    public CosmosContainerResponse createContainer(String containerId, String partitionKeyPath) {
        return createContainer(new CosmosContainerProperties(containerId, partitionKeyPath));
    }

    public CosmosContainerResponse createContainerIfNotExists(CosmosContainerProperties properties) {
        return createContainerIfNotExists(properties, null);
    }

    public CosmosContainerResponse createContainerIfNotExists(CosmosContainerProperties properties,
                                                              ThroughputProperties throughput) {
        try {
            return createContainer(properties, throughput);
        } catch (CosmosException e) {
            if (e.getStatusCode() != Status.CONFLICT) {
                throw e;
            }
            return getContainer(properties.getId()).read();
        }
    }

    public CosmosContainerResponse createContainerIfNotExists(String containerId, String partitionKeyPath) {
        return createContainerIfNotExists(new CosmosContainerProperties(containerId, partitionKeyPath));
    }

    /** The database's shared throughput; 404 when it has none (its containers have their own). */
    public ThroughputResponse readThroughput() {
        return CosmosException.call(() -> Throughputs.read(client.coreStore(), client.coreStore().readDatabase(id)));
    }

    /** Replaces the database's shared throughput; 404 when it has none. */
    public ThroughputResponse replaceThroughput(ThroughputProperties throughput) {
        return CosmosException.call(() -> {
            client.coreStore().throughput().replaceDatabase(id, throughput.settings());
            return Throughputs.read(client.coreStore(), client.coreStore().readDatabase(id));
        });
    }

    /** A handle; nothing is checked until it is used. */
    public CosmosContainer getContainer(String containerId) {
        return new CosmosContainer(client, this, containerId);
    }

    public List<CosmosContainerProperties> readAllContainers() {
        List<ContainerDefinition> defs = CosmosException.call(() -> client.coreStore().listContainers(id));
        return defs.stream().map(CosmosContainerProperties::of).toList();
    }
}

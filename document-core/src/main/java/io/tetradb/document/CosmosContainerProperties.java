package io.tetradb.document;

import io.tetradb.core.store.ContainerDefinition;

import java.util.List;

/** A container's definition, as in azure-cosmos. */
public final class CosmosContainerProperties {
    private final String id;
    private final PartitionKeyDefinition partitionKeyDefinition;
    private IndexingPolicy indexingPolicy = new IndexingPolicy();
    private Integer defaultTimeToLiveInSeconds;
    private Integer maxItemBytes;
    private UniqueKeyPolicy uniqueKeyPolicy = new UniqueKeyPolicy();
    private String resourceId;
    private long timestamp;

    public CosmosContainerProperties(String id, String partitionKeyPath) {
        this(id, new PartitionKeyDefinition().setPaths(List.of(partitionKeyPath)));
    }

    public CosmosContainerProperties(String id, PartitionKeyDefinition partitionKeyDefinition) {
        this.id = id;
        this.partitionKeyDefinition = partitionKeyDefinition;
    }

    static CosmosContainerProperties of(ContainerDefinition def) {
        CosmosContainerProperties p = new CosmosContainerProperties(def.id(),
                PartitionKeyDefinition.of(def.partitionKey()));
        p.indexingPolicy = IndexingPolicy.fromJson(def.indexingPolicy());
        p.defaultTimeToLiveInSeconds = def.defaultTimeToLive();
        p.maxItemBytes = def.maxItemBytes();
        p.uniqueKeyPolicy = UniqueKeyPolicy.fromJson(def.uniqueKeyPolicy());
        p.resourceId = def.rid();
        p.timestamp = def.ts();
        return p;
    }

    private ChangeFeedPolicy changeFeedPolicy;

    /** The change feed policy (null when not set: latest version only). */
    public ChangeFeedPolicy getChangeFeedPolicy() {
        return changeFeedPolicy;
    }

    public CosmosContainerProperties setChangeFeedPolicy(ChangeFeedPolicy changeFeedPolicy) {
        this.changeFeedPolicy = changeFeedPolicy;
        return this;
    }

    /** The definition plus what the container's store keeps beside it (its change feed policy). */
    static CosmosContainerProperties of(io.tetradb.core.store.ContainerStore store) {
        return of(store.definition()).setChangeFeedPolicy(ChangeFeedPolicy.of(store.changeFeed().policy()));
    }

    /** Stores the properties' change feed policy, if they name one. */
    static void applyChangeFeedPolicy(CosmosContainerProperties p, io.tetradb.core.store.ContainerStore store) {
        if (p.changeFeedPolicy != null && !p.changeFeedPolicy.toCore().equals(store.changeFeed().policy())) {
            store.changeFeed().setPolicy(p.changeFeedPolicy.toCore());
        }
    }

    public String getId() {
        return id;
    }

    public PartitionKeyDefinition getPartitionKeyDefinition() {
        return partitionKeyDefinition;
    }

    public IndexingPolicy getIndexingPolicy() {
        return indexingPolicy;
    }

    public CosmosContainerProperties setIndexingPolicy(IndexingPolicy indexingPolicy) {
        this.indexingPolicy = indexingPolicy;
        return this;
    }

    /** null: items never expire; -1: items expire only when they carry a ttl; n: n seconds after their last write. */
    public Integer getDefaultTimeToLiveInSeconds() {
        return defaultTimeToLiveInSeconds;
    }

    public CosmosContainerProperties setDefaultTimeToLiveInSeconds(Integer seconds) {
        this.defaultTimeToLiveInSeconds = seconds;
        return this;
    }

    /**
     * TetraDB's extension (not in azure-cosmos): the largest item this container stores, in bytes of its JSON; null
     * (the default) is the store's limit, Cosmos DB's 2 MB. Set when the container is created (1 KiB to 256 MiB);
     * a transactional batch of the container may then hold one item of this size.
     */
    public UniqueKeyPolicy getUniqueKeyPolicy() {
        return uniqueKeyPolicy;
    }

    /** The unique keys (at most 10 of at most 16 paths); fixed once the container exists, as in Cosmos DB. */
    public CosmosContainerProperties setUniqueKeyPolicy(UniqueKeyPolicy policy) {
        this.uniqueKeyPolicy = policy == null ? new UniqueKeyPolicy() : policy;
        return this;
    }

    public Integer getMaxItemBytes() {
        return maxItemBytes;
    }

    public CosmosContainerProperties setMaxItemBytes(Integer maxItemBytes) {
        this.maxItemBytes = maxItemBytes;
        return this;
    }

    public String getResourceId() {
        return resourceId;
    }

    public long getTimestamp() {
        return timestamp;
    }
}

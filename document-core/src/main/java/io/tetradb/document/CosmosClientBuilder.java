package io.tetradb.document;

import io.tetradb.core.storage.Durability;
import io.tetradb.core.store.StoreConfig;

import java.nio.file.Path;

/**
 * Builds an embedded {@link CosmosClient} over a data directory. Mirrors azure-cosmos' builder; the data directory
 * takes the place of the endpoint and key.
 */
public final class CosmosClientBuilder {
    private Path dataDirectory;
    private long splitThresholdBytes = StoreConfig.DEFAULT_SPLIT_THRESHOLD;
    private long logicalPartitionLimitBytes = StoreConfig.DEFAULT_LOGICAL_PARTITION_LIMIT;
    private Durability durability = Durability.SYNC;
    private boolean contentResponseOnWriteEnabled;
    private long blockCacheBytes = StoreConfig.DEFAULT_BLOCK_CACHE;
    private io.tetradb.core.script.ScriptLimits scriptLimits = io.tetradb.core.script.ScriptLimits.DEFAULTS;

    /**
     * TetraDB extension: the bounds of stored procedures, triggers and UDFs (default: 5 s as Cosmos DB, "not
     * accepted" after 80% of it or 10,000 operations, 1 GiB of allocation, 2 MB response).
     */
    public CosmosClientBuilder scriptLimits(io.tetradb.core.script.ScriptLimits limits) {
        this.scriptLimits = java.util.Objects.requireNonNull(limits);
        return this;
    }

    private java.time.Clock clock = java.time.Clock.systemUTC();

    /** TetraDB extension: the time source of {@code _ts} and of expiry (tests pass a {@code ManualClock}). */
    public CosmosClientBuilder clock(java.time.Clock clock) {
        this.clock = java.util.Objects.requireNonNull(clock);
        return this;
    }

    public CosmosClientBuilder dataDirectory(Path dataDirectory) {
        this.dataDirectory = dataDirectory;
        return this;
    }

    /** A physical partition splits once its logical size exceeds this (default 50 GB). */
    public CosmosClientBuilder splitThresholdBytes(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("splitThresholdBytes must be positive");
        }
        this.splitThresholdBytes = bytes;
        return this;
    }

    /** A write that would grow one logical partition past this fails with 403 (default 20 GB). */
    public CosmosClientBuilder logicalPartitionLimitBytes(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("logicalPartitionLimitBytes must be positive");
        }
        this.logicalPartitionLimitBytes = bytes;
        return this;
    }

    /** SYNC (default): acknowledged after fsync; ASYNC: fsynced every few milliseconds. */
    public CosmosClientBuilder durability(Durability durability) {
        this.durability = durability;
        return this;
    }

    /** Memory for cached data blocks (off-heap; default 1/8 of the machine's memory, 64 MiB to 8 GiB). */
    public CosmosClientBuilder blockCacheBytes(long bytes) {
        if (bytes < (8L << 20)) {
            throw new IllegalArgumentException("blockCacheBytes must be at least 8 MiB");
        }
        this.blockCacheBytes = bytes;
        return this;
    }

    /** Whether writes return the stored item (default false, as in azure-cosmos). */
    public CosmosClientBuilder contentResponseOnWriteEnabled(boolean enabled) {
        this.contentResponseOnWriteEnabled = enabled;
        return this;
    }

    private boolean rateLimiting;

    /**
     * TetraDB extension: throttle requests over their physical partition's share of the provisioned RU/s with 429
     * (sub-status 3200) and a retry-after, as Cosmos DB does. Off by default, like the emulator without
     * {@code /EnableRateLimiting}.
     */
    public CosmosClientBuilder rateLimiting(boolean enabled) {
        this.rateLimiting = enabled;
        return this;
    }

    private boolean burstCapacity;

    /**
     * TetraDB extension: Cosmos DB's burst capacity (an opt-in account feature): with rate limiting on, a physical
     * partition below 3,000 RU/s banks up to 5 minutes of the RU it leaves unused and spends them, at up to
     * 3,000 RU/s, when its own budget is spent. Off by default.
     */
    public CosmosClientBuilder burstCapacity(boolean enabled) {
        this.burstCapacity = enabled;
        return this;
    }

    private ConsistencyLevel consistencyLevel = ConsistencyLevel.SESSION;

    /**
     * The account's default consistency level (default Session, as the Cosmos DB emulator's): reads without a level of
     * their own read at it, requests may only weaken it, and strong or bounded-staleness reads cost twice.
     */
    public CosmosClientBuilder consistencyLevel(ConsistencyLevel level) {
        this.consistencyLevel = java.util.Objects.requireNonNull(level, "consistencyLevel");
        return this;
    }

    private io.tetradb.core.storage.meta.MetadataStore metadataStore;
    private io.tetradb.core.storage.partition.PartitionStore partitionStore;

    /**
     * Issue 20: keeps the metadata in {@code metadata} and applies item transactions through {@code partitions}
     * (e.g. cassandra-engine's, shared by several servers) instead of the data directory's embedded engine. The
     * caller opens and closes them. What the core still keeps in the data directory meanwhile is listed by {@link
     * io.tetradb.core.storage.EngineBypasses}.
     */
    public CosmosClientBuilder storage(io.tetradb.core.storage.meta.MetadataStore metadata,
                                       io.tetradb.core.storage.partition.PartitionStore partitions) {
        this.metadataStore = metadata;
        this.partitionStore = partitions;
        return this;
    }

    /**
     * TetraDB extension: keeps the items (their index terms, change records and statistics) on {@code store}, e.g.
     * cassandra-engine's {@code CassandraPartitionStore}, and reads them through it; databases, containers and the
     * other metadata stay in the data directory. The caller closes {@code store} after the client.
     */
    public CosmosClientBuilder itemStore(io.tetradb.core.storage.partition.PartitionStore store) {
        this.partitionStore = store;
        return this;
    }

    public CosmosClient buildClient() {
        if (dataDirectory == null) {
            throw new IllegalArgumentException("dataDirectory is required");
        }
        StoreConfig config = StoreConfig.defaults(dataDirectory)
                .withDurability(durability)
                .withSplitThresholdBytes(splitThresholdBytes)
                .withLogicalPartitionLimitBytes(logicalPartitionLimitBytes)
                .withBlockCacheBytes(blockCacheBytes)
                .withClock(clock);
        CosmosClient client = new CosmosClient(config, contentResponseOnWriteEnabled, metadataStore, partitionStore);
        client.coreStore().scriptEngine().setLimits(scriptLimits);
        client.coreStore().rateLimiter().setEnabled(rateLimiting);
        client.coreStore().rateLimiter().setBurstCapacity(burstCapacity);
        client.coreStore().consistency().setDefaultLevel(consistencyLevel.core());
        return client;
    }
}

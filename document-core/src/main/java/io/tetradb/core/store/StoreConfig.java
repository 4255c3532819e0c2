package io.tetradb.core.store;

import io.tetradb.core.storage.Durability;

import java.nio.file.Path;

/**
 * How a {@link CoreStore} is opened.
 *
 * @param splitThresholdBytes        a physical partition larger than this splits (Cosmos: 50 GB)
 * @param logicalPartitionLimitBytes a write that would grow one logical partition past this fails (Cosmos: 20 GB)
 */
public record StoreConfig(Path dataDirectory, Durability durability, long splitThresholdBytes,
                          long logicalPartitionLimitBytes, long blockCacheBytes, Limits limits) {
    public static final long DEFAULT_SPLIT_THRESHOLD = 50L * 1024 * 1024 * 1024;
    public static final long DEFAULT_LOGICAL_PARTITION_LIMIT = 20L * 1024 * 1024 * 1024;
    public static final long DEFAULT_BLOCK_CACHE = 256L * 1024 * 1024;

    public static StoreConfig defaults(Path dataDirectory) {
        return new StoreConfig(dataDirectory, Durability.SYNC, DEFAULT_SPLIT_THRESHOLD,
                DEFAULT_LOGICAL_PARTITION_LIMIT, DEFAULT_BLOCK_CACHE, Limits.COSMOS);
    }

    public StoreConfig withDurability(Durability d) {
        return new StoreConfig(dataDirectory, d, splitThresholdBytes, logicalPartitionLimitBytes, blockCacheBytes, limits);
    }

    public StoreConfig withSplitThresholdBytes(long b) {
        return new StoreConfig(dataDirectory, durability, b, logicalPartitionLimitBytes, blockCacheBytes, limits);
    }

    public StoreConfig withLogicalPartitionLimitBytes(long b) {
        return new StoreConfig(dataDirectory, durability, splitThresholdBytes, b, blockCacheBytes, limits);
    }
}

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
                          long logicalPartitionLimitBytes, long blockCacheBytes, Limits limits,
                          java.time.Clock clock) {
    /** Without a clock: the system's (UTC). The clock gives items their {@code _ts} and decides when they expire. */
    public StoreConfig(Path dataDirectory, Durability durability, long splitThresholdBytes,
                       long logicalPartitionLimitBytes, long blockCacheBytes, Limits limits) {
        this(dataDirectory, durability, splitThresholdBytes, logicalPartitionLimitBytes, blockCacheBytes, limits,
                java.time.Clock.systemUTC());
    }

    /** The same configuration with another time source (tests move a controllable clock instead of sleeping). */
    public StoreConfig withClock(java.time.Clock c) {
        return new StoreConfig(dataDirectory, durability, splitThresholdBytes, logicalPartitionLimitBytes,
                blockCacheBytes, limits, c);
    }

    public static final long DEFAULT_SPLIT_THRESHOLD = 50L * 1024 * 1024 * 1024;
    public static final long DEFAULT_LOGICAL_PARTITION_LIMIT = 20L * 1024 * 1024 * 1024;
    /**
     * The block cache (off-heap) for uncompressed blocks of items and metadata: 1/8 of the machine's memory, between
     * 64 MiB and 8 GiB — like MongoDB, the cache follows the machine rather than a fixed size, so that a working set
     * that fits in memory is served from memory.
     */
    public static final long DEFAULT_BLOCK_CACHE = defaultBlockCache();

    private static long defaultBlockCache() {
        long total = 8L << 30;
        if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os) {
            total = os.getTotalMemorySize();
        }
        return Math.max(64L << 20, Math.min(8L << 30, total / 8));
    }

    public static StoreConfig defaults(Path dataDirectory) {
        return new StoreConfig(dataDirectory, Durability.SYNC, DEFAULT_SPLIT_THRESHOLD,
                DEFAULT_LOGICAL_PARTITION_LIMIT, DEFAULT_BLOCK_CACHE, Limits.COSMOS);
    }

    public StoreConfig withDurability(Durability d) {
        return new StoreConfig(dataDirectory, d, splitThresholdBytes, logicalPartitionLimitBytes, blockCacheBytes, limits, clock);
    }

    public StoreConfig withSplitThresholdBytes(long b) {
        return new StoreConfig(dataDirectory, durability, b, logicalPartitionLimitBytes, blockCacheBytes, limits, clock);
    }

    public StoreConfig withBlockCacheBytes(long b) {
        return new StoreConfig(dataDirectory, durability, splitThresholdBytes, logicalPartitionLimitBytes, b, limits, clock);
    }

    public StoreConfig withLogicalPartitionLimitBytes(long b) {
        return new StoreConfig(dataDirectory, durability, splitThresholdBytes, b, blockCacheBytes, limits, clock);
    }
}

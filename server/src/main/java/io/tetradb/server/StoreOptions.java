package io.tetradb.server;

import io.tetradb.core.store.StoreConfig;

/**
 * How the server opens its store beyond the data directory: throughput rate limiting (off by default, like the Cosmos
 * DB emulator without {@code /EnableRateLimiting}) and the size at which a physical partition splits (Cosmos DB:
 * 50 GB; small values let a developer watch splits with little data).
 *
 * @param rateLimit           answer requests over their partition's RU/s with 429 and a retry-after
 * @param splitThresholdBytes a physical partition larger than this splits
 * @param burstCapacity       Cosmos DB's opt-in burst capacity: partitions below 3,000 RU/s bank idle RU
 * @param consistency         the account's default consistency level (Session, the emulator's default)
 */
public record StoreOptions(boolean rateLimit, long splitThresholdBytes, boolean burstCapacity,
                           io.tetradb.document.ConsistencyLevel consistency) {
    public static final StoreOptions DEFAULTS = new StoreOptions(false, StoreConfig.DEFAULT_SPLIT_THRESHOLD, false,
            io.tetradb.document.ConsistencyLevel.SESSION);

    public StoreOptions {
        if (splitThresholdBytes <= 0) {
            throw new IllegalArgumentException("the split threshold must be a positive number of bytes, not "
                    + splitThresholdBytes);
        }
    }

    public StoreOptions withRateLimit(boolean on) {
        return new StoreOptions(on, splitThresholdBytes, burstCapacity, consistency);
    }

    public StoreOptions withBurstCapacity(boolean on) {
        return new StoreOptions(rateLimit, splitThresholdBytes, on, consistency);
    }

    public StoreOptions withSplitThresholdBytes(long bytes) {
        return new StoreOptions(rateLimit, bytes, burstCapacity, consistency);
    }

    public StoreOptions withConsistency(io.tetradb.document.ConsistencyLevel level) {
        return new StoreOptions(rateLimit, splitThresholdBytes, burstCapacity, level);
    }
}

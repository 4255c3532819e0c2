package io.tetradb.core.store;

import io.tetradb.core.StoreException;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * For faces whose protocol has no "retry with" (MongoDB, Azure Tables): a write or batch that lost its logical
 * partition to another server on a shared engine ({@link PartitionCommit}'s 449: nothing was written) is run again
 * against the new state, where a create meets 409 and an etag condition 412, as MongoDB retries a single-document
 * write conflict itself and Azure Table storage never shows one. The Cosmos faces pass 449 on: the SDKs retry it.
 */
public final class PartitionRaceRetry {
    /** Attempts before the 449 is passed on (each loser of a race of n writers is refused at most n - 1 times). */
    static final int ATTEMPTS = 12;

    private PartitionRaceRetry() {
    }

    /** Whether {@code e} is a write refused because another writer changed its logical partition first. */
    public static boolean lostRace(StoreException e) {
        return e.status() == PartitionCommit.RETRY_WITH;
    }

    /** Runs {@code write}, again after a short random back-off while it loses its partition's race. */
    public static <T> T run(Supplier<T> write) {
        for (int attempt = 1; ; attempt++) {
            try {
                return write.get();
            } catch (StoreException e) {
                if (!lostRace(e) || attempt >= ATTEMPTS) {
                    throw e;
                }
                // 0.5–1 ms, doubling, at most ~64 ms: racing writers spread out instead of colliding again
                long micros = Math.min(64_000, 500L << Math.min(attempt - 1, 7));
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(micros + ThreadLocalRandom.current()
                        .nextLong(micros)));
            }
        }
    }
}

package io.tetradb.core.storage;

import java.util.List;
import java.util.function.Predicate;

/**
 * The storage SPI: everything the core needs from an engine. Keys are big-endian and order-preserving, so a
 * logical partition, a physical partition (an EPK range) or an id prefix is a contiguous key range.
 *
 * <p>The core serialises the writers of one logical partition itself (striped locks) and hands the engine one
 * {@link WriteSet} per transaction; the engine only has to apply it atomically and durably. Reads never block on
 * writers.
 */
public interface StorageEngine extends AutoCloseable {

    /** The value stored under {@code key}, or null. */
    byte[] get(Space space, byte[] key);

    /** Values for several keys at once (null where absent), in the order of {@code keys}. */
    List<byte[]> multiGet(Space space, List<byte[]> keys);

    /**
     * Visits the entries with {@code from <= key < to} in key order until the visitor returns false.
     * {@code to == null} means "to the end of the space".
     */
    void scan(Space space, byte[] from, byte[] to, Predicate<KeyValue> visitor);

    /**
     * Whether any key lies in {@code [from, to)} of {@code space} (graph-load6: a range delete of an empty range
     * left in a memtable makes a later SST ingestion over that range wait for a flush of every family and land in L0).
     */
    default boolean anyKey(Space space, byte[] from, byte[] to) {
        boolean[] found = {false};
        scan(space, from, to, kv -> {
            found[0] = true;
            return false;
        });
        return found[0];
    }

    /**
     * A cursor over the entries with {@code from <= key < to} ({@code to == null}: to the end of the space), in key
     * order or, with {@code reverse}, from the last key down. Reads see a consistent view taken when it opens.
     */
    KeyCursor cursor(Space space, byte[] from, byte[] to, boolean reverse);

    /**
     * For tools and benchmarks: waits (at most {@code maxMillis}) until the engine has no flush or compaction running
     * or pending, so reads measure the settled layout; returns the milliseconds waited.
     */
    default long awaitBackgroundWork(long maxMillis) throws InterruptedException {
        return 0;
    }

    /** Applies every write of the set atomically; returns once it is as durable as the configured durability. */
    void apply(WriteSet writes);

    /**
     * Applies every write of the set atomically and visibly, but returns before it is durable: the caller must call
     * {@link #awaitDurable(long)} with the returned ticket before it acknowledges the write. Lets a writer release its
     * locks before the fsync, so that concurrent writers share one (group commit).
     */
    default long applyDeferred(WriteSet writes) {
        apply(writes);
        return 0;
    }

    /**
     * As {@link #applyDeferred(WriteSet)}, told whether other writers wait for the caller's locks: when none do and no
     * other write is in flight, an engine may make the write durable in the same call (the ticket is then durable at
     * once), which may cost less than a write and a separate sync; when some do, it must not, so they share one sync.
     */
    default long applyDeferred(WriteSet writes, boolean othersWaiting) {
        return applyDeferred(writes);
    }

    /** Returns once the write of {@link #applyDeferred(WriteSet)}'s ticket is as durable as the configuration says. */
    default void awaitDurable(long ticket) {
    }

    /**
     * The writer of {@code ticket} will {@link #awaitDurable(long)} it (later, after more writes): an engine that syncs
     * unawaited writes in the background may leave this one to its writer.
     */
    default void promiseAwait(long ticket) {
    }

    /** Flushes and closes; a crash instead of a close is recovered at the next open. */
    @Override
    void close();
}

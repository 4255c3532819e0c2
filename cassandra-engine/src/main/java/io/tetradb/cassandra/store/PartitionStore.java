package io.tetradb.cassandra.store;

import java.util.List;
import java.util.Optional;

/**
 * Storage at the level of the logical partition, the unit Cosmos DB makes atomic: what a TetraDB storage engine must
 * give the core (the storage interface issue 20 asks for; the embedded RocksDB engine is to implement
 * the same contract when the core moves onto it).
 *
 * <ul>
 *   <li>{@link #apply}: the writes of one transaction in one logical partition (items put or deleted, and its change
 *       records), all or nothing, and only if the partition is still at the version the writer read. Concurrency is
 *       decided here, by the engine, never by a lock inside one TetraDB process, so several servers can share it.</li>
 *   <li>Point reads, id-range scans and the change records of one partition, in order.</li>
 *   <li>{@link #slices}: the engine's own division of the key space (token ranges for Cassandra), which become feed
 *       ranges and physical partitions; {@link #partitions} lists the logical partitions of a slice with their
 *       versions, so a change-feed reader finds what changed since a version it saw.</li>
 * </ul>
 */
public interface PartitionStore extends AutoCloseable {

    /** The partition's version: 0 for a partition never written. */
    long version(LogicalPartition p);

    /**
     * Applies {@code mutations} and {@code changes} to {@code p} atomically and in isolation, and sets its version to
     * {@code next}, if and only if its version is {@code expected}. Nothing is written otherwise.
     */
    ApplyResult apply(LogicalPartition p, long expected, long next, List<Mutation> mutations, List<Change> changes);

    Optional<byte[]> read(LogicalPartition p, String id);

    /** Items with {@code from <= id < to} (null: unbounded) in id order, at most {@code limit}. */
    List<StoredItem> scan(LogicalPartition p, String from, String to, int limit);

    /** Change records with an lsn above {@code afterLsn}, in lsn order, at most {@code limit}. */
    List<Change> changes(LogicalPartition p, long afterLsn, int limit);

    /** Deletes change records up to {@code throughLsn} (the feed's pruning); not conditional. */
    void pruneChanges(LogicalPartition p, long throughLsn);

    /** The engine's slices of the key space, in order; together they cover it once. */
    List<Slice> slices();

    /** The logical partitions of {@code container} in {@code slice}, with their versions. */
    List<PartitionVersion> partitions(int container, Slice slice);

    @Override
    void close();
}

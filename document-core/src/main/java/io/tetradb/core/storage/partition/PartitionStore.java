package io.tetradb.core.storage.partition;

import io.tetradb.core.feed.ChangeRecord;

import java.util.List;

/**
 * Storage at the level of the logical partition, the unit Cosmos DB makes atomic: what a TetraDB storage engine gives
 * the core. The embedded RocksDB engine ({@link EmbeddedPartitionStore}) and the Cassandra engine (cassandra-engine)
 * implement it; {@code PartitionStoreContract} in the test-jar is the suite both pass.
 *
 * <ul>
 *   <li>{@link #apply}: one transaction of one logical partition (items put or deleted, their index terms added and
 *       removed, its change records, its new statistics), all or nothing, and only if the partition is still at the
 *       version the writer read. Concurrency is decided here, by the engine, never by a lock inside one TetraDB
 *       process, so several servers can share one store.</li>
 *   <li>Point reads and id-range scans of one partition; index seeks across the partitions of a container; the change
 *       records of one partition in lsn order; the partitions of a key range (a feed range or a physical partition)
 *       with their versions and statistics, so a change-feed reader finds what changed since a version it saw.</li>
 * </ul>
 * Versions are per logical partition and grow: the core uses the partition's last lsn (0: never written).
 */
public interface PartitionStore extends AutoCloseable {

    /** The partition's version: 0 for a partition never written. */
    default long version(LogicalPartition p) {
        return stats(p).version();
    }

    /** The partition's statistics ({@link PartitionStats#EMPTY} when never written). */
    PartitionStats stats(LogicalPartition p);

    /**
     * Applies {@code write} atomically and in isolation, and sets its partition's version to {@code write.next()}, if
     * and only if the version is {@code write.expected()}. Nothing is written otherwise: the result says the version
     * found.
     */
    ApplyResult apply(PartitionWrite write);

    /** Returns once the write of an {@link ApplyResult#durableTicket()} is durable (engines that sync later). */
    default void awaitDurable(long ticket) {
    }

    /** The caller will {@link #awaitDurable(long)} {@code ticket} later: see {@code StorageEngine.promiseAwait}. */
    default void promiseAwait(long ticket) {
    }

    /** The item's stored bytes, or null. */
    byte[] read(LogicalPartition p, String id);

    /**
     * Point reads of several items (of any partitions of one container), in order; null where absent. An engine
     * with round trips sends them at once.
     */
    default List<byte[]> readAll(List<LogicalPartition> partitions, List<String> ids) {
        List<byte[]> out = new java.util.ArrayList<>(ids.size());
        for (int i = 0; i < ids.size(); i++) {
            out.add(read(partitions.get(i), ids.get(i)));
        }
        return out;
    }

    /**
     * A key among the partition's {@link PartitionWrite#sideWrites()} (the core's unique-key entries, for one), as
     * the partition's last apply left it: its value, or null.
     */
    byte[] readDerived(LogicalPartition p, io.tetradb.core.storage.Space space, byte[] key);

    // ---- derived keys by range (graph adjacency; see document-core/README.md "Derived keys by range") ----------

    /**
     * The partition's own {@link PartitionWrite#sideWrites()} of {@code space} with {@code from <= key < to}, in
     * unsigned key order, at most {@code limit}, as their last applies left them; the range lies within the keys
     * starting with the partition's {@link LogicalPartition#prefix()}, which only it writes: a graph vertex's
     * out-edges' adjacency entries, written with the edge in the vertex's own partition.
     */
    default List<io.tetradb.core.storage.KeyValue> scanDerived(LogicalPartition p, io.tetradb.core.storage.Space space,
                                                               byte[] from, byte[] to, int limit) {
        throw new UnsupportedOperationException("scanDerived is not implemented by " + getClass().getName());
    }

    /**
     * Side writes of {@code space} written by any partition of {@code container}, with {@code from <= key < to} (to
     * null: to the end of the container's keys), in unsigned key order, at most {@code limit}: keys addressed by
     * something other than the partition that wrote them (an edge's adjacency entry under its target vertex, written
     * in the edge's partition; a TTL expiry entry, ordered by expiry time across the container). Only for side
     * writes {@link #seekableSide} accepts; a container's keys of one space share their first 4 bytes, and {@code to}
     * null (to the end of the container's keys) is for keys starting with the container's id only.
     */
    default List<io.tetradb.core.storage.KeyValue> seekDerived(int container, io.tetradb.core.storage.Space space,
                                                               byte[] from, byte[] to, int limit) {
        throw new UnsupportedOperationException("seekDerived is not implemented by " + getClass().getName());
    }

    /**
     * The side writes {@link #seekDerived} serves (an engine indexes their keys across partitions): graph adjacency
     * entries ({@code collId · …}) and TTL expiry entries (META {@code 20 · collId · expiresAt · EPK · pk · id}).
     */
    static boolean seekableSide(io.tetradb.core.storage.Space space, byte[] key) {
        return space == io.tetradb.core.storage.Space.ADJACENCY
                || space == io.tetradb.core.storage.Space.META && key.length > 0 && key[0] == PartitionLayout.EXPIRY;
    }

    /** Items with {@code from <= id < to} (null: unbounded) in id order (UTF-8 bytes), at most {@code limit}. */
    List<StoredItem> scan(LogicalPartition p, String from, String to, int limit);

    /**
     * Index entries of {@code container} across its partitions, each {@code term · partition key · id} (id in UTF-8:
     * the core's index key without its container id), with {@code fromTerm <= entry < toTerm} in unsigned byte order
     * (null: to the end), in that order, at most {@code limit}. A term prefix {@code t} is the range {@code [t,
     * t+1)}.
     */
    List<byte[]> seek(int container, byte[] fromTerm, byte[] toTerm, int limit);

    /** The partition's change records with an lsn above {@code afterLsn}, in lsn order, at most {@code limit}. */
    List<ChangeRecord> changes(LogicalPartition p, long afterLsn, int limit);

    /**
     * The logical partitions of {@code container} whose key is in {@code [fromKey, toKey)} (null: unbounded), with their
     * statistics and versions, in key order: what a feed range or a physical partition (an EPK range) holds.
     */
    List<PartitionVersion> partitions(int container, byte[] fromKey, byte[] toKey);

    /**
     * Deletes the partition's change records of these lsns (the feed pruner's: superseded records and tombstones),
     * for an engine whose records the embedded pruner does not reach; deleting an absent one is no error.
     */
    default void deleteChanges(LogicalPartition p, List<Long> lsns) {
        throw new UnsupportedOperationException("this engine's change records are pruned by the embedded pruner");
    }

    /**
     * Removes every partition of {@code container} (a deleted container: its number is never given out again), for
     * an engine whose rows the deletion's own write does not remove; idempotent. The embedded engine's go with the
     * deletion's range deletes (nothing to do here).
     */
    default void dropContainer(int container) {
    }

    @Override
    void close();
}

package io.tetradb.core.reads;

import io.tetradb.core.storage.KeyCursor;
import io.tetradb.core.storage.KeyValue;
import io.tetradb.core.storage.Space;

import java.util.List;
import java.util.function.Predicate;

/**
 * Where a container's item reads go: the one seam between the core and the storage of its logical partitions. The
 * core speaks in the keys it already computes (the embedded layout, {@code storage.partition.PartitionLayout}: DOCS
 * {@code collId · EPK · pk · id}, INDEX {@code collId · term · EPK · pk · id}, META {@code 04 · collId · EPK · pk},
 * FEED {@code collId · 'S' · seq}), so the embedded implementation ({@link EmbeddedItemReads}) hands them to RocksDB
 * as before, and {@link ContractItemReads} turns them into the logical-partition contract's calls (read, scan, seek,
 * stats, partitions, changes) for an engine with another layout (Cassandra).
 */
public interface ItemReads {

    /** A point read by DOCS key: the stored bytes, or null. */
    byte[] item(byte[] docKey);

    /** Point reads by DOCS keys (any partitions of the container), in order; null where absent. */
    List<byte[]> items(List<byte[]> docKeys);

    /** DOCS entries with {@code from <= key < to} (to null: to the end of the container), in key order or reversed. */
    KeyCursor items(byte[] from, byte[] to, boolean reverse);

    /** Visits DOCS entries of {@code [from, to)} in key order until the visitor returns false. */
    default void scanItems(byte[] from, byte[] to, Predicate<KeyValue> visitor) {
        try (KeyCursor c = items(from, to, false)) {
            while (c.next()) {
                if (!visitor.test(new KeyValue(c.key(), c.value()))) {
                    return;
                }
            }
        }
    }

    /** INDEX entries with {@code from <= key < to} (to null: to the end of the container), in order or reversed. */
    KeyCursor entries(byte[] from, byte[] to, boolean reverse);

    /** Visits INDEX entries of {@code [from, to)} in key order until the visitor returns false. */
    default void scanEntries(byte[] from, byte[] to, Predicate<KeyValue> visitor) {
        try (KeyCursor c = entries(from, to, false)) {
            while (c.next()) {
                if (!visitor.test(new KeyValue(c.key(), c.value()))) {
                    return;
                }
            }
        }
    }

    /** A logical partition's statistics (bytes, items, lsn: 24 bytes) by its META key, or null when never written. */
    byte[] partitionStats(byte[] statsKey);

    /** Visits the statistics of the logical partitions whose META keys are in {@code [from, to)}, in key order. */
    void scanPartitionStats(byte[] from, byte[] to, Predicate<KeyValue> visitor);

    /**
     * A key the partition's own transactions derive and write beside its items (unique-key entries: META
     * {@code 22 · collId · EPK · pk · …}), by the partition's {@code collId · EPK · pk} prefix; null when absent.
     */
    byte[] derived(byte[] lpPrefix, Space space, byte[] key);

    /**
     * Visits, in key order until the visitor returns false, the keys of {@code space} in {@code [from, to)} that the
     * logical partition {@code lpPrefix} ({@code collId · EPK · pk}) derived and wrote beside its items (a vertex's
     * out-edge adjacency entries: the edge lives in the vertex's partition).
     */
    void scanPartitionDerived(byte[] lpPrefix, Space space, byte[] from, byte[] to, Predicate<KeyValue> visitor);

    /**
     * Visits, in key order until the visitor returns false, the keys of {@code space} in {@code [from, to)} that any
     * partition of container {@code collId} derived (a vertex's in-edge adjacency entries, written in the edges'
     * partitions; TTL expiry entries).
     */
    void scanContainerDerived(int collId, Space space, byte[] from, byte[] to, Predicate<KeyValue> visitor);

    /**
     * The change records of FEED keys {@code [fromKey, toKey)} (one container's sequence numbers), in sequence order,
     * as FEED entries; {@code fromPartition}/{@code toPartition} (the partitions' {@code EPK · pk} bounds, null:
     * unbounded) say which logical partitions the reader wants, so an engine that keeps records per partition reads
     * only those (others may still be returned: the reader keeps its scope).
     */
    KeyCursor changes(byte[] fromKey, byte[] toKey, byte[] fromPartition, byte[] toPartition);

    /**
     * The logical-partition contract these reads go through, or null when they read the embedded keys directly (the
     * change feed then reads per partition by lsn: {@code feed.ContractFeedRead}).
     */
    default io.tetradb.core.storage.partition.PartitionStore partitionStore() {
        return null;
    }

    /** True when the reads go to the embedded engine's keys directly (the fast paths need no translation). */
    default boolean embedded() {
        return false;
    }
}

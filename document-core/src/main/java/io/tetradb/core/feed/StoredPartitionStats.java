package io.tetradb.core.feed;

import io.tetradb.core.storage.KeyCursor;
import io.tetradb.core.storage.KeyValue;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.StorageEngine;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.Predicate;

/**
 * Where every reader of a logical partition's statistics on the embedded engine reads them (core-stats, issue 17).
 * A transaction of the core's own store writes the statistics after it into the value of its partition index key
 * ({@code collId · 'P' · EPK · pk · seq}, a key it writes anyway) and writes the META record
 * {@code 04 · collId · EPK · pk} only now and then (the partition's first write, every N-th, a transaction without
 * change records); the feed pruner, when it removes partition index keys carrying statistics newer than the record,
 * writes them into the record in the same atomic write ({@link PartitionRunKeys}). So a partition's statistics are
 * those of the record or of its newest partition index key, whichever has the higher lsn (the record on a tie: an
 * index rebuild rewrites the record's bytes at the same lsn). Directories written before carry none: the record reads
 * unchanged.
 *
 * <p>Order of the two reads: the newest index key first, then the record. The pruner deletes a key and writes what it
 * carried into the record in one write, so a reader that found the key gone finds the record updated. A point read
 * ({@link #read}) first asks whether the record exists at all: a partition's first write puts it and only the
 * container's deletion removes it, so without one the partition was never written and no key carries anything (a
 * partition's first transaction then costs one get, not a reverse seek over the feed family). Every reader of many
 * partitions (the open's recount, a split, {@code readPartitionStatistics}, the partition contract's listing) reads
 * them through {@link #scan}: two merged forward scans, the index keys before the records.
 *
 * <p>Statistics layout (the record's): bytes(8) · items(8) · lsn(8).
 */
public final class StoredPartitionStats {
    private StoredPartitionStats() {
    }

    /**
     * The partition's statistics (24 bytes, or null when it has none) under its record key
     * {@code statsKey = 04 · collId(4) · EPK · pk}.
     */
    public static byte[] read(StorageEngine engine, byte[] statsKey) {
        // batch-cpu: a partition without a record was never written (its first write puts the record, only a
        // container's deletion removes it), so it carries nothing either: one get instead of a reverse seek over the
        // feed family — the cost of every first write of a partition. With a record, the two reads in their order.
        if (engine.get(Space.META, statsKey) == null) {
            return null;
        }
        byte[] carried = newestCarried(engine, collId(statsKey), Arrays.copyOfRange(statsKey, 5, statsKey.length));
        return newer(engine.get(Space.META, statsKey), carried);
    }

    /**
     * The statistics records of META in {@code [from, to)} (keys {@code 04 · collId · EPK · pk} of one container), each
     * handed to {@code visitor} with the partition's statistics as {@link #read} finds them, until the visitor returns
     * false — in two forward scans merged (the partition index keys, then the records) instead of a reverse seek and a
     * get per partition: a container's open recounts every partition (a Tables container holds one per entity).
     * The index keys are read before the records, as in {@link #read}. A partition whose index keys run longer than
     * {@link #LONG_RUN} (a change feed retention keeps many) is read by {@link #read} instead, and both scans start
     * again after it, so a scan never reads more than that many keys of one partition.
     */
    public static void scan(StorageEngine engine, byte[] from, byte[] to, Predicate<KeyValue> visitor) {
        int collId = collId(from);
        byte[] records = from;
        byte[] keys = FeedKeys.partitionPrefix(collId, lpOf(from));
        for (byte[] longRun; (longRun = scanFrom(engine, collId, records, keys, to, visitor)) != null; ) {
            records = Arrays.copyOf(longRun, longRun.length + 1); // the smallest record key after it
            keys = FeedKeys.partitionRecord(collId, lpOf(longRun), -1L); // above every key of that partition
        }
    }

    /** Index keys of one partition the merged {@link #scan} reads before it seeks past the rest. */
    public static final int LONG_RUN = 64;

    /**
     * The merged scan from record key {@code records} and index key {@code keys}; the record key of a partition with a
     * long run (visited: start again after it), or null at the end or when the visitor stopped.
     */
    private static byte[] scanFrom(StorageEngine engine, int collId, byte[] records, byte[] keys, byte[] to,
                                   Predicate<KeyValue> visitor) {
        // the upper bound is the container's whole partition index: a partition just below `to` keeps all its keys
        try (KeyCursor index = engine.cursor(Space.FEED, keys, FeedKeys.partitionIndexedSince(collId), false);
             KeyCursor meta = engine.cursor(Space.META, records, to, false)) {
            boolean more = index.next();
            while (meta.next()) {
                byte[] record = meta.key();
                while (more && compareLp(index.key(), record) < 0) { // a partition without a record: never read
                    more = index.next();
                }
                byte[] newest = null;
                for (int run = 0; more && compareLp(index.key(), record) == 0; run++) {
                    if (run == LONG_RUN) {
                        byte[] stats = read(engine, record);
                        return visitor.test(new KeyValue(record, stats == null ? meta.value() : stats)) ? record : null;
                    }
                    newest = index.value();
                    more = index.next();
                }
                byte[] stats = newer(meta.value(), newest == null ? null : FeedKeys.carriedStats(newest));
                if (!visitor.test(new KeyValue(record, stats))) {
                    return null;
                }
            }
            return null;
        }
    }

    /** A record key's logical partition ({@code EPK · pk}, after {@code 04 · collId}). */
    private static byte[] lpOf(byte[] recordKey) {
        return Arrays.copyOfRange(recordKey, 5, recordKey.length);
    }

    /** A partition index key's logical partition against a record key's, unsigned. */
    private static int compareLp(byte[] indexKey, byte[] recordKey) {
        return Arrays.compareUnsigned(indexKey, 5, indexKey.length - 8, recordKey, 5, recordKey.length);
    }

    /** The statistics carried by the newest partition index key of {@code logicalPartition} ({@code EPK · pk}), or null. */
    public static byte[] newestCarried(StorageEngine engine, int collId, byte[] logicalPartition) {
        try (KeyCursor c = engine.cursor(Space.FEED, FeedKeys.partitionPrefix(collId, logicalPartition),
                FeedKeys.partitionRecord(collId, logicalPartition, -1L), true)) {
            return c.next() ? FeedKeys.carriedStats(c.value()) : null;
        }
    }

    /** Of a record's value and carried statistics, the one with the higher lsn (the record on a tie); either may be null. */
    static byte[] newer(byte[] record, byte[] carried) {
        if (carried == null) {
            return record;
        }
        return record != null && lsn(record) >= lsn(carried) ? record : carried;
    }

    /** The lsn of a statistics value (its third long). */
    static long lsn(byte[] stats) {
        return ByteBuffer.wrap(stats, 16, 8).getLong();
    }

    private static int collId(byte[] statsKey) {
        return ByteBuffer.wrap(statsKey, 1, 4).getInt();
    }
}

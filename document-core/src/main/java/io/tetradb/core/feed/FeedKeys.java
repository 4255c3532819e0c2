package io.tetradb.core.feed;

import java.nio.ByteBuffer;

/**
 * Keys of the FEED space. Every key starts with the 4-byte container id (so deleting a container drops its feed);
 * the byte after it tells the kind. Records written before this layout ({@code collId · EPK · pk · lsn}) have an EPK
 * byte there, always below 0x40, so they never collide and the pruner drops them.
 * <pre>
 * collId · 'S' · seq(8)  → {@link ChangeRecord}
 * collId · 'M'           → {@link ChangeFeedPolicy}
 * collId · 'P' · EPK · pk · seq(8) → nothing, or count(4), or count(4) · statistics(24): the partition index, so a
 *                          feed read of one logical partition (or hierarchical key prefix: an EPK prefix) reads only
 *                          its keys. A key stands for the run of {@code count} records numbered
 *                          {@code seq - count + 1 … seq} (all of that partition, written by one transaction); no value
 *                          is a run of one (the layout before runs, one key per record: such directories read
 *                          unchanged). core-stats: the partition's statistics after the transaction may ride along
 *                          (bytes · items · lsn, the META record's layout; see {@link StoredPartitionStats})
 * collId · 'V' · EPK · pk · lsn(8) → the DOCS value (header included) of the item's version at {@code lsn}, written by
 *                          the transaction that replaced or deleted it and owned by that transaction's record
 *                          ({@link ChangeRecord#PREVIOUS_AT_LSN}); the pruner deletes it with its owner
 *                          (feed-images: all-versions records hold no copy of an image the store holds)
 * collId · 'Q'           → seq(8): every record numbered above it has its partition key (records of directories
 *                          written before the index have none; reads that start below it scan the sequence)
 * 00000000 · 'H'         → seq(8): the sequence's high-water mark, written when a container (and its records) is
 *                          deleted, so the sequence never goes back after a restart
 * </pre>
 */
final class FeedKeys {
    static final byte RECORD = 'S';
    static final byte POLICY = 'M';
    static final byte LEGACY_END = 0x40;

    private FeedKeys() {
    }

    static final byte PARTITION = 'P';
    static final byte PARTITION_SINCE = 'Q';
    static final byte VERSION = 'V';

    /** {@code collId · 'V' · logicalPartition · lsn}: the image of the logical partition's item version {@code lsn}. */
    static byte[] versionImage(int collId, byte[] logicalPartition, long lsn) {
        return versionImage(collId, logicalPartition, 0, logicalPartition.length, lsn);
    }

    /** As {@link #versionImage(int, byte[], long)} with the logical partition at {@code lp[from, from + length)}. */
    static byte[] versionImage(int collId, byte[] lp, int from, int length, long lsn) {
        return ByteBuffer.allocate(5 + length + 8).putInt(collId).put(VERSION).put(lp, from, length).putLong(lsn)
                .array();
    }

    /** {@code collId · 'V'}: the first version-image key of a container (they end before {@code collId · 'W'}). */
    static byte[] versionImages(int collId) {
        return ByteBuffer.allocate(5).putInt(collId).put(VERSION).array();
    }

    static byte[] versionImagesEnd(int collId) {
        return ByteBuffer.allocate(5).putInt(collId).put((byte) (VERSION + 1)).array();
    }

    /** The lsn of a version-image key. */
    static long lsnOfVersionImage(byte[] key) {
        return ByteBuffer.wrap(key, key.length - 8, 8).getLong();
    }

    /** {@code collId · 'P' · logicalPartition · seq}: a record's key in the partition index. */
    static byte[] partitionRecord(int collId, byte[] logicalPartition, long seq) {
        byte[] key = head(collId, PARTITION, logicalPartition.length + 8); // item-copies: every write makes one
        System.arraycopy(logicalPartition, 0, key, 5, logicalPartition.length);
        putLong(key, 5 + logicalPartition.length, seq);
        return key;
    }

    /**
     * item-copies: {@code collId · kind} and {@code more} zero bytes, in one array (the keys and values every write
     * makes were built through a {@code ByteBuffer}, one more object each).
     */
    private static byte[] head(int collId, byte kind, int more) {
        byte[] b = new byte[5 + more];
        putInt(b, 0, collId);
        b[4] = kind;
        return b;
    }

    private static void putInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }

    private static void putLong(byte[] b, int at, long v) {
        putInt(b, at, (int) (v >>> 32));
        putInt(b, at + 4, (int) v);
    }

    /** {@code collId · 'P' · prefix}: the partition index's keys of a logical partition or an EPK prefix. */
    static byte[] partitionPrefix(int collId, byte[] prefix) {
        return ByteBuffer.allocate(5 + prefix.length).putInt(collId).put(PARTITION).put(prefix).array();
    }

    /** The value of a partition index key standing for {@code count} records: none for one, else the count. */
    static byte[] runValue(int count) {
        if (count == 1) {
            return NO_VALUE;
        }
        byte[] b = new byte[4];
        putInt(b, 0, count);
        return b;
    }

    /** As {@link #runValue(int)}, carrying the partition's statistics after the transaction ({@code stats}: 24 bytes). */
    static byte[] runValue(int count, byte[] stats) {
        byte[] b = new byte[4 + STATS_BYTES];
        putInt(b, 0, count);
        System.arraycopy(stats, 0, b, 4, STATS_BYTES);
        return b;
    }

    static final int STATS_BYTES = 24;

    /** The statistics a partition index key's value carries, or null (a key without them: every key before core-stats). */
    static byte[] carriedStats(byte[] value) {
        return value == null || value.length < 4 + STATS_BYTES ? null
                : java.util.Arrays.copyOfRange(value, 4, 4 + STATS_BYTES);
    }

    /** How many records a partition index key (its value) stands for: they end at its own number. */
    static int runCount(byte[] value) {
        return value == null || value.length == 0 ? 1 : ByteBuffer.wrap(value).getInt();
    }

    private static final byte[] NO_VALUE = new byte[0];

    /** The last record number a partition index key stands for (its run ends there). */
    static long seqOfPartitionRecord(byte[] key) {
        return ByteBuffer.wrap(key, key.length - 8, 8).getLong();
    }

    static byte[] partitionIndexedSince(int collId) {
        return ByteBuffer.allocate(5).putInt(collId).put(PARTITION_SINCE).array();
    }

    static byte[] record(int collId, long seq) {
        byte[] key = head(collId, RECORD, 8);
        putLong(key, 5, seq);
        return key;
    }

    static long seqOf(byte[] key) {
        return ByteBuffer.wrap(key, 5, 8).getLong();
    }

    static byte[] highWater() {
        return ByteBuffer.allocate(5).putInt(0).put((byte) 'H').array();
    }

    static byte[] policy(int collId) {
        return ByteBuffer.allocate(5).putInt(collId).put(POLICY).array();
    }

    static byte[] legacyStart(int collId) {
        return ByteBuffer.allocate(4).putInt(collId).array();
    }

    static byte[] legacyEnd(int collId) {
        return ByteBuffer.allocate(5).putInt(collId).put(LEGACY_END).array();
    }
}

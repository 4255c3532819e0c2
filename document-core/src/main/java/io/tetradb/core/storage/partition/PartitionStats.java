package io.tetradb.core.storage.partition;

/**
 * What an engine keeps per logical partition beside its items, written in the same apply: logical bytes (items and
 * their index terms), item count and the version (the last lsn handed out in it). 24 bytes big-endian, the core's
 * {@code LogicalPartitionStats} layout.
 */
public record PartitionStats(long bytes, long items, long version) {
    public static final PartitionStats EMPTY = new PartitionStats(0, 0, 0);

    public static PartitionStats decode(byte[] v) {
        if (v == null) {
            return EMPTY;
        }
        return new PartitionStats(PartitionLayout.getLong(v, 0), PartitionLayout.getLong(v, 8),
                PartitionLayout.getLong(v, 16));
    }

    public byte[] encode() {
        byte[] out = new byte[24];
        PartitionLayout.putLong(out, 0, bytes);
        PartitionLayout.putLong(out, 8, items);
        PartitionLayout.putLong(out, 16, version);
        return out;
    }
}

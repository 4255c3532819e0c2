package io.tetradb.core.store;

/**
 * What the store keeps per logical partition, written in the same atomic batch as its items: logical bytes, item
 * count and the last lsn (log sequence number) handed out in it.
 */
record LogicalPartitionStats(long bytes, long items, long lsn) {
    static final LogicalPartitionStats EMPTY = new LogicalPartitionStats(0, 0, 0);

    static LogicalPartitionStats decode(byte[] v) {
        if (v == null) {
            return EMPTY;
        }
        return new LogicalPartitionStats(Keys.readLong(v, 0), Keys.readLong(v, 8), Keys.readLong(v, 16));
    }

    byte[] encode() {
        byte[] out = new byte[24];
        put(out, 0, bytes);
        put(out, 8, items);
        put(out, 16, lsn);
        return out;
    }

    private static void put(byte[] b, int at, long v) {
        for (int i = 0; i < 8; i++) {
            b[at + i] = (byte) (v >>> (56 - 8 * i));
        }
    }
}

package io.tetradb.core.partition;

/**
 * Recently used one-level string partition key values, so that a request naming a hot key reuses its encoding and
 * effective partition key instead of hashing it again (MurmurHash3 and the arrays around it were about a quarter of
 * a point read's own Java time). Exact: a value is found only under a string equal to the one it was built from, and
 * a {@link PartitionKeyValue} is immutable, so sharing one between requests changes nothing they see. Bounded: a
 * fixed table of {@value #SETS} sets of two entries (about 200 bytes each when full); a newcomer evicts its set's
 * older entry. The EPK depends on the value alone, not on the container, so one table serves every container.
 * Entries are immutable records: threads may race on a set and at worst compute a value again.
 */
final class PartitionKeyCache {
    private static final int SETS = 8192; // a power of two
    /** Longer keys are computed every time: they are rare, and a long string would be kept by the table. */
    static final int MAX_CACHED_LENGTH = 64;
    private static final Entry[] TABLE = new Entry[2 * SETS];

    private record Entry(String key, PartitionKeyValue value) {
    }

    private PartitionKeyCache() {
    }

    /** The cached value of the one-level key {@code s}, or null. */
    static PartitionKeyValue get(String s) {
        int at = slot(s);
        Entry e = TABLE[at];
        if (e != null && e.key.equals(s)) {
            return e.value;
        }
        e = TABLE[at + 1];
        return e != null && e.key.equals(s) ? e.value : null;
    }

    /** Keeps {@code value} as the one-level key {@code s}'s, the set's newest entry. */
    static void put(String s, PartitionKeyValue value) {
        int at = slot(s);
        TABLE[at + 1] = TABLE[at];
        TABLE[at] = new Entry(s, value);
    }

    private static int slot(String s) {
        int h = s.hashCode();
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        h ^= h >>> 13;
        return (h & (SETS - 1)) << 1;
    }
}

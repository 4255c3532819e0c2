package io.tetradb.core.store;

/**
 * The deterministic request-unit (RU) model, calibrated to Cosmos DB's published figures (see document-core/README.md):
 * a point read costs 1 RU at 1 KB and 10 RU at 100 KB; a write of a 1 KB item with default indexing about 5.7 RU and of
 * a 100 KB item about 50 RU, growing with the index entries it writes.
 */
public final class RequestCharge {
    private static final double KB = 1024.0;
    /** A point read of 1 KB. */
    static final double READ_BASE = 1;
    /** Each KB read beyond the first: (10 − 1) / 99, so that 100 KB costs 10 RU. */
    static final double READ_PER_KB = 9.0 / 99;
    /** A write of 1 KB before its index entries. */
    static final double WRITE_BASE = 4.9;
    /** Each KB written beyond the first: (50 − 5.7) / 99, so that 100 KB with the same entries costs 50 RU. */
    static final double WRITE_PER_KB = 44.3 / 99;
    /** Each index entry written, removed or read. */
    static final double PER_INDEX_ENTRY = 0.1;

    private RequestCharge() {
    }

    /** Kilobytes beyond the first (an item under 1 KB costs what 1 KB costs). */
    private static double extraKb(long bytes) {
        return Math.max(0, bytes / KB - 1);
    }

    private static double round(double ru) {
        return Math.round(ru * 100) / 100.0;
    }

    /** A point read: 1 RU for 1 KB, 10 RU for 100 KB, linear between. */
    public static double read(long bytes) {
        return round(READ_BASE + READ_PER_KB * extraKb(bytes));
    }

    /** A read that found nothing, or a 304. */
    public static double miss() {
        return 1;
    }

    /** Writing an item of {@code bytes}, before its index entries ({@link #indexEntries(int)}). */
    public static double write(long bytes) {
        return round(WRITE_BASE + WRITE_PER_KB * extraKb(bytes));
    }

    /** Writing an item of {@code bytes} with {@code entries} index entries written or removed, rounded as reported. */
    public static double write(long bytes, int entries) {
        return round(write(bytes) + indexEntries(entries));
    }

    /** A query page: its base and bytes read plus its index work, rounded as reported. */
    public static double query(long bytesLoaded, long indexEntriesRead) {
        return round(query(bytesLoaded) + indexEntries((int) Math.min(Integer.MAX_VALUE, indexEntriesRead)));
    }

    /** Deleting an item of {@code bytes} (plus the entries it removes). */
    public static double delete(long bytes) {
        return write(bytes);
    }

    /** A query page before its index work: 2 RU, plus 0.1 RU per started KB of items read. */
    public static double query(long bytesLoaded) {
        return round(2 + 0.1 * Math.ceil(bytesLoaded / KB));
    }

    /** Index work: 0.1 RU for each entry written, removed or read. */
    public static double indexEntries(int entries) {
        return round(entries * PER_INDEX_ENTRY);
    }

    /** A patch: the write of the new version plus reading the old one. */
    public static double patch(long oldBytes, long newBytes) {
        return round(write(newBytes) + read(oldBytes) - 1);
    }

    /** A read's charge at a consistency level's factor (2 for strong and bounded staleness, as Cosmos DB). */
    public static double atFactor(double charge, int factor) {
        return factor == 1 ? charge : round(charge * factor);
    }

    /** A change feed page: 1 RU when it is empty (a 304), else 1 RU per KB of items returned, at least 1. */
    public static double feedPage(long bytesReturned, int changes) {
        return changes == 0 ? miss() : round(Math.max(1, bytesReturned / KB));
    }

    /** Cosmos DB charges reads at strong and bounded-staleness consistency twice (they read two replicas). */
    public static double atConsistency(double charge, String consistencyLevel) {
        if (consistencyLevel == null) {
            return charge;
        }
        String level = consistencyLevel.replace("_", "").toLowerCase(java.util.Locale.ROOT);
        return level.equals("strong") || level.equals("boundedstaleness") ? round(charge * 2) : charge;
    }
}

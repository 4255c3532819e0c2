package io.tetradb.core.store;

/**
 * The deterministic request-unit (RU) model; see document-core/README.md for the formula and its reasons.
 */
public final class RequestCharge {
    private static final double KB = 1024.0;

    private RequestCharge() {
    }

    /** A point read: 1 RU per started KB, at least 1. */
    public static double read(long bytes) {
        return Math.max(1, Math.ceil(bytes / KB));
    }

    /** A read that found nothing, or a 304. */
    public static double miss() {
        return 1;
    }

    /** Writing an item of {@code bytes}: 5 RU per started KB, at least 5 (index terms are added by the engine). */
    public static double write(long bytes) {
        return 5 * Math.max(1, Math.ceil(bytes / KB));
    }

    /** Deleting an item of {@code bytes}. */
    public static double delete(long bytes) {
        return write(bytes);
    }

    /** A query (provisional until the planner reports index work): 2 RU, plus 0.1 RU per started KB of items read. */
    public static double query(long bytesLoaded) {
        return Math.round((2 + 0.1 * Math.ceil(bytesLoaded / KB)) * 100) / 100.0;
    }

    /** Maintaining index entries: 0.05 RU for each entry written or removed. */
    public static double indexEntries(int entries) {
        return Math.round(entries * 5) / 100.0;
    }

    /** A patch: the write of the new version plus reading the old one. */
    public static double patch(long oldBytes, long newBytes) {
        return write(newBytes) + read(oldBytes) - 1;
    }
}

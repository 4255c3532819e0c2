package io.tetradb.core.store;

/**
 * Which logical partitions of one container may hold a statistics record (META {@code 04 · collId · EPK · pk}), so
 * that a transaction of a partition never written skips the record's get (batch-stats, issue 17: every batch of the
 * core benchmark goes to a new device, and that get was ≈ 7 % of a 100-create batch's CPU).
 *
 * <p>Exact in one direction only: {@link #mayHold} false means the partition has no record; true means read it. It
 * holds a 32-bit fingerprint of each partition's {@code collId · EPK · pk} that may have a record, so two partitions
 * sharing a fingerprint only cost the second one a read. Why "false" is exact:
 * <ul>
 * <li>a record, once written, stays until the container is deleted (a partition emptied by deletes or TTL keeps its
 * record at 0 items; the feed pruner rewrites existing records only), so the filter only ever grows;</li>
 * <li>it is complete when it starts: a new container has no record ({@link #complete()} at its creation), an opened
 * one is filled by the open's recount, which visits every record ({@code CoreStore.recountPartitions}), before any
 * transaction of the container runs;</li>
 * <li>every writer adds the partition <em>before</em> it may write the record, under the partition's lock: a
 * transaction when it starts from no statistics (lsn 0: only such a transaction writes a partition's first record —
 * ordinary writes, batches, bulk chunks, TTL purges, scripts), and every writer outside the transactions through
 * {@code CoreStore.forgetPartitionStats} (index rebuild chunks, the shared engine's rebuilds, the adjacency
 * backfill, a failed apply).</li>
 * </ul>
 * Used only while {@code CoreStore.versionsReadUnderOwnLock()} (this process writes the engine alone); it is filled
 * whatever the engine, so it stays complete if a test swaps the partition store and back.
 *
 * <p>Memory: 4 bytes per partition at a load of at most 1/2 (≈ 8 MB for a million partitions); a few KB per container.
 */
final class StatsRecordFilter {
    private static final int SEGMENTS = 32;
    private final Segment[] segments = new Segment[SEGMENTS];
    private volatile boolean complete;

    StatsRecordFilter() {
        for (int i = 0; i < SEGMENTS; i++) {
            segments[i] = new Segment();
        }
    }

    /** Every partition holding a record has been added (the container is new, or the open's recount ended). */
    void complete() {
        complete = true;
    }

    /** False only when the partition {@code lpPrefix} ({@code collId · EPK · pk}) certainly has no statistics record. */
    boolean mayHold(byte[] lpPrefix) {
        if (!complete) {
            return true;
        }
        long h = hash(lpPrefix, 0);
        return segments[segment(h)].contains(fingerprint(h));
    }

    /** The partition may hold a record from now on (call before writing it). */
    void add(byte[] lpPrefix) {
        add(lpPrefix, 0);
    }

    /** The partition of a record key {@code 04 · collId · EPK · pk} holds a record (the open's recount). */
    void addRecordKey(byte[] recordKey) {
        add(recordKey, 1);
    }

    private void add(byte[] bytes, int from) {
        long h = hash(bytes, from);
        segments[segment(h)].add(fingerprint(h));
    }

    private static int segment(long h) {
        return (int) (h >>> 59); // top 5 bits: 32 segments
    }

    /** Never 0 (the table's empty slot). */
    private static int fingerprint(long h) {
        int f = (int) h;
        return f == 0 ? 1 : f;
    }

    /** A 64-bit hash of {@code bytes[from..]} (hierarchical keys share their first EPK levels, so every byte counts). */
    private static long hash(byte[] bytes, int from) {
        long h = 0x9E3779B97F4A7C15L ^ (bytes.length - from);
        for (int i = from; i < bytes.length; i++) {
            h = (h ^ (bytes[i] & 0xFF)) * 0x100000001B3L;
        }
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        return h ^ (h >>> 33);
    }

    /** An open-addressing set of fingerprints (linear probing, grown at half full). */
    private static final class Segment {
        private int[] slots = new int[8];
        private int size;

        synchronized boolean contains(int f) {
            return slots[probe(slots, f)] == f;
        }

        synchronized void add(int f) {
            if (insert(slots, f)) {
                size++;
                if (2 * size > slots.length) {
                    int[] bigger = new int[slots.length * 2];
                    for (int s : slots) {
                        if (s != 0) {
                            insert(bigger, s);
                        }
                    }
                    slots = bigger;
                }
            }
        }

        /** Whether {@code f} was new to {@code table} (then it is in it now). */
        private static boolean insert(int[] table, int f) {
            int at = probe(table, f);
            if (table[at] == f) {
                return false;
            }
            table[at] = f;
            return true;
        }

        /** Where {@code f} is in {@code table}, or the empty slot it would go to. */
        private static int probe(int[] table, int f) {
            int mask = table.length - 1;
            int i = mix(f) & mask;
            while (table[i] != f && table[i] != 0) {
                i = (i + 1) & mask;
            }
            return i;
        }

        private static int mix(int f) {
            return f * 0x9E3779B9 >>> 7;
        }
    }
}

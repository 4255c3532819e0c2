package io.tetradb.core.store;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The logical partitions' statistics (bytes, items, lsn) as the last transaction applied to each left them, so a
 * write starts from them instead of reading META {@code 04 · collId · EPK · pk} first (issue 17, core-write).
 *
 * <p>Write-through: every transaction still writes the statistics record in its own atomic batch, so the store is
 * exact after a crash whatever this cache held (it starts empty at each open), and an entry is only ever put after
 * its batch was applied. An entry is exact because every writer of a partition's statistics record either goes
 * through {@link ContainerStore}'s transaction (which puts the statistics it wrote, under the partition's lock) or
 * forgets the entry (index rebuild chunks, a bulk load's transactions, the adjacency backfill); a failed apply
 * forgets it too. Used only while the core's versions are read under its own lock
 * ({@code CoreStore.versionsReadUnderOwnLock()}: the embedded engine, written by this process alone).
 *
 * <p>pw-java (issue 17): an entry also keeps the partition's <em>id bound</em>, bytes no stored item's id exceeds
 * (UTF-8, in {@code CreateCheck.compareIds}' order: length, then unsigned bytes; empty: the partition holds no item;
 * null: unknown), so a create of a larger id — ids handed out in order: Mongo ObjectIds and Int32 counters,
 * time-ordered or sequence ids — needs no read to know it is absent. Exact for the
 * same reason as the statistics: only the transaction that wrote the partition's items puts it, every other writer
 * forgets the entry. Bounds longer than {@value #MAX_BOUND_BYTES} bytes are not kept (unknown instead).
 * <p>id-classes (session 30): and its <em>class bounds</em> ({@link CreateCheck.ClassBounds}), the largest stored id of
 * each class of ids (same length, same first byte) the partition holds, for up to {@value CreateCheck#MAX_CLASSES}
 * classes: an id above its class's bound, or of a class the partition does not hold, cannot be stored, since ids of
 * different classes never equal each other. So creates of one sequence stay unread while another sequence's ids sit
 * above them in the partition (the core benchmark's point-write ids above its batch ids made every later batch read).
 *
 * <p>Bounded: a two-way table of {@value #SLOTS} slots for the whole store (at most ≈ 8 MB of entries); a partition
 * whose slots hold two others is read from the store, as before. Entries of a deleted container are never hit again
 * (container ids are not reused) and leave as other partitions take their slots.
 */
final class PartitionStatsCache {
    static final int SLOTS = 1 << 16;
    /** The longest id bound kept (a longer one is dropped: the partition's creates read, as without the bound). */
    static final int MAX_BOUND_BYTES = 64;
    /** The id bound of a partition holding no item: every id is above it. */
    static final byte[] EMPTY_BOUND = new byte[0];

    /**
     * One partition's statistics and id bound (null: unknown); {@code lp} is its {@code collId · EPK · pk} prefix,
     * {@code slot} where it was put (an entry never moves: {@link #putAt} puts the next one there without a probe).
     */
    record Entry(byte[] lp, LogicalPartitionStats stats, byte[] idBound, byte[][] classBounds, int slot) {
    }

    private final AtomicReferenceArray<Entry> slots = new AtomicReferenceArray<>(SLOTS);

    /** The partition's statistics as its last applied transaction wrote them, or null (read them from the store). */
    LogicalPartitionStats get(byte[] lp) {
        Entry e = entry(lp);
        return e == null ? null : e.stats;
    }

    /** The partition's entry (statistics and id bound), or null. */
    Entry entry(byte[] lp) {
        int i = slot(lp);
        Entry e = slots.get(i);
        if (e != null && Arrays.equals(e.lp, lp)) {
            return e;
        }
        e = slots.get(i ^ 1);
        return e != null && Arrays.equals(e.lp, lp) ? e : null;
    }

    /** After the partition's transaction was applied, under its lock: what it wrote; the id bound unknown. */
    void put(byte[] lp, LogicalPartitionStats stats) {
        put(lp, stats, null, null);
    }

    /**
     * After the partition's transaction was applied, under its lock: what it wrote, and a bound of its items' ids
     * after it (null: unknown; kept only up to {@value #MAX_BOUND_BYTES} bytes), and its class bounds
     * ({@link CreateCheck.ClassBounds}; null: unknown).
     */
    void put(byte[] lp, LogicalPartitionStats stats, byte[] idBound, byte[][] classBounds) {
        if (idBound != null && idBound.length > MAX_BOUND_BYTES) {
            idBound = null;
        }
        int i = slot(lp);
        Entry a = slots.get(i);
        Entry b = slots.get(i ^ 1);
        int at = a == null || Arrays.equals(a.lp, lp) ? i
                : b == null || Arrays.equals(b.lp, lp) ? i ^ 1
                : (stats.lsn() & 1) == 0 ? i : i ^ 1; // both taken by others: either may go
        slots.set(at, new Entry(lp, stats, idBound, classBounds, at));
        int other = at ^ 1; // never two entries of one partition (the older one could be found first)
        Entry o = slots.get(other);
        if (o != null && Arrays.equals(o.lp, lp)) {
            slots.compareAndSet(other, o, null);
        }
    }

    /**
     * pw-next: as {@link #put(byte[], LogicalPartitionStats, byte[], byte[][])} for the transaction that found {@code found}
     * (the partition's entry) at its start and held the partition's lock since: its successor goes into the same
     * slot, without reading either slot again (a point write's second probe was two cache misses into the table).
     * Exact: only the partition's lock holder puts its entry, so the other slot cannot hold one of it; the slot may
     * meanwhile hold another partition's entry (either may go, as in a full put) or none ({@link #forget}: a write
     * outside the transactions, under the same lock, forgets before this transaction starts or after it ends).
     */
    void putAt(Entry found, LogicalPartitionStats stats, byte[] idBound, byte[][] classBounds) {
        if (idBound != null && idBound.length > MAX_BOUND_BYTES) {
            idBound = null;
        }
        slots.set(found.slot, new Entry(found.lp, stats, idBound, classBounds, found.slot));
    }

    /** The partition's record was written by someone else (or maybe not at all): read it from the store next time. */
    void forget(byte[] lp) {
        int i = slot(lp);
        for (int s : new int[]{i, i ^ 1}) {
            Entry e = slots.get(s);
            if (e != null && Arrays.equals(e.lp, lp)) {
                slots.compareAndSet(s, e, null);
            }
        }
    }

    /** Everything forgotten (a test puts another partition store under the core). */
    void clear() {
        for (int i = 0; i < SLOTS; i++) {
            slots.set(i, null);
        }
    }

    static int slot(byte[] lp) {
        int h = Arrays.hashCode(lp);
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        h ^= h >>> 13;
        return h & (SLOTS - 1);
    }
}

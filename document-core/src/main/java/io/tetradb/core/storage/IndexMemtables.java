package io.tetradb.core.storage;

import org.rocksdb.ColumnFamilyOptions;

/**
 * The {@code index} column family's memtables (issue 17, index-keys). Every indexed item inserts ~20 keys into
 * the mutable memtable, and each insert is a skip-list descent whose cost is the cache misses on the way down: a
 * 16 MiB skip list lives in L3, a 2 MiB one mostly in the core's L2. So the family writes into 2 MiB memtables and
 * flushes {@value #MERGED} of them together ({@code min_write_buffer_number_to_merge}): the L0 files, and so the
 * compactions, are the 16 MiB ones as before. A read merges up to {@value #MAX} small skip lists instead of up to
 * 3 large ones. Measured (`IndexEntryCostProbe`, the query benchmark's 2M entries replayed, load 20-28): the
 * writer's {@code RocksDB.write} 557, 576 -> 477, 449 ns per entry; flush and compaction CPU unchanged. Nothing on
 * disk changes (a memtable option): any data directory opens either way. <b>An option, off by default</b>
 * ({@code -Dtetradb.rocks.indexMemtables=small}): in the query benchmark on a quiet machine (4 alternated pairs,
 * load 2-7) the indexed write rate did not move (31.4-32.5k vs 28.6-33.3k items/s) while the unindexed store
 * beside it wrote ~7 % slower, so the ratio's rise (median 0.375 vs 0.345) is not the indexed write's gain.
 *
 * <p>query-idx: <b>only with {@code -Dtetradb.rocks.walRecycling=off}</b>. Atomic flush (the default since core-wal)
 * flushes every family whenever one memtable is switched, so the merge above never happens: each 2 MiB memtable
 * became a flush of {@code docs}, {@code feed}, {@code meta} and {@code index} (measured at 80k items of the query
 * benchmark: 80 flushes per family instead of 10, compaction CPU 4.0 s instead of 1.1 s). The combination is refused
 * when the store opens.
 */
final class IndexMemtables {
    /** One mutable memtable's size. */
    static final long SMALL = 2L << 20;
    /** Immutable memtables merged into one flush: {@code MERGED x SMALL} = the former 16 MiB L0 file. */
    static final int MERGED = 8;
    /** Memtables at most (writes stall there): 8 MiB of room above a pending flush, as 2 x 16 MiB gave 32. */
    static final int MAX = 12;

    private IndexMemtables() {
    }

    /** True with {@code -Dtetradb.rocks.indexMemtables=small}; read at each open. */
    static boolean small() {
        return "small".equals(System.getProperty("tetradb.rocks.indexMemtables", "single"));
    }

    /** Refuses {@code small} with atomic flush (above); called before any RocksDB object is made. */
    static void check() {
        if (small() && WalRecycling.configured() == WalRecycling.ATOMIC) {
            throw new IllegalArgumentException("tetradb.rocks.indexMemtables=small needs "
                    + "-Dtetradb.rocks.walRecycling=off: with atomic flush every 2 MiB index memtable flushes every "
                    + "column family");
        }
    }

    static ColumnFamilyOptions apply(ColumnFamilyOptions options) {
        return small()
                ? options.setWriteBufferSize(SMALL).setMinWriteBufferNumberToMerge(MERGED).setMaxWriteBufferNumber(MAX)
                : options;
    }
}

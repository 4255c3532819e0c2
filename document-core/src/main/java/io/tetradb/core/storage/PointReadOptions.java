package io.tetradb.core.storage;

/**
 * A RocksDB row cache for point reads (issue 17, rocks-point): an item read by id (the document face's
 * {@code readItem}, the Mongo face's find by {@code _id}, a vertex read) ends in a RocksDB get on {@code docs}.
 * {@code -Dtetradb.rocks.rowCachePercent=N} (0–{@value #MAX_ROW_CACHE_PERCENT}, read at each open; <b>0, off, by
 * default</b>): N % of RocksDB's memory (the one figure {@link RocksSettings} is given) becomes a row cache
 * ({@code DBOptions.row_cache}: a get's result per SST file and key, so a hit skips the filter, the index block, the
 * block cache and the data block; files never change, so it is exact), and the block cache keeps the rest: RocksDB's
 * memory stays the one figure. The memtables stay charged to the block cache up to half of the whole figure, as
 * before. Not the default: the core's point read took less CPU with it, the Mongo find by {@code _id} showed nothing
 * beyond its runs' spread (bench/history/core.md, "RocksDB options for point reads"). RocksDB's data block hash
 * index was measured beside it and dropped (no gain: ~3 items per 4 KiB block leave no binary search to save).
 */
final class PointReadOptions {
    static final String ROW_CACHE_PERCENT = "tetradb.rocks.rowCachePercent";
    /** Above half, the memtables (charged up to half of the figure) could leave the block cache no room at all. */
    static final int MAX_ROW_CACHE_PERCENT = 50;

    private PointReadOptions() {
    }

    /** The row cache's share of RocksDB's memory, in percent; 0 (no row cache) unless the property says. */
    static int rowCachePercent() {
        int percent = Integer.getInteger(ROW_CACHE_PERCENT, 0);
        if (percent < 0 || percent > MAX_ROW_CACHE_PERCENT) {
            throw new IllegalArgumentException(ROW_CACHE_PERCENT + " must be between 0 and " + MAX_ROW_CACHE_PERCENT
                    + ": " + percent);
        }
        return percent;
    }

    /** The row cache's bytes out of {@code rocksDbBytes}: 0 when off. */
    static long rowCacheBytes(long rocksDbBytes) {
        return rocksDbBytes / 100 * rowCachePercent();
    }
}

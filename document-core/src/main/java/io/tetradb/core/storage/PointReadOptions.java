package io.tetradb.core.storage;

import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.DataBlockIndexType;

/**
 * Two RocksDB options for the point reads of {@code docs} and {@code meta} (issue 17, rocks-point): an item read by
 * id (the document face's {@code readItem}, the Mongo face's find by {@code _id}, a vertex read) ends in a RocksDB
 * get on {@code docs}. Both are read at each open and <b>off by default</b> (figures: bench/history/core.md, "RocksDB
 * options for point reads").
 *
 * <ul>
 * <li>{@code -Dtetradb.rocks.dataBlockHash=true}: every data block written from then on carries a hash table of its
 * keys ({@code data_block_index_type=kDataBlockBinaryAndHash}, {@value #HASH_UTIL_RATIO} keys per bucket), and a get
 * finds its key in the block by hash instead of a binary search over the block's restart points. A table option of
 * new files only: blocks written without it are read as before, so any directory opens either way.</li>
 * <li>{@code -Dtetradb.rocks.rowCachePercent=N} (0–{@value #MAX_ROW_CACHE_PERCENT}): N % of RocksDB's memory (the
 * one figure {@link RocksSettings} is given) becomes a row cache ({@code DBOptions.row_cache}: a get's result per
 * SST file and key; files never change, so it is exact), and the block cache keeps the rest: RocksDB's memory stays
 * the one figure. The memtables stay charged to the block cache up to half of the whole figure, as before.</li>
 * </ul>
 */
final class PointReadOptions {
    static final String HASH = "tetradb.rocks.dataBlockHash";
    static final String ROW_CACHE_PERCENT = "tetradb.rocks.rowCachePercent";
    /** RocksDB's own default ratio of keys to hash buckets. */
    static final double HASH_UTIL_RATIO = 0.75;
    /** Above half, the memtables (charged up to half of the figure) could leave the block cache no room at all. */
    static final int MAX_ROW_CACHE_PERCENT = 50;

    private PointReadOptions() {
    }

    /** True with {@code -Dtetradb.rocks.dataBlockHash=true}. */
    static boolean dataBlockHash() {
        return Boolean.getBoolean(HASH);
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

    /** The data block hash index on a point-read family's table options, when asked for. */
    static BlockBasedTableConfig apply(BlockBasedTableConfig table) {
        return dataBlockHash()
                ? table.setDataBlockIndexType(DataBlockIndexType.kDataBlockBinaryAndHash)
                        .setDataBlockHashTableUtilRatio(HASH_UTIL_RATIO)
                : table;
    }
}

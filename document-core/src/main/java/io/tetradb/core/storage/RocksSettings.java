package io.tetradb.core.storage;

import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDB;
import org.rocksdb.Statistics;
import org.rocksdb.WriteBufferManager;
import org.rocksdb.WriteOptions;

/**
 * The RocksDB tuning of the embedded engine, in one place so that benchmarks can open a raw RocksDB with exactly
 * the same settings.
 */
public final class RocksSettings implements AutoCloseable {
    static {
        RocksDB.loadLibrary();
    }

    private final Cache blockCache;
    /** rocks-point: the block cache's bytes, and the row cache's share of the same figure (0 and null when off). */
    private final long blockCacheBytes;
    private final long rowCacheBytes;
    private final Cache rowCache;
    private final BloomFilter bloomFilter = new BloomFilter(10);
    /**
     * The memtables of every column family together may hold half the block cache's size, and what they hold is
     * charged to the cache: RocksDB's memory stays near the one figure given (a server's memory budget), however many
     * column families take writes at once (before, up to 3 write buffers of 64 MiB each per family).
     */
    private final WriteBufferManager writeBufferManager;

    /**
     * The index's memtable: every item write inserts ~20 entries into it, and a skip list that stays small stays in
     * the CPU's caches; measured on 100-item batches with 19 entries per item, 16 MiB instead of 64 MiB cuts the
     * writer's CPU per item by a fifth, at no measurable cost in total CPU (the flushes are smaller, not dearer).
     * {@code -Dtetradb.rocks.indexWriteBufferBytes} changes it (index-keys, session 16: with atomic flush every switch
     * of this memtable flushes every family, so its size also sets how often {@code docs} and {@code feed} flush);
     * a memtable option: any directory opens with any size.
     */
    static final long INDEX_WRITE_BUFFER = 16L << 20;

    /** The {@code index} family's memtable size: {@link #INDEX_WRITE_BUFFER} unless the property says (per open). */
    static long indexWriteBuffer() {
        long bytes = Long.getLong("tetradb.rocks.indexWriteBufferBytes", INDEX_WRITE_BUFFER);
        if (bytes < (64L << 10) || bytes > (1L << 30)) {
            throw new IllegalArgumentException("tetradb.rocks.indexWriteBufferBytes must be between 64 KiB and 1 GiB: "
                    + bytes);
        }
        return bytes;
    }

    /**
     * The memtable of every other column family (items, metadata, change feed, adjacency).
     * {@code -Dtetradb.rocks.writeBufferBytes} changes it, for tests that need flushes and WAL switches every few
     * hundred writes (core-wal: {@code WalRecyclingCrashTest}).
     */
    static final long WRITE_BUFFER = Long.getLong("tetradb.rocks.writeBufferBytes", 64L << 20);

    /**
     * Size of the blocks a memtable of 16 MiB or more takes its memory in (RocksDB's default: an eighth of the write
     * buffer, at most 1 MiB). 8 MiB blocks are large enough for malloc to hand out as their own mappings that hold
     * whole 2 MiB transparent huge pages, which it does when glibc is asked to
     * ({@code GLIBC_TUNABLES=glibc.malloc.hugetlb=1}: {@code ./tetradb} and {@code bench/run} set it on Linux). A
     * filling memtable then takes one page fault per 2 MiB instead of 512. On a guest whose 4 KiB faults cost 10–18
     * µs of the faulting thread's CPU (this VM) that was ≈ 0.34 faults and ≈ 4.7 µs per inserted 1 KB document
     * (bench/README, session 24). Without the tunable (tests, other systems) the block size alone changes nothing
     * measurable: memory is still touched a page at a time.
     */
    static final long ARENA_BLOCK = 8L << 20;

    /** {@link #ARENA_BLOCK} for memtables of at least two such blocks; smaller ones keep RocksDB's default (0). */
    static long arenaBlock(long writeBufferBytes) {
        return writeBufferBytes >= 2 * ARENA_BLOCK ? ARENA_BLOCK : 0;
    }

    /**
     * RocksDB's {@code max_total_wal_size}; 0 is RocksDB's default (4x the sum of every family's write buffers, ~4 GiB
     * here). With it the small families (statistics, change feed) keep every WAL alive, so the store never recycles a
     * WAL file and each SYNC write fsyncs a file that is still growing, which also journals the file's new length
     * (the raw anchor, one family, recycles after its first flush). {@code -Dtetradb.rocks.maxTotalWalBytes=134217728}
     * (two item write buffers) makes RocksDB flush the families holding the oldest WAL so it is recycled; measured
     * twice on a heavily loaded machine it showed no gain, and core-write's {@code WriteSplitProbe} found why it is
     * no full cure: each such flush switches to a new WAL before the old one is obsolete, so about every other switch
     * still opens a fresh file (the current WAL was recycled at 100k items, fresh at 200k and 300k). So it stays at the
     * default until measured on a quiet machine (bench/README.md, "Point writes, WAL recycling, the batch's Java").
     * core-wal: WAL files are now freed at every switch by {@link WalRecycling} (atomic flush), not by this bound.
     */
    static final long MAX_TOTAL_WAL = Long.getLong("tetradb.rocks.maxTotalWalBytes", 0);

    /**
     * RocksDB's own counters (keys and bytes written, WAL syncs, stalls, compaction CPU), only with
     * {@code -Dtetradb.rocks.statistics=true}: they cost a little CPU on every call, so they are for measuring
     * (the core benchmark's write probe), not for serving. Null when off.
     */
    private final Statistics statistics;

    /**
     * @param rocksDbBytes RocksDB's memory: the block cache (with the memtables charged to it, up to half of this
     *                     figure) and, with {@code -Dtetradb.rocks.rowCachePercent}, a row cache taken out of it
     *                     ({@link PointReadOptions})
     */
    public RocksSettings(long rocksDbBytes) {
        IndexMemtables.check(); // query-idx: an option combination that defeats itself is refused, not run
        this.rowCacheBytes = PointReadOptions.rowCacheBytes(rocksDbBytes);
        this.blockCacheBytes = rocksDbBytes - rowCacheBytes;
        this.blockCache = new LRUCache(blockCacheBytes);
        this.rowCache = rowCacheBytes > 0 ? new LRUCache(rowCacheBytes) : null;
        this.writeBufferManager = new WriteBufferManager(rocksDbBytes / 2, blockCache);
        this.statistics = Boolean.getBoolean("tetradb.rocks.statistics") ? new Statistics() : null;
    }

    /** The block cache's capacity: the whole figure unless a row cache takes its share. */
    long blockCacheBytes() {
        return blockCacheBytes;
    }

    /** The row cache's capacity, 0 without one. */
    long rowCacheBytes() {
        return rowCacheBytes;
    }

    /** The row cache, or null without one (tests read its usage). */
    Cache rowCache() {
        return rowCache;
    }

    /** RocksDB's statistics of the databases opened with {@link #dbOptions()}, or null when not collected. */
    public Statistics statistics() {
        return statistics;
    }

    public DBOptions dbOptions() {
        DBOptions options = RocksOptionStrings.dbBase() // query-idx: options without a RocksJava setter, measuring
                .setCreateIfMissing(true)
                .setCreateMissingColumnFamilies(true)
                .setIncreaseParallelism(Math.max(2, Runtime.getRuntime().availableProcessors()))
                .setMaxBackgroundJobs(Math.max(2, Runtime.getRuntime().availableProcessors()))
                // large transactions and group commit both want concurrent writers to queue behind one leader
                .setEnablePipelinedWrite(false)
                // a recycled WAL file already has its size, so an fsync need not also journal the file's new length:
                // a synced 1 KiB write takes 0.70x the time here (p50 89 vs 127 us, `bench/run walsync --quick`);
                // recovery stays point-in-time (RocksDB's default mode, the one recycling supports)
                .setRecycleLogFileNum(4)
                .setBytesPerSync(1 << 20)
                .setMaxTotalWalSize(MAX_TOTAL_WAL)
                .setWriteBufferManager(writeBufferManager);
        WalRecycling.configured().apply(options); // core-wal: which families flush together, so WAL files are freed
        if (statistics != null) {
            options.setStatistics(statistics);
        }
        if (rowCache != null) {
            options.setRowCache(rowCache); // rocks-point: an option (PointReadOptions)
        }
        return options;
    }

    /**
     * Options for the column family of {@code space}. Items and metadata are read by key, so they get bloom filters
     * on disk and in the memtable ("does this id exist?" is asked by every create). The change feed and the indexes
     * are only ever scanned by range, so they get neither.
     */
    public ColumnFamilyOptions columnFamilyOptions(Space space) {
        boolean pointReads = space == Space.DOCS || space == Space.META;
        BlockBasedTableConfig table = new BlockBasedTableConfig()
                .setBlockCache(blockCache)
                .setWholeKeyFiltering(pointReads)
                // 4 KiB blocks: a point read decompresses one small block, not 16 KiB
                .setBlockSize(4 * 1024);
        if (pointReads) {
            table.setFilterPolicy(bloomFilter);
        }
        ColumnFamilyOptions options = RocksOptionStrings.familyBase(space)
                .setTableFormatConfig(table)
                .setCompressionType(CompressionType.LZ4_COMPRESSION)
                .setWriteBufferSize(space == Space.INDEX ? indexWriteBuffer() : WRITE_BUFFER)
                .setMaxWriteBufferNumber(3)
                .setLevelCompactionDynamicLevelBytes(true);
        if (pointReads) {
            options.setMemtableWholeKeyFiltering(true).setMemtablePrefixBloomSizeRatio(0.05);
        }
        if (space == Space.INDEX) {
            IndexCompaction.apply(options);
            IndexMemtables.apply(options); // index-keys: small memtables flushed together, an option
        }
        return options.setArenaBlockSize(arenaBlock(options.writeBufferSize()));
    }

    /** Options for RocksDB's default column family, which the store does not use. */
    public ColumnFamilyOptions defaultColumnFamilyOptions() {
        return columnFamilyOptions(Space.META);
    }

    public static WriteOptions writeOptions(Durability durability) {
        return new WriteOptions().setSync(durability == Durability.SYNC);
    }

    @Override
    public void close() {
        writeBufferManager.close();
        blockCache.close();
        if (rowCache != null) {
            rowCache.close();
        }
        bloomFilter.close();
        if (statistics != null) {
            statistics.close();
        }
    }
}

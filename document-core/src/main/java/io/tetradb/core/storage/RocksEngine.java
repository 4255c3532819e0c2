package io.tetradb.core.storage;

import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/** The embedded engine: one RocksDB per data directory, one column family per {@link Space}. */
public final class RocksEngine implements StorageEngine {
    /** How often the write-ahead log is fsynced in {@link Durability#ASYNC} mode. */
    static final long ASYNC_SYNC_INTERVAL_MS = 5;
    /**
     * In {@link Durability#SYNC} mode, how soon a write applied without waiting for its fsync (a face's unjournaled
     * write, see {@link #applyDeferred}) is synced at the latest: MongoDB's journal commit interval.
     */
    static final long LAZY_SYNC_INTERVAL_MS = 100;

    private final RocksSettings settings;
    private final DBOptions dbOptions;
    private final List<ColumnFamilyOptions> cfOptions = new ArrayList<>();
    private final List<ColumnFamilyHandle> handles = new ArrayList<>();
    private final Map<Space, ColumnFamilyHandle> families = new EnumMap<>(Space.class);
    /** RocksDB's column family id of each space, by ordinal (for {@link WriteBatchEncoder}). */
    private final int[] familyIds = new int[Space.values().length];
    /** batch-path: each space's family handle, by ordinal (for {@link DirectWriteBatches}). */
    private final ColumnFamilyHandle[] familyHandles = new ColumnFamilyHandle[Space.values().length];
    /** batch-path: batches built with direct-buffer puts ({@link DirectWriteBatches}) or as one array. */
    private final boolean directBatches = DirectWriteBatches.enabled();
    /** pw-next: the direct path's batches, kept between writes. */
    private final WriteBatchPool batches = new WriteBatchPool();
    private final RocksDB db;
    private final WriteOptions writeOptions;
    /**
     * SYNC with {@code -Dtetradb.wal.inlineSync=true}: a writer alone writes with RocksDB's sync (see
     * {@link WalGroupSync#claimInlineSync()}); else null.
     */
    private final WriteOptions syncedWriteOptions;
    /** SYNC durability: writes go without fsync, then wait for a group fsync; null for ASYNC. */
    private final WalGroupSync groupSync;
    private final ScheduledExecutorService walSyncer;
    private volatile boolean closed;
    /** Calls under way; close waits for them, because a native call on a closed RocksDB crashes the JVM. */
    private final AtomicInteger inFlight = new AtomicInteger();
    /** graph-bulk: the SST ingestion path ({@link SstIngest}) and its files' options, one per space. */
    private final Map<Space, org.rocksdb.Options> sstOptions = new EnumMap<>(Space.class);
    private final SstIngest sstIngest;

    private RocksEngine(Path dir, Durability durability, long blockCacheBytes) throws RocksDBException, IOException {
        Files.createDirectories(dir);
        this.settings = new RocksSettings(blockCacheBytes);
        this.dbOptions = settings.dbOptions();
        List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
        ColumnFamilyOptions defaultOptions = settings.defaultColumnFamilyOptions();
        cfOptions.add(defaultOptions);
        descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, defaultOptions));
        for (Space space : Space.values()) {
            ColumnFamilyOptions options = settings.columnFamilyOptions(space);
            cfOptions.add(options);
            descriptors.add(new ColumnFamilyDescriptor(space.familyName().getBytes(StandardCharsets.UTF_8), options));
        }
        RocksDB opened;
        try {
            opened = RocksDB.open(dbOptions, dir.toString(), descriptors, handles);
        } catch (RocksDBException e) {
            dbOptions.close();
            cfOptions.forEach(ColumnFamilyOptions::close);
            settings.close();
            throw e;
        }
        this.db = opened;
        for (Space space : Space.values()) {
            families.put(space, handles.get(space.ordinal() + 1));
            familyIds[space.ordinal()] = handles.get(space.ordinal() + 1).getID();
            familyHandles[space.ordinal()] = handles.get(space.ordinal() + 1);
            sstOptions.put(space, new org.rocksdb.Options(dbOptions, cfOptions.get(space.ordinal() + 1)));
        }
        this.sstIngest = new SstIngest(db, families, handles.get(0), sstOptions, dir); // graph-bulk
        sstIngest.recover(); // a bulk chunk a crash interrupted after its intent is finished before anyone reads
        // SYNC: RocksDB writes without sync and WalGroupSync fsyncs for every writer waiting (see applyDeferred)
        this.writeOptions = RocksSettings.writeOptions(Durability.ASYNC);
        this.groupSync = durability == Durability.SYNC ? new WalGroupSync(this::syncWalNow) : null;
        // off by default: not yet shown faster (measured only on a disk shared with other builds, fsync p50 1-5 ms);
        // -Dtetradb.wal.inlineSync=true turns it on to measure it on a quiet machine (bench/README.md, core)
        this.syncedWriteOptions = durability == Durability.SYNC
                && Boolean.parseBoolean(System.getProperty("tetradb.wal.inlineSync", "false"))
                ? RocksSettings.writeOptions(Durability.SYNC) : null;
        // ASYNC: the WAL is synced every few ms; SYNC: writes nobody waited for are synced within 100 ms
        boolean async = durability == Durability.ASYNC;
        long interval = async ? ASYNC_SYNC_INTERVAL_MS : LAZY_SYNC_INTERVAL_MS;
        walSyncer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tetradb-wal-sync");
            t.setDaemon(true);
            return t;
        });
        lazyTicks = walSyncer.scheduleWithFixedDelay(async ? this::syncWal : this::syncIfBehind, interval, interval,
                TimeUnit.MILLISECONDS);
    }

    /** The WAL syncer's schedule (SYNC: the lazy syncer's 100 ms ticks). */
    private final java.util.concurrent.ScheduledFuture<?> lazyTicks;

    /**
     * SYNC, for tests that count WAL syncs exactly: stops the lazy syncer's timer and returns its tick, to be run by
     * hand from then on (the store's writers still sync as before). Null in ASYNC mode.
     */
    Runnable lazySyncTicksByHand() {
        if (groupSync == null) {
            return null;
        }
        lazyTicks.cancel(false);
        return groupSync::syncIfBehind;
    }

    /** SYNC: the WAL syncs finished so far, of every kind ({@link WalGroupSync#syncs()}); 0 in ASYNC mode. */
    long walSyncs() {
        return groupSync == null ? 0 : groupSync.syncs();
    }

    /** RocksDB's statistics of this store, or null unless {@code -Dtetradb.rocks.statistics=true}. */
    public org.rocksdb.Statistics statistics() {
        return settings.statistics();
    }

    private void syncIfBehind() {
        try {
            groupSync.syncIfBehind();
        } catch (StorageException closingOrFailing) {
            // closing: nothing to do; a failing disk also fails the writers that wait
        }
    }

    /** Opens (or creates) the store in {@code dir}; RocksDB replays its write-ahead log after a crash. */
    public static RocksEngine open(Path dir, Durability durability, long blockCacheBytes) {
        try {
            return new RocksEngine(dir, durability, blockCacheBytes);
        } catch (RocksDBException e) {
            String m = String.valueOf(e.getMessage());
            if (m.contains("/LOCK") || m.toLowerCase(java.util.Locale.ROOT).contains("lock file")) {
                throw new DataDirectoryInUseException("data directory " + dir
                        + " is in use by another TetraDB process (its lock is held)", e);
            }
            throw new StorageException("cannot open data directory " + dir + ": " + m, e);
        } catch (IOException e) {
            throw new StorageException("cannot open data directory " + dir + ": " + e, e);
        }
    }

    private void syncWalNow() throws RocksDBException {
        enter();
        try {
            db.flushWal(true);
        } finally {
            exit();
        }
    }

    private void syncWal() {
        try {
            enter();
        } catch (StorageException closing) {
            return;
        }
        try {
            db.flushWal(true);
        } catch (RocksDBException e) {
            // the next tick tries again; a failing disk will also fail the writers themselves
        } finally {
            exit();
        }
    }

    private void enter() {
        inFlight.incrementAndGet();
        if (closed) {
            inFlight.decrementAndGet();
            throw new StorageException("the store is closed", null);
        }
    }

    private void exit() {
        inFlight.decrementAndGet();
    }

    @Override
    public byte[] get(Space space, byte[] key) {
        enter();
        try {
            return db.get(families.get(space), key);
        } catch (RocksDBException e) {
            throw new StorageException("read failed: " + e.getMessage(), e);
        } finally {
            exit();
        }
    }

    @Override
    public List<byte[]> multiGet(Space space, List<byte[]> keys) {
        if (keys.isEmpty()) {
            return List.of();
        }
        List<ColumnFamilyHandle> cfs = Collections.nCopies(keys.size(), families.get(space)); // no list per read
        enter();
        try {
            return db.multiGetAsList(cfs, keys);
        } catch (RocksDBException e) {
            throw new StorageException("read failed: " + e.getMessage(), e);
        } finally {
            exit();
        }
    }

    @Override
    public void scan(Space space, byte[] from, byte[] to, Predicate<KeyValue> visitor) {
        enter();
        try (ReadOptions options = new ReadOptions();
             Slice upper = to == null ? null : new Slice(to)) {
            if (upper != null) {
                options.setIterateUpperBound(upper);
            }
            try (RocksIterator it = db.newIterator(families.get(space), options)) {
                for (it.seek(from); it.isValid(); it.next()) {
                    if (!visitor.test(new KeyValue(it.key(), it.value()))) {
                        return;
                    }
                }
                it.status();
            }
        } catch (RocksDBException e) {
            throw new StorageException("scan failed: " + e.getMessage(), e);
        } finally {
            exit();
        }
    }

    @Override
    public long awaitBackgroundWork(long maxMillis) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + maxMillis * 1_000_000;
        while (System.nanoTime() < deadline && busy()) {
            Thread.sleep(100);
        }
        return (System.nanoTime() - start) / 1_000_000;
    }

    private boolean busy() {
        enter();
        try {
            if (db.getLongProperty("rocksdb.num-running-compactions") > 0
                    || db.getLongProperty("rocksdb.num-running-flushes") > 0) {
                return true;
            }
            for (ColumnFamilyHandle cf : families.values()) {
                if (db.getLongProperty(cf, "rocksdb.compaction-pending") > 0
                        || db.getLongProperty(cf, "rocksdb.mem-table-flush-pending") > 0) {
                    return true;
                }
            }
            return false;
        } catch (RocksDBException e) {
            throw new StorageException("reading engine properties failed: " + e.getMessage(), e);
        } finally {
            exit();
        }
    }

    @Override
    public KeyCursor cursor(Space space, byte[] from, byte[] to, boolean reverse) {
        enter();
        try {
            return new RocksCursor(space, from, to, reverse);
        } catch (RuntimeException e) {
            exit();
            throw e;
        }
    }

    /** Holds the engine open (one in-flight call) until closed. */
    private final class RocksCursor implements KeyCursor {
        private final ReadOptions options = new ReadOptions();
        private final Slice lower;
        private final Slice upper;
        private final RocksIterator it;
        private final boolean reverse;
        private boolean started;
        private boolean closedCursor;

        RocksCursor(Space space, byte[] from, byte[] to, boolean reverse) {
            this.reverse = reverse;
            this.lower = new Slice(from);
            this.upper = to == null ? null : new Slice(to);
            options.setIterateLowerBound(lower);
            if (upper != null) {
                options.setIterateUpperBound(upper);
            }
            this.it = db.newIterator(families.get(space), options);
        }

        @Override
        public boolean next() {
            if (!started) {
                started = true;
                if (reverse) {
                    it.seekToLast();
                } else {
                    it.seekToFirst();
                }
            } else if (reverse) {
                it.prev();
            } else {
                it.next();
            }
            if (it.isValid()) {
                return true;
            }
            try {
                it.status();
            } catch (RocksDBException e) {
                throw new StorageException("scan failed: " + e.getMessage(), e);
            }
            return false;
        }

        @Override
        public byte[] key() {
            return it.key();
        }

        @Override
        public byte[] value() {
            return it.value();
        }

        @Override
        public void close() {
            if (closedCursor) {
                return;
            }
            closedCursor = true;
            it.close();
            options.close();
            lower.close();
            if (upper != null) {
                upper.close();
            }
            exit();
        }
    }

    @Override
    public void apply(WriteSet writes) {
        awaitDurable(applyDeferred(writes));
    }

    @Override
    public void awaitDurable(long ticket) {
        if (groupSync != null && ticket > 0) {
            groupSync.await(ticket);
        }
    }

    @Override
    public void promiseAwait(long ticket) {
        if (groupSync != null && ticket > 0) {
            groupSync.promise(ticket); // the lazy syncer leaves it to its writer
        }
    }

    @Override
    public long applyDeferred(WriteSet writes) {
        if (writes.isEmpty()) {
            return 0;
        }
        write(writes, writeOptions);
        return groupSync == null ? 0 : groupSync.applied();
    }

    @Override
    public long applyDeferred(WriteSet writes, boolean othersWaiting) {
        if (writes.isEmpty() || groupSync == null || syncedWriteOptions == null || othersWaiting) {
            return applyDeferred(writes);
        }
        long ticket = groupSync.claimInlineSync();
        if (ticket == 0) {
            return applyDeferred(writes);
        }
        boolean synced = false;
        try {
            write(writes, syncedWriteOptions);
            synced = true;
        } finally {
            groupSync.inlineSyncDone(ticket, synced);
        }
        return ticket; // already durable: awaitDurable returns at once
    }

    private void write(WriteSet writes, WriteOptions options) {
        if (directBatches) { // batch-path: direct-buffer puts into a batch reserved at its size (DirectWriteBatches)
            int size = WriteBatchEncoder.size(writes.writes(), familyIds);
            enter();
            try {
                // pw-next: a kept batch, cleared, not a new native one per write (WriteBatchPool)
                WriteBatch batch = batches.take(size);
                try {
                    DirectWriteBatches.fill(batch, writes.writes(), familyHandles);
                    db.write(options, batch);
                } finally {
                    batches.giveBack(batch, size); // before exit(): close() closes the pool once no write is inside
                }
            } catch (RocksDBException e) {
                throw new StorageException("write failed: " + e.getMessage(), e);
            } finally {
                exit();
            }
            return;
        }
        // the whole batch in one array and one JNI call (WriteBatchEncoder), not a call and a copy per key
        byte[] encoded = WriteBatchEncoder.encode(writes.writes(), familyIds);
        enter();
        try (WriteBatch batch = new WriteBatch(encoded)) {
            db.write(options, batch);
        } catch (RocksDBException e) {
            throw new StorageException("write failed: " + e.getMessage(), e);
        } finally {
            exit();
        }
    }

    /**
     * graph-bulk: writes one bulk chunk as sorted SST files ingested into their families plus {@code meta} (META
     * keys), whole or not at all after a crash, durable when it returns (see {@link SstIngest}).
     */
    public void ingest(Map<Space, ? extends SortedPuts> sortedPuts, WriteSet meta) {
        enter();
        try {
            sstIngest.commit(sortedPuts, meta);
        } finally {
            exit();
        }
    }

    /** graph-bulk: interrupted bulk chunks still to finish (tests: none once the store is open). */
    public int pendingIngests() {
        return sstIngest.pendingIntents();
    }

    /** SST files of {@code space} at LSM level {@code level} (graph-load6: where bulk ingestion put its files). */
    public long filesAtLevel(Space space, int level) {
        try {
            return Long.parseLong(db.getProperty(families.get(space), "rocksdb.num-files-at-level" + level));
        } catch (RocksDBException e) {
            throw new StorageException("reading the LSM shape failed: " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        while (inFlight.get() > 0) {
            Thread.onSpinWait(); // calls already inside finish; new ones see `closed` and throw
        }
        if (walSyncer != null) {
            walSyncer.shutdownNow();
            try {
                walSyncer.awaitTermination(1, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            db.flushWal(true);
            db.flush(flush, handles);
        } catch (RocksDBException e) {
            // the WAL still holds everything; recovery replays it
        }
        for (ColumnFamilyHandle h : handles) {
            h.close();
        }
        db.close();
        batches.close();
        writeOptions.close();
        if (syncedWriteOptions != null) {
            syncedWriteOptions.close();
        }
        sstOptions.values().forEach(org.rocksdb.Options::close);
        dbOptions.close();
        cfOptions.forEach(ColumnFamilyOptions::close);
        settings.close();
    }
}

package io.tetradb.bench.core;

import io.tetradb.core.storage.Durability;
import io.tetradb.core.storage.RocksSettings;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The anchor: a plain RocksDB opened with the store's own {@link RocksSettings} (DB options, column family options,
 * block cache size, write options for the same durability), items in one column family {@code docs}.
 */
final class RawRocks implements AutoCloseable {
    private final RocksSettings settings;
    private final DBOptions dbOptions;
    private final ColumnFamilyOptions defaultOptions;
    private final ColumnFamilyOptions docsOptions;
    private final List<ColumnFamilyHandle> handles = new ArrayList<>();
    private final RocksDB db;
    private final ColumnFamilyHandle docs;
    private final WriteOptions writeOptions;

    RawRocks(Path dir, Durability durability, long blockCacheBytes) throws RocksDBException {
        settings = new RocksSettings(blockCacheBytes);
        dbOptions = settings.dbOptions();
        defaultOptions = settings.defaultColumnFamilyOptions();
        docsOptions = settings.columnFamilyOptions(io.tetradb.core.storage.Space.DOCS);
        db = RocksDB.open(dbOptions, dir.toString(), List.of(
                new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, defaultOptions),
                new ColumnFamilyDescriptor("docs".getBytes(StandardCharsets.UTF_8), docsOptions)), handles);
        docs = handles.get(1);
        writeOptions = RocksSettings.writeOptions(durability);
    }

    /** RocksDB's statistics of this database, or null unless {@code -Dtetradb.rocks.statistics=true}. */
    org.rocksdb.Statistics statistics() {
        return settings.statistics();
    }

    /** The database itself, for the write probes' property reads. */
    RocksDB db() {
        return db;
    }

    void put(byte[] key, byte[] value) throws RocksDBException {
        db.put(docs, writeOptions, key, value);
    }

    /** One atomic, durable write of every pair. */
    void write(byte[][] keys, byte[][] values) throws RocksDBException {
        try (WriteBatch batch = new WriteBatch()) {
            for (int i = 0; i < keys.length; i++) {
                batch.put(docs, keys[i], values[i]);
            }
            db.write(writeOptions, batch);
        }
    }

    byte[] get(byte[] key) throws RocksDBException {
        return db.get(docs, key);
    }

    /** Reads every item once in key order (filling the block cache); returns how many there are. */
    long scanAll() {
        long n = 0;
        try (org.rocksdb.RocksIterator it = db.newIterator(docs)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                n++;
            }
        }
        return n;
    }

    /**
     * Waits (at most {@code maxMillis}) until this database has no flush or compaction running or pending; returns
     * the milliseconds waited.
     */
    long awaitQuiet(long maxMillis) throws RocksDBException, InterruptedException {
        long start = System.nanoTime();
        long deadline = start + maxMillis * 1_000_000;
        while (System.nanoTime() < deadline) {
            boolean busy = db.getLongProperty("rocksdb.num-running-compactions") > 0
                    || db.getLongProperty("rocksdb.num-running-flushes") > 0
                    || db.getLongProperty(docs, "rocksdb.compaction-pending") > 0
                    || db.getLongProperty(docs, "rocksdb.mem-table-flush-pending") > 0;
            if (!busy) {
                break;
            }
            Thread.sleep(100);
        }
        return (System.nanoTime() - start) / 1_000_000;
    }

    @Override
    public void close() {
        for (ColumnFamilyHandle h : handles) {
            h.close();
        }
        db.close();
        writeOptions.close();
        dbOptions.close();
        defaultOptions.close();
        docsOptions.close();
        settings.close();
    }
}

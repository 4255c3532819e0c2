package io.tetradb.core.storage;

import org.rocksdb.DBOptions;

/**
 * How the store lets RocksDB free (and so recycle) its write-ahead log files. A WAL file is freed only once every
 * column family holding records of it has flushed them; the store's small families (the partitions' statistics in
 * {@code meta}, a few dozen bytes per write) fill their 64 MiB memtables after hundreds of thousands of writes, so
 * without help they keep every WAL file alive, the store never recycles one, and each SYNC write fsyncs a file that
 * is still growing (which also journals its new length: {@code bench/run walsync}, a recycled file's sync takes
 * 0.70-0.93x the time). Chosen with {@code -Dtetradb.rocks.walRecycling=atomic|off}:
 * <ul>
 *   <li>{@code atomic}: RocksDB's {@code atomic_flush}. Whatever triggers a flush (a full memtable, the write buffer
 *   manager, {@code max_total_wal_size}) flushes every family with data, after one switch to a new WAL file, so the
 *   old file is freed when that flush ends and the next switch reuses it. The cost: a family is flushed when another
 *   one fills (smaller files for the families that fill slowly, e.g. {@code docs} flushed when the 16 MiB
 *   {@code index} memtable fills).</li>
 *   <li>{@code off}: RocksDB's default, every family flushed on its own.</li>
 * </ul>
 * Crash safety is RocksDB's WAL replay either way (atomic flush only decides which memtables flush together).
 */
public enum WalRecycling {
    ATOMIC, OFF;

    /** The mode of this process ({@code -Dtetradb.rocks.walRecycling}). */
    public static WalRecycling configured() {
        String v = System.getProperty("tetradb.rocks.walRecycling", "atomic");
        return switch (v) {
            case "atomic" -> ATOMIC;
            case "off" -> OFF;
            default -> throw new IllegalArgumentException("tetradb.rocks.walRecycling: atomic or off, not " + v);
        };
    }

    void apply(DBOptions options) {
        options.setAtomicFlush(this == ATOMIC);
    }
}

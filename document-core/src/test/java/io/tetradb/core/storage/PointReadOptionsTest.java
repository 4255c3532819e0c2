package io.tetradb.core.storage;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.FlushOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The row cache option ({@link PointReadOptions}, rocks-point): off by default; cut out of the one memory figure,
 * it serves gets and answers exactly across overwrites, flushes and compactions; a share out of range is refused.
 */
class PointReadOptionsTest {
    private static final long FIGURE = 64L << 20;

    interface Use {
        void on(RocksDB db, ColumnFamilyHandle docs, RocksSettings settings) throws RocksDBException;
    }

    @AfterEach
    void clear() {
        System.clearProperty(PointReadOptions.ROW_CACHE_PERCENT);
    }

    @Test
    void offByDefault(@TempDir Path dir) throws Exception {
        open(dir, (db, docs, s) -> {
            assertEquals(FIGURE, s.blockCacheBytes());
            assertEquals(0, s.rowCacheBytes());
            assertNull(s.rowCache());
        });
    }

    @Test
    void theRowCacheIsCutFromTheOneFigureAndAnswersExactly(@TempDir Path dir) throws Exception {
        System.setProperty(PointReadOptions.ROW_CACHE_PERCENT, "25");
        open(dir, (db, docs, s) -> {
            assertEquals(FIGURE / 100 * 25, s.rowCacheBytes());
            assertEquals(FIGURE, s.blockCacheBytes() + s.rowCacheBytes());
            byte[] k = key(0, 7);
            db.put(docs, k, value(0, 1));
            flush(db, docs);
            assertEquals(0, s.rowCache().getUsage());
            assertArrayEquals(value(0, 1), db.get(docs, k));
            assertTrue(s.rowCache().getUsage() > 0, "a get from an SST file fills the row cache");
            assertArrayEquals(value(0, 1), db.get(docs, k)); // now from the row cache
            db.put(docs, k, value(0, 2));
            assertArrayEquals(value(0, 2), db.get(docs, k)); // the memtable's newer version
            flush(db, docs);
            assertArrayEquals(value(0, 2), db.get(docs, k)); // the newer file's version, not the cached row
            db.compactRange(docs);
            assertArrayEquals(value(0, 2), db.get(docs, k));
            db.delete(docs, k);
            flush(db, docs);
            assertNull(db.get(docs, k));
            db.compactRange(docs);
            assertNull(db.get(docs, k));
        });
    }

    @Test
    void aRowCacheShareOutOfRangeIsRefused() {
        for (String bad : new String[] {"-1", "51"}) {
            System.setProperty(PointReadOptions.ROW_CACHE_PERCENT, bad);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new RocksSettings(FIGURE));
            assertTrue(e.getMessage().contains(PointReadOptions.ROW_CACHE_PERCENT), e.getMessage());
        }
    }

    private static byte[] key(int pass, int i) {
        return String.format("k%d-%06d", pass, i).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(int pass, int i) {
        return ("v" + pass + "-" + i + "-" + "x".repeat(i % 300)).getBytes(StandardCharsets.UTF_8);
    }

    private static void flush(RocksDB db, ColumnFamilyHandle docs) throws RocksDBException {
        try (FlushOptions f = new FlushOptions().setWaitForFlush(true)) {
            db.flush(f, docs);
        }
    }

    /** The directory as plain RocksDB with the store's own settings (as the properties in force say). */
    private static void open(Path dir, Use use) throws Exception {
        RawIndexFamily.open(dir, FIGURE, Space.DOCS, (db, docs, s) -> {
            use.on(db, docs, s);
            return null;
        });
    }
}

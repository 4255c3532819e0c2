package io.tetradb.core.storage;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The point-read options ({@link PointReadOptions}, rocks-point): off by default; the data block hash index reaches
 * RocksDB for {@code docs} and {@code meta} only and a directory written with or without it reads exactly either
 * way; the row cache is cut out of the one memory figure, serves gets and answers exactly across overwrites,
 * flushes and compactions.
 */
class PointReadOptionsTest {
    private static final long FIGURE = 64L << 20;
    private static final String BLOCK_TABLE = "TableOptions/BlockBasedTable";

    interface Use {
        void on(RocksDB db, ColumnFamilyHandle docs, RocksSettings settings) throws RocksDBException;
    }

    @AfterEach
    void clear() {
        System.clearProperty(PointReadOptions.HASH);
        System.clearProperty(PointReadOptions.ROW_CACHE_PERCENT);
    }

    @Test
    void offByDefault(@TempDir Path dir) throws Exception {
        open(dir, (db, docs, s) -> {
            assertEquals(FIGURE, s.blockCacheBytes());
            assertEquals(0, s.rowCacheBytes());
            assertNull(s.rowCache());
        });
        for (Space space : Space.values()) {
            assertTrue(RawIndexFamily.optionsSection(dir, BLOCK_TABLE, space)
                    .contains("data_block_index_type=kDataBlockBinarySearch\n"), space.toString());
        }
    }

    @Test
    void theHashIndexIsForThePointReadFamiliesAndDirectoriesReadEitherWay(@TempDir Path dir) throws Exception {
        // without, with, without again: each pass reads what every earlier pass wrote, then writes its own keys
        String[] passes = {null, "true", null};
        for (int pass = 0; pass < passes.length; pass++) {
            if (passes[pass] == null) {
                System.clearProperty(PointReadOptions.HASH);
            } else {
                System.setProperty(PointReadOptions.HASH, passes[pass]);
            }
            int written = pass;
            open(dir, (db, docs, s) -> {
                for (int p = 0; p < written; p++) {
                    readsExactly(db, docs, p);
                }
                for (int i = 0; i < 2000; i++) {
                    db.put(docs, key(written, i), value(written, i));
                }
                flush(db, docs);
                readsExactly(db, docs, written);
            });
            boolean hash = passes[pass] != null;
            for (Space space : Space.values()) {
                boolean expected = hash && (space == Space.DOCS || space == Space.META);
                String section = RawIndexFamily.optionsSection(dir, BLOCK_TABLE, space);
                assertTrue(section.contains("data_block_index_type="
                        + (expected ? "kDataBlockBinaryAndHash" : "kDataBlockBinarySearch") + "\n"), section);
            }
        }
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

    private static void readsExactly(RocksDB db, ColumnFamilyHandle docs, int pass) throws RocksDBException {
        for (int i = 0; i < 2000; i++) {
            assertArrayEquals(value(pass, i), db.get(docs, key(pass, i)), "pass " + pass + " key " + i);
            assertNull(db.get(docs, (new String(key(pass, i), StandardCharsets.UTF_8) + "x")
                    .getBytes(StandardCharsets.UTF_8)));
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
        try (RocksSettings s = new RocksSettings(FIGURE); DBOptions dbOptions = s.dbOptions()) {
            List<ColumnFamilyOptions> opts = new ArrayList<>();
            List<ColumnFamilyDescriptor> d = new ArrayList<>();
            opts.add(s.defaultColumnFamilyOptions());
            d.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, opts.get(0)));
            for (Space sp : Space.values()) {
                opts.add(s.columnFamilyOptions(sp));
                d.add(new ColumnFamilyDescriptor(sp.familyName().getBytes(StandardCharsets.UTF_8),
                        opts.get(opts.size() - 1)));
            }
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            try (RocksDB db = RocksDB.open(dbOptions, dir.toString(), d, handles)) {
                use.on(db, handles.get(Space.DOCS.ordinal() + 1), s);
            } finally {
                handles.forEach(ColumnFamilyHandle::close);
                opts.forEach(ColumnFamilyOptions::close);
            }
        }
    }
}

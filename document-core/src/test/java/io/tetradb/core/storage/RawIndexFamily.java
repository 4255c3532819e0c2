package io.tetradb.core.storage;

import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Tests: a closed store's directory opened as plain RocksDB with the store's own family options (as the system
 * properties in force say), to look at the {@code index} family from outside the store.
 */
final class RawIndexFamily {
    interface Look {
        int on(RocksDB rocks, ColumnFamilyHandle index) throws RocksDBException;
    }

    private RawIndexFamily() {
    }

    static int look(Path dir, Look look) throws Exception {
        try (RocksSettings s = new RocksSettings(64L << 20); DBOptions db = s.dbOptions()) {
            List<ColumnFamilyDescriptor> d = new ArrayList<>();
            List<ColumnFamilyOptions> opts = new ArrayList<>();
            opts.add(s.defaultColumnFamilyOptions());
            d.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, opts.get(0)));
            for (Space sp : Space.values()) {
                opts.add(s.columnFamilyOptions(sp));
                d.add(new ColumnFamilyDescriptor(sp.familyName().getBytes(StandardCharsets.UTF_8),
                        opts.get(opts.size() - 1)));
            }
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            try (RocksDB rocks = RocksDB.open(db, dir.toString(), d, handles)) {
                return look.on(rocks, handles.get(Space.INDEX.ordinal() + 1));
            } finally {
                handles.forEach(ColumnFamilyHandle::close);
                opts.forEach(ColumnFamilyOptions::close);
            }
        }
    }

    static int l0Files(RocksDB rocks, ColumnFamilyHandle index) throws RocksDBException {
        return Integer.parseInt(rocks.getProperty(index, "rocksdb.num-files-at-level0"));
    }
}

package io.tetradb.core.storage;

import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Tests: a closed store's directory opened as plain RocksDB with the store's own family options (as the system
 * properties in force say), to look at a family — the {@code index} family, mostly — from outside the store.
 */
final class RawIndexFamily {
    interface Look {
        int on(RocksDB rocks, ColumnFamilyHandle index) throws RocksDBException;
    }

    private RawIndexFamily() {
    }

    /** What a test does with a directory opened as plain RocksDB: one family's handle and the settings it opened with. */
    interface Use<T> {
        T on(RocksDB rocks, ColumnFamilyHandle family, RocksSettings settings) throws RocksDBException;
    }

    static int look(Path dir, Look look) throws Exception {
        return open(dir, 64L << 20, Space.INDEX, (rocks, index, settings) -> look.on(rocks, index));
    }

    /**
     * Opens {@code dir} as plain RocksDB with the store's settings for {@code rocksDbBytes} of memory (every family,
     * as the system properties in force say) and hands {@code space}'s family to {@code use}.
     */
    static <T> T open(Path dir, long rocksDbBytes, Space space, Use<T> use) throws Exception {
        try (RocksSettings s = new RocksSettings(rocksDbBytes); DBOptions db = s.dbOptions()) {
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
                return use.on(rocks, handles.get(space.ordinal() + 1), s);
            } finally {
                handles.forEach(ColumnFamilyHandle::close);
                opts.forEach(ColumnFamilyOptions::close);
            }
        }
    }

    /** The {@code [CFOptions "family"]} section of the directory's newest RocksDB OPTIONS file. */
    static String optionsSection(Path dir, Space space) throws IOException {
        return optionsSection(dir, "CFOptions", space);
    }

    /** The {@code [kind "family"]} section (e.g. {@code TableOptions/BlockBasedTable}) of the newest OPTIONS file. */
    static String optionsSection(Path dir, String kind, Space space) throws IOException {
        String options = latestOptionsFile(dir);
        String header = "[" + kind + " \"" + space.familyName() + "\"]";
        int at = options.indexOf(header);
        if (at < 0) {
            throw new AssertionError(header + " not in\n" + options);
        }
        int end = options.indexOf("\n[", at + 1);
        return options.substring(at, end < 0 ? options.length() : end);
    }

    private static String latestOptionsFile(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            Path latest = files.filter(p -> p.getFileName().toString().startsWith("OPTIONS-"))
                    .max((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString())).orElseThrow();
            return Files.readString(latest);
        }
    }

    static int l0Files(RocksDB rocks, ColumnFamilyHandle index) throws RocksDBException {
        return Integer.parseInt(rocks.getProperty(index, "rocksdb.num-files-at-level0"));
    }
}

package io.tetradb.bench.query;

import io.tetradb.core.storage.Space;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Session 23 (index-write): the entries of a closed store's {@code index} family and their key bytes, per item
 * loaded, read back with RocksDB (read-only) after the load, so a figure per item needs no counting in the store.
 */
final class IndexFamilyKeys {
    private IndexFamilyKeys() {
    }

    static void print(Path dataDirectory, long items) throws RocksDBException {
        String dir = dataDirectory.toString();
        List<byte[]> names;
        try (Options o = new Options()) {
            names = RocksDB.listColumnFamilies(o, dir);
        }
        byte[] index = Space.INDEX.familyName().getBytes(StandardCharsets.UTF_8);
        List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
        List<ColumnFamilyOptions> options = new ArrayList<>();
        int at = -1;
        for (byte[] name : names) {
            ColumnFamilyOptions o = new ColumnFamilyOptions();
            options.add(o);
            if (Arrays.equals(name, index)) {
                at = descriptors.size();
            }
            descriptors.add(new ColumnFamilyDescriptor(name, o));
        }
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        long entries = 0;
        long keyBytes = 0;
        try (DBOptions dbo = new DBOptions();
             RocksDB db = RocksDB.openReadOnly(dbo, dir, descriptors, handles);
             RocksIterator it = db.newIterator(handles.get(at))) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                entries++;
                keyBytes += it.key().length;
            }
        } finally {
            handles.forEach(ColumnFamilyHandle::close);
            options.forEach(ColumnFamilyOptions::close);
        }
        System.out.printf(Locale.ROOT, "indexed index_entries_per_item=%.2f key_bytes_per_entry=%.1f "
                + "key_bytes_per_item=%.1f%n", (double) entries / items, (double) keyBytes / entries,
                (double) keyBytes / items);
    }
}

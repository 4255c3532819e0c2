package io.tetradb.core.storage;

import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * What the write batch tests ({@code WriteBatchEncoderTest}, {@code DirectWriteBatchesTest}) compare against: a plain
 * RocksDB with 140 column families, so the spaces get family ids of one and of two varint bytes (1, 2, 3, 130 and
 * 140), and RocksDB's own {@code WriteBatch} of a write set built with its ordinary puts and deletes.
 */
final class WriteBatchFamilies implements AutoCloseable {
    static {
        RocksDB.loadLibrary();
    }

    private final Options options = new Options().setCreateIfMissing(true);
    private final RocksDB db;
    private final List<ColumnFamilyHandle> handles = new ArrayList<>();
    /** The family of each space, by the space's ordinal. */
    final ColumnFamilyHandle[] bySpace;
    /** Their family ids, by the space's ordinal. */
    final int[] ids;

    WriteBatchFamilies(Path dir) throws RocksDBException {
        db = RocksDB.open(options, dir.toString());
        for (int i = 1; i <= 140; i++) {
            handles.add(db.createColumnFamily(new ColumnFamilyDescriptor(utf8("cf" + i))));
        }
        bySpace = new ColumnFamilyHandle[]{handles.get(0), handles.get(1), handles.get(2), handles.get(129),
                handles.get(139)};
        ids = new int[bySpace.length];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = bySpace[i].getID();
        }
    }

    /** RocksDB's own batch of {@code ws}, one put, delete or range delete per write (the caller closes it). */
    WriteBatch rocksDbsOwn(WriteSet ws) throws RocksDBException {
        WriteBatch batch = new WriteBatch();
        for (WriteSet.Write w : ws.writes()) {
            ColumnFamilyHandle cf = bySpace[w.space().ordinal()];
            if (w.isRangeDelete()) {
                batch.deleteRange(cf, w.key(), w.rangeEnd());
            } else if (w.isDelete()) {
                batch.delete(cf, w.key());
            } else {
                batch.put(cf, w.key(), w.value());
            }
        }
        return batch;
    }

    /** Random bytes, fewer than {@code max}. */
    static byte[] bytes(Random r, int max) {
        byte[] b = new byte[r.nextInt(max)];
        r.nextBytes(b);
        return b;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        handles.forEach(ColumnFamilyHandle::close);
        db.close();
        options.close();
    }
}

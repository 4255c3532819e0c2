package io.tetradb.core.storage;

import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * batch-path (issue 17): builds a RocksDB {@code WriteBatch} for a {@link WriteSet} with RocksJava's direct-buffer
 * puts. Each key and value is copied into the thread's direct staging buffer and from there once into the batch's
 * representation, which is reserved at its exact size up front. {@link WriteBatchEncoder}'s path instead copies the
 * whole write set into a new Java array, which {@code new WriteBatch(byte[])} copies three more times in native code
 * (the JNI array elements, a string, the batch's own representation): for a 100-item batch that is ≈ 125 KB allocated,
 * zeroed and copied four times. Writes larger than the staging buffer (and range deletes, which RocksJava has no
 * direct form of) take the array puts. The representation is the same bytes either way ({@code
 * DirectWriteBatchesTest}). {@code -Dtetradb.rocks.writeBatch=encoded} (read at each open) keeps the one-array path.
 */
final class DirectWriteBatches {
    /** The staging buffer: a key and value of more go through the array puts. */
    static final int STAGING_BYTES = 64 * 1024;

    /** Whether the engine builds its batches here ({@code direct}, the default) or with {@link WriteBatchEncoder}. */
    static boolean enabled() {
        String v = System.getProperty("tetradb.rocks.writeBatch", "direct");
        return switch (v) {
            case "direct" -> true;
            case "encoded" -> false;
            default -> throw new IllegalArgumentException("-Dtetradb.rocks.writeBatch must be direct or encoded, not "
                    + v);
        };
    }

    /** One staging buffer and its two views per thread (a direct buffer is freed with its owner by the collector). */
    private static final ThreadLocal<Staging> STAGING = ThreadLocal.withInitial(Staging::new);

    private static final class Staging {
        final ByteBuffer buffer = ByteBuffer.allocateDirect(STAGING_BYTES);
        final ByteBuffer key = buffer.duplicate();
        final ByteBuffer value = buffer.duplicate();
    }

    private DirectWriteBatches() {
    }

    /**
     * Puts {@code writes} into {@code batch} (empty: a kept one of {@link WriteBatchPool}, or a new one reserved at
     * {@link WriteBatchEncoder#size}), each to the family {@code families[space.ordinal()]}.
     */
    static void fill(WriteBatch batch, List<WriteSet.Write> writes, ColumnFamilyHandle[] families)
            throws RocksDBException {
        Staging s = STAGING.get();
        for (WriteSet.Write w : writes) {
            ColumnFamilyHandle cf = families[w.space().ordinal()];
            byte[] key = w.key();
            if (w.isRangeDelete()) {
                batch.deleteRange(cf, key, w.rangeEnd());
            } else if (w.isDelete()) {
                if (key.length <= STAGING_BYTES) {
                    batch.delete(cf, stage(s, key, null));
                } else {
                    batch.delete(cf, key);
                }
            } else {
                byte[] value = w.value();
                if (key.length + value.length <= STAGING_BYTES) {
                    batch.put(cf, stage(s, key, value), s.value);
                } else {
                    batch.put(cf, key, value);
                }
            }
        }
    }

    /** The key (and value, if any) copied into the staging buffer; returns the key's view, {@code s.value} the value's. */
    private static ByteBuffer stage(Staging s, byte[] key, byte[] value) {
        ByteBuffer b = s.buffer;
        b.clear();
        b.put(key);
        if (value != null) {
            b.put(value);
            s.value.limit(key.length + value.length).position(key.length);
        }
        s.key.limit(key.length).position(0);
        return s.key;
    }
}

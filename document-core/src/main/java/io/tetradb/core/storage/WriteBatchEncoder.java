package io.tetradb.core.storage;

import java.util.List;

/**
 * Builds the bytes of a RocksDB {@code WriteBatch} (its documented, stable representation: the same bytes RocksDB
 * writes to the WAL) for a whole {@link WriteSet} in Java, so that the engine hands RocksDB one array in one call
 * ({@code new WriteBatch(byte[])}) instead of one JNI call, copy and buffer growth per key: an item write is 3 keys,
 * a 100-item batch 200 or more, an indexed one thousands. {@code WriteBatchEncoderTest} checks the bytes against
 * RocksDB's own {@code WriteBatch.data()} for the same writes.
 *
 * <p>Layout ({@code db/write_batch.cc}): sequence (fixed64, 0: RocksDB assigns it), count (fixed32), then per
 * record a type byte, the column family id (varint32), and length-prefixed (varint32) key, value or range end.
 */
final class WriteBatchEncoder {
    static final int HEADER = 12;
    /** {@code dbformat.h}'s value types of records of a non-default column family. */
    static final byte DELETE = 0x4;
    static final byte PUT = 0x5;
    static final byte RANGE_DELETE = 0xE;

    private WriteBatchEncoder() {
    }

    /** The representation of {@code writes}, each to the column family id {@code familyIds[space.ordinal()]}. */
    static byte[] encode(List<WriteSet.Write> writes, int[] familyIds) {
        byte[] out = new byte[size(writes, familyIds)];
        int count = writes.size();
        out[8] = (byte) count;
        out[9] = (byte) (count >>> 8);
        out[10] = (byte) (count >>> 16);
        out[11] = (byte) (count >>> 24);
        int at = HEADER;
        for (WriteSet.Write w : writes) {
            if (w.isRangeDelete()) {
                out[at++] = RANGE_DELETE;
                at = varint(out, at, familyIds[w.space().ordinal()]);
                at = bytes(out, at, w.key());
                at = bytes(out, at, w.rangeEnd());
            } else if (w.isDelete()) {
                out[at++] = DELETE;
                at = varint(out, at, familyIds[w.space().ordinal()]);
                at = bytes(out, at, w.key());
            } else {
                out[at++] = PUT;
                at = varint(out, at, familyIds[w.space().ordinal()]);
                at = bytes(out, at, w.key());
                at = bytes(out, at, w.value());
            }
        }
        return out;
    }

    /** The length of the representation of {@code writes} (batch-path: also the size {@link DirectWriteBatches} reserves). */
    static int size(List<WriteSet.Write> writes, int[] familyIds) {
        int size = HEADER;
        for (WriteSet.Write w : writes) {
            size += 1 + varintSize(familyIds[w.space().ordinal()]) + lengthPrefixed(w.key().length);
            if (w.isRangeDelete()) {
                size += lengthPrefixed(w.rangeEnd().length);
            } else if (!w.isDelete()) {
                size += lengthPrefixed(w.value().length);
            }
        }
        return size;
    }

    private static int lengthPrefixed(int length) {
        return varintSize(length) + length;
    }

    private static int varintSize(int v) {
        int n = 1;
        while ((v & ~0x7F) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }

    private static int varint(byte[] out, int at, int v) {
        while ((v & ~0x7F) != 0) {
            out[at++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out[at++] = (byte) v;
        return at;
    }

    private static int bytes(byte[] out, int at, byte[] b) {
        at = varint(out, at, b.length);
        System.arraycopy(b, 0, out, at, b.length);
        return at + b.length;
    }
}

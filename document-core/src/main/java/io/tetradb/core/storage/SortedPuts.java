package io.tetradb.core.storage;

import org.rocksdb.RocksDBException;

import java.nio.ByteBuffer;

/**
 * One column family's puts of a bulk chunk, handed out in ascending unsigned key order without repeated keys
 * (graph-load, issue 18): what {@link SstIngest} writes into that family's SST file. The keys and values are given as
 * direct buffers (RocksDB's {@code SstFileWriter} reads them without a copy into a Java array), valid only during
 * the call.
 */
public interface SortedPuts {
    /** Receives the puts in order. */
    interface Sink {
        void put(ByteBuffer key, ByteBuffer value) throws RocksDBException;
    }

    boolean isEmpty();

    void forEach(Sink sink) throws RocksDBException;
}

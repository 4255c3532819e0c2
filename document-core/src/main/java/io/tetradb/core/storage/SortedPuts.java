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

    /**
     * graph-load2: these puts as up to {@code parts} disjoint key ranges in ascending order (so they can be written
     * as several files side by side), each of about {@code minRecords} records at least; equal keys stay in one
     * range. By default one range: all of them.
     */
    default java.util.List<? extends SortedPuts> split(int parts, long minRecords) {
        return java.util.List.of(this);
    }

    void forEach(Sink sink) throws RocksDBException;
}

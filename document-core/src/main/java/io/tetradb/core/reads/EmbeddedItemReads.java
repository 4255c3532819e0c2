package io.tetradb.core.reads;

import io.tetradb.core.storage.KeyCursor;
import io.tetradb.core.storage.KeyValue;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.StorageEngine;
import io.tetradb.core.value.IndexKeyEncoding;

import java.util.List;
import java.util.function.Predicate;

/**
 * {@link ItemReads} on the embedded engine: the core's keys are the engine's, so every read is the RocksDB call it
 * was before the seam (point gets, multi-gets, cursors and scans), at the same cost.
 */
public final class EmbeddedItemReads implements ItemReads {
    private final StorageEngine engine;

    public EmbeddedItemReads(StorageEngine engine) {
        this.engine = engine;
    }

    @Override
    public byte[] item(byte[] docKey) {
        return engine.get(Space.DOCS, docKey);
    }

    @Override
    public List<byte[]> items(List<byte[]> docKeys) {
        return engine.multiGet(Space.DOCS, docKeys);
    }

    @Override
    public KeyCursor items(byte[] from, byte[] to, boolean reverse) {
        return engine.cursor(Space.DOCS, from, to, reverse);
    }

    @Override
    public void scanItems(byte[] from, byte[] to, Predicate<KeyValue> visitor) {
        engine.scan(Space.DOCS, from, to, visitor);
    }

    @Override
    public KeyCursor entries(byte[] from, byte[] to, boolean reverse) {
        return engine.cursor(Space.INDEX, from, to, reverse);
    }

    @Override
    public void scanEntries(byte[] from, byte[] to, Predicate<KeyValue> visitor) {
        engine.scan(Space.INDEX, from, to, visitor);
    }

    @Override
    public byte[] partitionStats(byte[] statsKey) { // core-stats: the record or the newest partition index key
        return io.tetradb.core.feed.StoredPartitionStats.read(engine, statsKey);
    }

    @Override
    public void scanPartitionStats(byte[] from, byte[] to, Predicate<KeyValue> visitor) {
        // the records and the partition index keys in two merged forward scans, not a seek per partition
        io.tetradb.core.feed.StoredPartitionStats.scan(engine, from, to, visitor);
    }

    @Override
    public byte[] derived(byte[] lpPrefix, Space space, byte[] key) {
        return engine.get(space, key);
    }

    @Override
    public void scanPartitionDerived(byte[] lpPrefix, Space space, byte[] from, byte[] to,
                                     java.util.function.Predicate<io.tetradb.core.storage.KeyValue> visitor) {
        engine.scan(space, from, to, visitor);
    }

    @Override
    public void scanContainerDerived(int collId, Space space, byte[] from, byte[] to,
                                     java.util.function.Predicate<io.tetradb.core.storage.KeyValue> visitor) {
        engine.scan(space, from, to, visitor);
    }

    @Override
    public KeyCursor changes(byte[] fromKey, byte[] toKey, byte[] fromPartition, byte[] toPartition) {
        return engine.cursor(Space.FEED, fromKey, toKey, false);
    }

    @Override
    public boolean embedded() {
        return true;
    }

    /** For callers that need a prefix's end in the same convention (null: unbounded). */
    static byte[] prefixEnd(byte[] prefix) {
        return IndexKeyEncoding.prefixEnd(prefix);
    }
}

package io.tetradb.core.storage.meta;

import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.StorageEngine;
import io.tetradb.core.storage.WriteSet;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link MetadataStore} over the embedded engine's META space, in the layout the core always used (values as they
 * were, no version stored: the version is the value's hash). A write is one RocksDB write set, with the item engine's
 * writes that go with it; conditions are checked under this store's lock (one process owns the data directory).
 */
public final class EmbeddedMetadataStore implements MetadataStore {
    private final StorageEngine engine;
    private final Object lock = new Object();
    /** In memory: only this process writes the directory, so only its own changes need counting. */
    private final AtomicLong catalog = new AtomicLong();

    public EmbeddedMetadataStore(StorageEngine engine) {
        this.engine = engine;
    }

    @Override
    public MetaEntry get(byte[] key) {
        byte[] v = engine.get(Space.META, key);
        return v == null ? null : MetaEntry.of(key, v);
    }

    @Override
    public List<MetaEntry> list(byte[] from, byte[] to) {
        List<MetaEntry> out = new ArrayList<>();
        engine.scan(Space.META, from, to, kv -> out.add(MetaEntry.of(kv.key(), kv.value())));
        return out;
    }

    @Override
    public boolean apply(MetaWrite write) {
        WriteSet ws = new WriteSet();
        for (MetaWrite.Op op : write.ops()) {
            switch (op.kind()) {
                case CREATE, REPLACE, PUT -> ws.put(Space.META, op.key(), op.value());
                case DELETE_IF, DELETE -> ws.delete(Space.META, op.key());
                case DELETE_RANGE -> ws.deleteRange(Space.META, op.key(), op.end());
                case REQUIRE -> { }
            }
        }
        if (write.local() != null) {
            for (WriteSet.Write w : write.local().writes()) {
                if (w.rangeEnd() != null) {
                    ws.deleteRange(w.space(), w.key(), w.rangeEnd());
                } else if (w.value() == null) {
                    ws.delete(w.space(), w.key());
                } else {
                    ws.put(w.space(), w.key(), w.value());
                }
            }
        }
        synchronized (lock) { // unconditional writes too: a condition checked stays true until its write
            for (MetaWrite.Op op : write.ops()) {
                if (op.isConditional()) {
                    MetaEntry e = get(op.key());
                    long found = e == null ? MetaVersion.ABSENT : e.version();
                    if (found != op.expected()) {
                        return false;
                    }
                }
            }
            return applied(write, ws);
        }
    }

    private boolean applied(MetaWrite write, WriteSet ws) {
        if (!ws.isEmpty()) {
            engine.apply(ws);
        }
        if (write.isCatalogChange()) {
            catalog.incrementAndGet();
        }
        return true;
    }

    @Override
    public long catalogStamp() {
        return catalog.get();
    }

    @Override
    public boolean appliesLocalWrites() {
        return true;
    }

    @Override
    public void close() {
        // the engine is the core's; it closes it
    }
}

package io.tetradb.core.storage;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A storage engine passing every call to another and counting the reads tests ask about: point reads of
 * {@link Space#META} (where a partition's statistics record is) and cursors opened. {@link #close()} leaves the other
 * engine open: it belongs to whoever opened it.
 */
public final class CountingEngine implements StorageEngine {
    private final StorageEngine inner;
    /** Point reads of {@link Space#META} so far. */
    public final AtomicInteger metaGets = new AtomicInteger();
    /** Cursors opened so far, in any space. */
    public final AtomicInteger cursors = new AtomicInteger();

    public CountingEngine(StorageEngine inner) {
        this.inner = inner;
    }

    @Override
    public byte[] get(Space space, byte[] key) {
        if (space == Space.META) {
            metaGets.incrementAndGet();
        }
        return inner.get(space, key);
    }

    @Override
    public List<byte[]> multiGet(Space space, List<byte[]> keys) {
        return inner.multiGet(space, keys);
    }

    @Override
    public void scan(Space space, byte[] from, byte[] to, Predicate<KeyValue> visitor) {
        inner.scan(space, from, to, visitor);
    }

    @Override
    public KeyCursor cursor(Space space, byte[] from, byte[] to, boolean reverse) {
        cursors.incrementAndGet();
        return inner.cursor(space, from, to, reverse);
    }

    @Override
    public long awaitBackgroundWork(long maxMillis) throws InterruptedException {
        return inner.awaitBackgroundWork(maxMillis);
    }

    @Override
    public void apply(WriteSet writes) {
        inner.apply(writes);
    }

    @Override
    public long applyDeferred(WriteSet writes, boolean othersWaiting) {
        return inner.applyDeferred(writes, othersWaiting);
    }

    @Override
    public void awaitDurable(long ticket) {
        inner.awaitDurable(ticket);
    }

    @Override
    public void close() {
    }
}

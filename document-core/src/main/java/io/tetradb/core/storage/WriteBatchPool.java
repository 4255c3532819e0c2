package io.tetradb.core.storage;

import org.rocksdb.WriteBatch;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * pw-next (issue 17): the engine's few {@code WriteBatch}es kept between writes, so a write takes one and clears it
 * (one JNI call) instead of creating a native batch, reserving its buffer and freeing both after the write (two JNI
 * calls, a native allocation and a free). A kept batch is always cleared when taken, so nothing a failed write put
 * into it reaches the next. Bounded: {@value #SLOTS} batches, each only ever used for writes of at most
 * {@value #MAX_KEPT_BYTES} bytes (a larger write gets its own batch, closed after it), so the pool holds at most
 * ≈ 0.5 MB of native memory. Owned by one {@link RocksEngine}, closed with it once no write is under way.
 */
final class WriteBatchPool implements AutoCloseable {
    static final int SLOTS = 8;
    /** The largest write (its batch representation's bytes) that uses a kept batch. */
    static final int MAX_KEPT_BYTES = 64 * 1024;

    private final AtomicReferenceArray<WriteBatch> slots = new AtomicReferenceArray<>(SLOTS);

    /** An empty batch for a write of {@code bytes} (its representation's size): a kept one, or a new one. */
    WriteBatch take(int bytes) {
        if (bytes <= MAX_KEPT_BYTES) {
            int start = (int) Thread.currentThread().getId();
            for (int k = 0; k < SLOTS; k++) {
                int i = (start + k) & (SLOTS - 1);
                WriteBatch b = slots.get(i);
                if (b != null && slots.compareAndSet(i, b, null)) {
                    b.clear(); // whatever the last write left, applied or failed halfway through its puts
                    return b;
                }
            }
        }
        return new WriteBatch(bytes);
    }

    /** Gives back a batch {@link #take} gave for {@code bytes}: kept while a slot is free and it is small, else closed. */
    void giveBack(WriteBatch b, int bytes) {
        if (bytes <= MAX_KEPT_BYTES) {
            int start = (int) Thread.currentThread().getId();
            for (int k = 0; k < SLOTS; k++) {
                int i = (start + k) & (SLOTS - 1);
                if (slots.get(i) == null && slots.compareAndSet(i, null, b)) {
                    return;
                }
            }
        }
        b.close();
    }

    /** Closes the kept batches; no write may be under way. */
    @Override
    public void close() {
        for (int i = 0; i < SLOTS; i++) {
            WriteBatch b = slots.getAndSet(i, null);
            if (b != null) {
                b.close();
            }
        }
    }
}

package io.tetradb.core.bulk;

import io.tetradb.core.storage.RocksEngine;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.WriteSet;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The write sets of a bulk load's transactions not yet ingested: one per logical partition at most (a transaction
 * reads its partition's statistics and items from the store, so a second one in the same chunk would not see the
 * first). Their keys are held as sorted runs in pooled slabs ({@link SortedRuns}, {@link ChunkSlabs}), not as
 * arrays per key. {@link #commit} merges each space's runs into its SST file and ingests them with the META keys in one synced
 * write ({@link RocksEngine#ingest}); then each transaction's own completion runs (feed numbers released, write
 * stamps, partition sizes). Thread-safe: the loader's writer threads add to it side by side.
 */
public final class BulkChunk {
    /** What the core does once a transaction's writes are in (committed) or will never be (dropped). */
    public interface Completion {
        void committed();

        void dropped();
    }

    private static final boolean TRACE = Boolean.getBoolean("tetradb.bulk.trace");
    private static final java.lang.management.ThreadMXBean CPU = java.lang.management.ManagementFactory.getThreadMXBean();
    private final Set<ByteBuffer> partitions = new HashSet<>();
    private final Map<Space, SortedRuns> puts = new EnumMap<>(Space.class);
    private final ChunkSlabs slabs = new ChunkSlabs();
    private WriteSet meta = new WriteSet();
    private final List<Completion> completions = new ArrayList<>();
    private long elements;

    /** Claims a logical partition for this chunk; false when a transaction of it is in the chunk already. */
    public synchronized boolean claim(byte[] lpPrefix) {
        return partitions.add(ByteBuffer.wrap(lpPrefix));
    }

    /** Gives back a claim whose transaction wrote nothing (it failed). */
    public synchronized void unclaim(byte[] lpPrefix) {
        partitions.remove(ByteBuffer.wrap(lpPrefix));
    }

    /**
     * Adds a transaction's write set: puts only outside META (a bulk load creates; it deletes nothing there). Its
     * keys are sorted here, on the writer's thread, and copied into the chunk's slabs as one sorted run per space
     * (graph-load: the write set's arrays die young; the commit merges the runs).
     */
    public void add(WriteSet ws, int items, Completion completion) {
        // graph-load3: each space's writes counted first, then put in an array of that size and sorted there (no
        // list per space growing as it fills)
        List<WriteSet.Write> writes = ws.writes();
        Space[] spaces = Space.values();
        int[] counts = new int[spaces.length];
        for (WriteSet.Write w : writes) {
            if (w.space() != Space.META && w.value() == null) {
                completion.dropped();
                throw new IllegalStateException("a bulk load only creates: a delete in " + w.space() + " is not ingested");
            }
            counts[w.space().ordinal()]++;
        }
        WriteSet.Write[][] bySpace = new WriteSet.Write[spaces.length][];
        for (int s = 0; s < spaces.length; s++) {
            bySpace[s] = counts[s] == 0 ? null : new WriteSet.Write[counts[s]];
            counts[s] = 0;
        }
        for (WriteSet.Write w : writes) {
            int s = w.space().ordinal();
            bySpace[s][counts[s]++] = w;
        }
        for (int s = 0; s < spaces.length; s++) {
            if (bySpace[s] != null && spaces[s] != Space.META) {
                bySpace[s] = RunOrder.sorted(bySpace[s]); // stable: of equal keys the later put stays later
            }
        }
        synchronized (this) {
            for (int s = 0; s < spaces.length; s++) {
                WriteSet.Write[] kvs = bySpace[s];
                if (kvs == null) {
                    continue;
                }
                if (spaces[s] == Space.META) {
                    for (WriteSet.Write w : kvs) {
                        if (w.value() == null) {
                            meta.delete(w.space(), w.key());
                        } else {
                            meta.put(w.space(), w.key(), w.value());
                        }
                    }
                    continue;
                }
                long[] run = new long[kvs.length];
                for (int i = 0; i < run.length; i++) {
                    run[i] = slabs.append(kvs[i].key(), kvs[i].value());
                }
                puts.computeIfAbsent(spaces[s], sp -> new SortedRuns(slabs)).add(run);
            }
            completions.add(completion);
            elements += items;
        }
    }

    /** Items written into this chunk so far. */
    public synchronized long elements() {
        return elements;
    }

    public synchronized boolean isEmpty() {
        return completions.isEmpty();
    }

    /** Sorts and ingests everything added (call once every writer of it has returned); durable when it returns. */
    synchronized void commit(RocksEngine engine) {
        if (completions.isEmpty()) {
            return;
        }
        try {
            long t0 = System.nanoTime(), c0 = CPU.getCurrentThreadCpuTime();
            engine.ingest(new EnumMap<>(puts), meta); // each space's runs merged while its SST file is written
            long t1 = System.nanoTime(), c1 = CPU.getCurrentThreadCpuTime();
            if (TRACE) {
                StringBuilder n = new StringBuilder();
                puts.forEach((sp, kv) -> n.append(sp).append('=').append(kv.records()).append(' '));
                System.err.printf("bulk chunk %d items, %d MB: merge + ingest %.1f ms (this thread's cpu %.1f) keys %s%n",
                        elements, slabs.bytes() >> 20, (t1 - t0) / 1e6, (c1 - c0) / 1e6, n);
            }
        } catch (RuntimeException | Error e) {
            drop();
            throw e;
        }
        completions.forEach(Completion::committed);
        clear();
    }

    /** Forgets everything added: nothing of it was written. */
    synchronized void drop() {
        completions.forEach(Completion::dropped);
        clear();
    }

    private void clear() {
        completions.clear();
        puts.clear();
        partitions.clear();
        elements = 0;
        meta = new WriteSet();
        slabs.reset();
    }
}

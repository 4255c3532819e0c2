package io.tetradb.core.bulk;

import io.tetradb.core.storage.RocksEngine;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.WriteSet;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The write sets of a bulk load's transactions not yet ingested: one per logical partition at most (a transaction
 * reads its partition's statistics and items from the store, so a second one in the same chunk would not see the
 * first). {@link #commit} sorts each space's keys and ingests them as SST files with the META keys in one synced
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
    private final Map<Space, List<byte[][]>> puts = new EnumMap<>(Space.class);
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

    /** Adds a transaction's write set: puts only outside META (a bulk load creates; it deletes nothing there). */
    public void add(WriteSet ws, int items, Completion completion) {
        Map<Space, List<byte[][]>> mine = new EnumMap<>(Space.class);
        List<WriteSet.Write> metaWrites = new ArrayList<>();
        for (WriteSet.Write w : ws.writes()) {
            if (w.space() == Space.META) {
                metaWrites.add(w);
            } else if (w.value() == null) {
                completion.dropped();
                throw new IllegalStateException("a bulk load only creates: a delete in " + w.space() + " is not ingested");
            } else {
                mine.computeIfAbsent(w.space(), s -> new ArrayList<>()).add(new byte[][] {w.key(), w.value()});
            }
        }
        // sorted here, on the writer's thread (index entries already are): commit then merges sorted runs
        mine.values().forEach(kvs -> kvs.sort(KEY_ORDER));
        synchronized (this) {
            mine.forEach((space, kvs) -> puts.computeIfAbsent(space, s -> new ArrayList<>()).addAll(kvs));
            for (WriteSet.Write w : metaWrites) {
                if (w.value() == null) {
                    meta.delete(w.space(), w.key());
                } else {
                    meta.put(w.space(), w.key(), w.value());
                }
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
            Map<Space, List<byte[][]>> sorted = new java.util.concurrent.ConcurrentHashMap<>();
            puts.entrySet().parallelStream().forEach(e -> sorted.put(e.getKey(), sorted(e.getValue())));
            long t1 = System.nanoTime(), c1 = CPU.getCurrentThreadCpuTime();
            engine.ingest(sorted, meta);
            long t2 = System.nanoTime(), c2 = CPU.getCurrentThreadCpuTime();
            if (TRACE) {
                StringBuilder n = new StringBuilder();
                puts.forEach((sp, kv) -> n.append(sp).append('=').append(kv.size()).append(' '));
                System.err.printf("bulk chunk %d items: sort %.1f ms (cpu %.1f), ingest %.1f ms (cpu %.1f) keys %s%n",
                        elements, (t1 - t0) / 1e6, (c1 - c0) / 1e6, (t2 - t1) / 1e6, (c2 - c1) / 1e6, n);
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
    }

    private static final Comparator<byte[][]> KEY_ORDER = (a, b) -> Arrays.compareUnsigned(a[0], b[0]);

    /**
     * Ascending unsigned key order; of equal keys the later put (as in a write batch). The list is the transactions'
     * sorted runs one after another, which TimSort (stable) merges in about n log(runs) comparisons.
     */
    private static List<byte[][]> sorted(List<byte[][]> kvs) {
        byte[][][] a = kvs.toArray(new byte[0][][]);
        Arrays.sort(a, KEY_ORDER);
        List<byte[][]> out = new ArrayList<>(a.length);
        for (byte[][] kv : a) {
            if (!out.isEmpty() && Arrays.equals(out.get(out.size() - 1)[0], kv[0])) {
                out.set(out.size() - 1, kv);
            } else {
                out.add(kv);
            }
        }
        return out;
    }
}

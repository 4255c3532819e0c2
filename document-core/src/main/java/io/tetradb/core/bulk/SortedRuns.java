package io.tetradb.core.bulk;

import io.tetradb.core.storage.SortedPuts;
import org.rocksdb.RocksDBException;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One space's puts of a bulk chunk as sorted runs (graph-load, issue 18): each transaction's keys, sorted on its
 * writer thread and copied into the chunk's {@link ChunkSlabs}, are one run of record addresses; {@link #forEach}
 * merges the runs (a heap of run heads, about n·log(runs) key comparisons on the slab bytes, no object per key)
 * and hands each record to the SST writer through two reused direct buffers. Of equal keys the later put wins, as
 * in a write batch: later runs were added later, and inside a run a later record is a later put.
 */
final class SortedRuns implements SortedPuts {
    private final ChunkSlabs slabs;
    private final List<long[]> runs = new ArrayList<>();
    private long records;

    SortedRuns(ChunkSlabs slabs) {
        this.slabs = slabs;
    }

    /** Adds one run: record addresses in ascending key order (equal keys in put order). */
    void add(long[] run) {
        if (run.length > 0) {
            runs.add(run);
            records += run.length;
        }
    }

    long records() {
        return records;
    }

    @Override
    public boolean isEmpty() {
        return records == 0;
    }

    @Override
    public void forEach(Sink sink) throws RocksDBException {
        int k = runs.size();
        int[] to = new int[k];
        for (int i = 0; i < k; i++) {
            to[i] = runs.get(i).length;
        }
        merge(new int[k], to, sink);
    }

    /** Merges each run's records {@code [pos[r], to[r])}: a heap of run heads ordered by (key, run index). */
    private void merge(int[] pos, int[] to, Sink sink) throws RocksDBException {
        int k = runs.size();
        int[] heap = new int[k]; // run indices, ordered by (head key, run index)
        int size = 0;
        for (int i = 0; i < k; i++) {
            if (pos[i] < to[i]) {
                heap[size++] = i;
            }
        }
        for (int i = size / 2 - 1; i >= 0; i--) {
            down(heap, size, i, pos);
        }
        Out out = new Out(sink);
        while (size > 0) {
            int r = heap[0];
            out.offer(runs.get(r)[pos[r]]);
            if (++pos[r] == to[r]) {
                heap[0] = heap[--size];
            }
            down(heap, size, 0, pos);
        }
        out.flush();
    }

    private void down(int[] heap, int size, int i, int[] pos) {
        int r = heap[i];
        while (true) {
            int c = 2 * i + 1;
            if (c >= size) {
                break;
            }
            if (c + 1 < size && less(heap[c + 1], heap[c], pos)) {
                c++;
            }
            if (!less(heap[c], r, pos)) {
                break;
            }
            heap[i] = heap[c];
            i = c;
        }
        heap[i] = r;
    }

    /** Run a's head before run b's: by key, then the earlier run first (so the later put comes out later). */
    private boolean less(int a, int b, int[] pos) {
        int c = compare(runs.get(a)[pos[a]], runs.get(b)[pos[b]]);
        return c < 0 || c == 0 && a < b;
    }

    int compare(long a, long b) {
        byte[] sa = slabs.slab(a), sb = slabs.slab(b);
        int oa = ChunkSlabs.offset(a), ob = ChunkSlabs.offset(b);
        return Arrays.compareUnsigned(sa, oa + 8, oa + 8 + ChunkSlabs.keyLength(sa, oa),
                sb, ob + 8, ob + 8 + ChunkSlabs.keyLength(sb, ob));
    }

    /** Holds back one record until the next has another key (a repeated key replaces it), then writes it. */
    private final class Out {
        private final Sink sink;
        private ByteBuffer key = ByteBuffer.allocateDirect(1024);
        private ByteBuffer value = ByteBuffer.allocateDirect(64 * 1024);
        private long held = -1;

        Out(Sink sink) {
            this.sink = sink;
        }

        void offer(long record) throws RocksDBException {
            if (held != -1 && compare(held, record) != 0) {
                write(held);
            }
            held = record;
        }

        void flush() throws RocksDBException {
            if (held != -1) {
                write(held);
                held = -1;
            }
        }

        private void write(long record) throws RocksDBException {
            byte[] s = slabs.slab(record);
            int o = ChunkSlabs.offset(record);
            int kl = ChunkSlabs.keyLength(s, o), vl = ChunkSlabs.valueLength(s, o);
            if (key.capacity() < kl) {
                key = ByteBuffer.allocateDirect(Math.max(kl, 2 * key.capacity()));
            }
            if (value.capacity() < vl) {
                value = ByteBuffer.allocateDirect(Math.max(vl, 2 * value.capacity()));
            }
            key.clear();
            key.put(s, o + 8, kl).flip();
            value.clear();
            value.put(s, o + 8 + kl, vl).flip();
            sink.put(key, value);
        }
    }
}

package io.tetradb.core.bulk;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.SoftReference;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * Where a bulk chunk keeps its keys and values until it is ingested (graph-load, issue 18): large byte arrays
 * ("slabs") holding records {@code [key length][value length][key][value]}, each addressed by a long (slab index,
 * offset). A transaction's keys are copied in when it joins the chunk, so the arrays the write path made die young
 * instead of living (and being copied by every young collection) until the commit; a slab is large enough to be
 * allocated outside the young generation, and the slabs are kept for the next chunk ({@link #reset}), of this bulk
 * load or of the next one: graph-warm (issue 18) found each load's 56 MB of new slabs (air-routes) piling up as
 * humongous regions the young collections do not free, so they are now given to a process-wide pool, softly held (a
 * collection under memory pressure takes them back). Not thread-safe: the chunk appends under its own lock.
 */
final class ChunkSlabs {
    /** 8 MiB: above half of any G1 region size up to 16 MiB, so allocated as humongous, never copied. */
    static final int SLAB_BYTES = 8 << 20;
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    /** Slabs of ordinary size no chunk holds, at most {@link #POOLED} of them (128 MiB). */
    private static final ConcurrentLinkedDeque<SoftReference<byte[]>> POOL = new ConcurrentLinkedDeque<>();
    private static final int POOLED = 16;

    private final List<byte[]> slabs = new ArrayList<>();
    private byte[] current;
    private int used;
    private long bytes;

    /** Appends one record; returns its address. */
    long append(byte[] key, byte[] value) {
        int size = 8 + key.length + value.length;
        if (current == null || used + size > current.length) {
            current = size > SLAB_BYTES ? new byte[size] : pooledOrNew();
            slabs.add(current);
            used = 0;
        }
        int at = used;
        INT.set(current, at, key.length);
        INT.set(current, at + 4, value.length);
        System.arraycopy(key, 0, current, at + 8, key.length);
        System.arraycopy(value, 0, current, at + 8 + key.length, value.length);
        used += size;
        bytes += size;
        return (long) (slabs.size() - 1) << 32 | at;
    }

    private static byte[] pooledOrNew() {
        for (SoftReference<byte[]> ref; (ref = POOL.pollFirst()) != null; ) {
            byte[] slab = ref.get();
            if (slab != null) {
                return slab; // its old bytes are never read: a record is read only where it was appended
            }
        }
        return new byte[SLAB_BYTES];
    }

    /** Slabs in the pool now (for tests). */
    static int pooled() {
        return POOL.size();
    }

    /** Empties the pool (for tests). */
    static void clearPool() {
        POOL.clear();
    }

    byte[] slab(long address) {
        return slabs.get((int) (address >>> 32));
    }

    static int offset(long address) {
        return (int) address;
    }

    static int keyLength(byte[] slab, int offset) {
        return (int) INT.get(slab, offset);
    }

    static int valueLength(byte[] slab, int offset) {
        return (int) INT.get(slab, offset + 4);
    }

    /** Bytes held (records and their headers). */
    long bytes() {
        return bytes;
    }

    /** Forgets every record; the slabs of ordinary size go to the pool, for the next chunk. */
    void reset() {
        for (byte[] s : slabs) {
            if (s.length == SLAB_BYTES && POOL.size() < POOLED) {
                POOL.addFirst(new SoftReference<>(s));
            }
        }
        slabs.clear();
        current = null;
        used = 0;
        bytes = 0;
    }

}

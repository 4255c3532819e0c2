package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.partition.PhysicalPartition;
import io.tetradb.core.storage.KeyValue;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.WriteSet;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Brings a container's index entries from its previous indexing policy to its current one, online, in a daemon
 * thread. It walks DOCS in key order in chunks; each chunk removes the previous policy's entries of its items, writes
 * the current policy's, moves the cursor (the last converted key) and corrects the logical partitions' sizes, all in
 * one atomic write. Items, their {@code _ts}, etag and lsn, and the change feed are untouched: a rebuild is no user
 * write. A stopped job (close) resumes from the cursor stored in META at the next open.
 *
 * <p>Writers decide which policy an item's stored entries follow by comparing its key with the cursor, under their
 * locks; so the cursor may only move across keys no writer is deciding about. Inside one logical partition the job
 * holds that partition's lock (like a writer). When it moves into the next logical partition it holds the container's
 * map lock exclusively: the keys it jumps over may belong to partitions whose first item a writer is creating.
 */
final class IndexRebuild {
    /** Called after each committed chunk; tests pause or stop the job there. */
    interface ChunkHook {
        void afterChunk(ContainerStore container) throws InterruptedException;
    }

    private static final System.Logger LOG = System.getLogger(IndexRebuild.class.getName());

    private final CoreStore store;
    private final ContainerStore container;
    /** The policy JSON the unconverted items follow, kept in the META record with the cursor. */
    private final JsonNode previousPolicy;
    private final Thread thread;
    private volatile boolean stopped;
    /** Shared-engine hook: on a shared engine the steps convert one logical partition each, or null. */
    private final PartitionIndexRebuild shared;

    IndexRebuild(CoreStore store, ContainerStore container, JsonNode previousPolicy) {
        this.store = store;
        this.container = container;
        this.previousPolicy = previousPolicy;
        this.thread = new Thread(this::run, "tetradb-index-rebuild-" + container.definition().id());
        thread.setDaemon(true);
        this.shared = store.onSharedEngine() ? new PartitionIndexRebuild(store, container, previousPolicy, () -> stopped)
                : null;
    }

    void start() {
        thread.start();
    }

    /** Stops after the chunk in progress (it is atomic) and waits for the thread to end. */
    void stop() {
        stopped = true;
        thread.interrupt();
        if (Thread.currentThread() != thread) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    void await() throws InterruptedException {
        thread.join();
    }

    boolean isAlive() {
        return thread.isAlive();
    }

    private void run() {
        try {
            while (!stopped && step()) {
                ChunkHook hook = store.rebuildHook;
                if (hook != null) {
                    hook.afterChunk(container);
                }
            }
        } catch (InterruptedException e) {
            // stopped: the cursor in META says where the next open resumes
        } catch (RuntimeException e) {
            if (!stopped && !container.isDeleted()) {
                LOG.log(System.Logger.Level.ERROR, "index rebuild of container " + container.definition().id()
                        + " failed; it resumes at the next open", e);
            }
        }
    }

    /** Converts one chunk; false when there is nothing left (or the job must end). */
    private boolean step() {
        if (shared != null) { // shared-engine hook: one logical partition per conditional apply
            return shared.step();
        }
        IndexingState s = container.indexingState();
        if (!s.rebuilding()) {
            return false;
        }
        byte[] next = firstKeyAfter(s.cursor());
        if (next != null && s.cursor() != null) {
            byte[] lp = container.logicalPartitionOf(next);
            if (Arrays.equals(lp, container.logicalPartitionOf(s.cursor()))) {
                return chunkInPartition(lp);
            }
        }
        return chunkAcrossPartitions();
    }

    /** A chunk inside the logical partition the cursor is in: that partition's lock suffices. */
    private boolean chunkInPartition(byte[] lp) {
        container.mapLock.readLock().lock();
        try {
            if (container.isDeleted() || stopped) {
                return false;
            }
            ReentrantLock lock = store.lockFor(lp);
            lock.lock();
            try {
                IndexingState s = container.indexingState();
                List<KeyValue> items = read(s.cursor(), Keys.prefixEnd(lp));
                if (!items.isEmpty()) {
                    commit(s, items);
                }
                return true; // empty: the partition's rest was deleted meanwhile; the next step moves on
            } finally {
                lock.unlock();
            }
        } finally {
            container.mapLock.readLock().unlock();
        }
    }

    /** A chunk that may jump into further logical partitions: no writer of the container runs meanwhile. */
    private boolean chunkAcrossPartitions() {
        container.mapLock.writeLock().lock();
        try {
            if (container.isDeleted() || stopped) {
                return false;
            }
            IndexingState s = container.indexingState();
            List<KeyValue> items = read(s.cursor(), Keys.collId(container.collId() + 1));
            if (items.isEmpty()) {
                finish(s);
                return false;
            }
            commit(s, items);
            return true;
        } finally {
            container.mapLock.writeLock().unlock();
        }
    }

    private byte[] firstKeyAfter(byte[] cursor) {
        byte[][] first = {null};
        store.engine().scan(Space.DOCS, from(cursor), Keys.collId(container.collId() + 1), kv -> {
            first[0] = kv.key();
            return false;
        });
        return first[0];
    }

    /** The smallest key after the cursor (the container's first key if nothing was converted yet). */
    private byte[] from(byte[] cursor) {
        return cursor == null ? container.collIdBytes() : Arrays.copyOf(cursor, cursor.length + 1);
    }

    private List<KeyValue> read(byte[] cursor, byte[] to) {
        int limit = Math.max(1, store.rebuildChunkItems);
        List<KeyValue> out = new ArrayList<>();
        store.engine().scan(Space.DOCS, from(cursor), to, kv -> {
            out.add(kv);
            return out.size() < limit;
        });
        return out;
    }

    /** Converts {@code items} (in key order, all after the cursor) and moves the cursor past them, atomically. */
    private void commit(IndexingState s, List<KeyValue> items) {
        WriteSet ws = new WriteSet();
        IndexWrites index = new IndexWrites();
        Map<ByteBuffer, Long> deltas = new LinkedHashMap<>(); // logical partition prefix → bytes of entries gained
        for (KeyValue kv : items) {
            ObjectNode item = store.codec().parse(kv.value());
            long ts = item.path("_ts").asLong();
            List<ByteBuffer> was = container.indexEntries(kv.key(), item, ts, s.previous());
            List<ByteBuffer> is = container.indexEntries(kv.key(), item, ts, s.current());
            index.diff(was, is);
            // sizes count entry lists (repeats included), as the writers do
            long delta = ContainerStore.bytes(is) - ContainerStore.bytes(was);
            deltas.merge(ByteBuffer.wrap(container.logicalPartitionOf(kv.key())), delta, Long::sum);
        }
        index.addTo(ws);
        for (Map.Entry<ByteBuffer, Long> d : deltas.entrySet()) {
            if (d.getValue() != 0) {
                byte[] statsKey = Keys.withByte(Keys.LOGICAL_PARTITION_STATS, d.getKey().array());
                LogicalPartitionStats st = LogicalPartitionStats.decode( // core-stats: record or newest index key
                        io.tetradb.core.feed.StoredPartitionStats.read(store.engine(), statsKey));
                ws.put(Space.META, statsKey,
                        new LogicalPartitionStats(st.bytes() + d.getValue(), st.items(), st.lsn()).encode());
            }
        }
        byte[] last = items.get(items.size() - 1).key();
        IndexingState next = s.advancedTo(last, items.size());
        ContainerDefinition def = container.definition();
        ws.put(Space.META, Keys.indexRebuild(container.collId()),
                new RebuildRecord(def.database(), def.id(), previousPolicy, last, next.converted()).encode());
        store.engine().apply(ws);
        for (ByteBuffer lp : deltas.keySet()) { // core-write: sizes changed outside the transactions (under their locks)
            store.forgetPartitionStats(lp.array());
        }
        container.indexingState(next);
        int epkStart = container.collIdBytes().length;
        int epkEnd = epkStart + 16 * def.partitionKey().levels();
        for (Map.Entry<ByteBuffer, Long> d : deltas.entrySet()) {
            if (d.getValue() != 0) {
                PhysicalPartition pp = container.partitionMap().route(
                        Arrays.copyOfRange(d.getKey().array(), epkStart, epkEnd));
                pp.add(d.getValue(), 0, 0);
                if (d.getValue() > 0) {
                    store.splitter().maybeSplit(container, pp);
                }
            }
        }
    }

    /** Every item converted: the previous policy and the cursor go, in one write. */
    private void finish(IndexingState s) {
        // metadata contract: a catalog change, so other servers sharing the metadata see the rebuild end
        store.applyMeta(new WriteSet().delete(Space.META, Keys.indexRebuild(container.collId())), true);
        container.indexingState(IndexingState.settled(s.current()));
    }
}

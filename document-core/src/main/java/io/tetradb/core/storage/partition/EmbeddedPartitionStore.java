package io.tetradb.core.storage.partition;

import io.tetradb.core.feed.ChangeRecord;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.StorageEngine;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

import static io.tetradb.core.storage.partition.PartitionLayout.STATS;
import static io.tetradb.core.storage.partition.PartitionLayout.concat;
import static io.tetradb.core.storage.partition.PartitionLayout.container;

/**
 * {@link PartitionStore} on the embedded engine (RocksDB): a partition's items, index entries, change records and
 * statistics are keys of the DOCS, INDEX, FEED and META spaces ({@link PartitionLayout}), and an apply is one atomic
 * {@code WriteBatch}. The version is the lsn in the partition's statistics. The conditional part is a check under a
 * lock of this store's own (striped by partition) around the read of the version and the write: a stale expected
 * version refuses and writes nothing, whoever else applies to the engine through this store.
 */
public final class EmbeddedPartitionStore implements PartitionStore {
    private static final int STRIPES = 256;

    private final StorageEngine engine;
    private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];

    public EmbeddedPartitionStore(StorageEngine engine) {
        this.engine = engine;
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new ReentrantLock();
        }
    }

    @Override
    public PartitionStats stats(LogicalPartition p) {
        // core-stats: the record or the newest partition index key, whichever is newer (the core's own writes)
        return PartitionStats.decode(io.tetradb.core.feed.StoredPartitionStats.read(engine, PartitionLayout.statsKey(p)));
    }

    @Override
    public ApplyResult apply(PartitionWrite write) {
        LogicalPartition p = write.partition();
        ReentrantLock lock = stripes[(p.hashCode() ^ (p.hashCode() >>> 16)) & (STRIPES - 1)];
        lock.lock();
        try {
            // write-cost: a version the core read under its own partition lock is current (nobody else writes
            // this engine's partitions); a writer without that lock is checked against the stored statistics
            long current = write.expectedReadUnderLock() ? write.expected() : version(p);
            if (current != write.expected()) {
                return new ApplyResult(false, current, 0);
            }
            // visible at once, durable at the ticket: the caller waits for it after releasing its own locks
            long ticket = engine.applyDeferred(write.writes(), write.othersWaiting());
            return new ApplyResult(true, write.next(), ticket);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void awaitDurable(long ticket) {
        engine.awaitDurable(ticket);
    }

    @Override
    public void promiseAwait(long ticket) {
        engine.promiseAwait(ticket);
    }

    @Override
    public byte[] read(LogicalPartition p, String id) {
        return engine.get(Space.DOCS, PartitionLayout.itemKey(p, id));
    }

    @Override
    public List<byte[]> readAll(List<LogicalPartition> partitions, List<String> ids) {
        List<byte[]> keys = new ArrayList<>(ids.size());
        for (int i = 0; i < ids.size(); i++) {
            keys.add(PartitionLayout.itemKey(partitions.get(i), ids.get(i)));
        }
        return keys.isEmpty() ? List.of() : engine.multiGet(Space.DOCS, keys);
    }

    /** Side writes keep their own keys in the embedded engine. */
    @Override
    public byte[] readDerived(LogicalPartition p, Space space, byte[] key) {
        return engine.get(space, key);
    }

    /** Side writes keep their own keys in the embedded engine: one ordered range, whichever partition wrote them. */
    @Override
    public List<io.tetradb.core.storage.KeyValue> scanDerived(LogicalPartition p, Space space, byte[] from, byte[] to,
                                                              int limit) {
        return scanSpace(space, from, to, limit);
    }

    @Override
    public List<io.tetradb.core.storage.KeyValue> seekDerived(int container, Space space, byte[] from, byte[] to,
                                                              int limit) {
        return scanSpace(space, from, to == null ? PartitionLayout.prefixEnd(PartitionLayout.container(container)) : to,
                limit);
    }

    private List<io.tetradb.core.storage.KeyValue> scanSpace(Space space, byte[] from, byte[] to, int limit) {
        List<io.tetradb.core.storage.KeyValue> out = new ArrayList<>();
        if (limit <= 0) {
            return out;
        }
        engine.scan(space, from, to, kv -> {
            out.add(kv);
            return out.size() < limit;
        });
        return out;
    }

    @Override
    public List<StoredItem> scan(LogicalPartition p, String from, String to, int limit) {
        byte[] prefix = p.prefix();
        byte[] lo = from == null ? prefix : PartitionLayout.concat(prefix, PartitionLayout.utf8(from));
        byte[] hi = to == null ? PartitionLayout.prefixEnd(prefix) : PartitionLayout.concat(prefix, PartitionLayout.utf8(to));
        List<StoredItem> out = new ArrayList<>();
        if (limit <= 0) {
            return out;
        }
        engine.scan(Space.DOCS, lo, hi, kv -> {
            out.add(new StoredItem(new String(kv.key(), prefix.length, kv.key().length - prefix.length,
                    StandardCharsets.UTF_8), kv.value()));
            return out.size() < limit;
        });
        return out;
    }

    @Override
    public List<byte[]> seek(int container, byte[] fromTerm, byte[] toTerm, int limit) {
        byte[] c = PartitionLayout.container(container);
        byte[] lo = PartitionLayout.concat(c, fromTerm);
        byte[] hi = toTerm == null ? PartitionLayout.prefixEnd(c) : PartitionLayout.concat(c, toTerm);
        List<byte[]> out = new ArrayList<>();
        if (limit <= 0) {
            return out;
        }
        engine.scan(Space.INDEX, lo, hi, kv -> {
            out.add(Arrays.copyOfRange(kv.key(), 4, kv.key().length));
            return out.size() < limit;
        });
        return out;
    }

    /**
     * The embedded feed is one sequence per container (its continuation currency, across partitions and splits), so
     * a partition's records are found by reading the container's and keeping the partition's.
     */
    @Override
    public List<ChangeRecord> changes(LogicalPartition p, long afterLsn, int limit) {
        byte[] from = Arrays.copyOf(PartitionLayout.feedKey(p.container(), 0), 5);
        byte[] lp = p.key();
        List<ChangeRecord> out = new ArrayList<>();
        engine.scan(Space.FEED, from, PartitionLayout.prefixEnd(from), kv -> {
            for (ChangeRecord r : io.tetradb.core.feed.ChangeRuns.decode(PartitionLayout.getLong(kv.key(), 5),
                    kv.value())) { // one record, or a transaction's run of them
                if (r.lsn() > afterLsn && Arrays.equals(r.logicalPartition(), lp)) {
                    out.add(r);
                }
            }
            return true;
        });
        out.sort(Comparator.comparingLong(ChangeRecord::lsn));
        return out.size() > limit ? new ArrayList<>(out.subList(0, Math.max(0, limit))) : out;
    }

    @Override
    public List<PartitionVersion> partitions(int container, byte[] fromKey, byte[] toKey) {
        byte[] prefix = PartitionLayout.concat(new byte[]{PartitionLayout.STATS}, PartitionLayout.container(container));
        byte[] lo = fromKey == null ? prefix : PartitionLayout.concat(prefix, fromKey);
        byte[] hi = toKey == null ? PartitionLayout.prefixEnd(prefix) : PartitionLayout.concat(prefix, toKey);
        List<PartitionVersion> out = new ArrayList<>();
        io.tetradb.core.feed.StoredPartitionStats.scan(engine, lo, hi, kv -> {
            out.add(new PartitionVersion(new LogicalPartition(container,
                    Arrays.copyOfRange(kv.key(), prefix.length, kv.key().length)), PartitionStats.decode(kv.value())));
            return true;
        });
        return out;
    }

    /**
     * The records' FEED keys (found by a scan of the container's sequence, as {@link #changes} finds them) and the
     * partition-index keys ({@code collId · 'P' · EPK · pk · seq}) whose runs they end, in one write. A core on its own directory prunes
     * with its own pruner; a core whose item store is this engine apart from its own (a test's shared store) calls it.
     */
    @Override
    public void deleteChanges(LogicalPartition p, List<Long> lsns) {
        java.util.Set<Long> wanted = new java.util.HashSet<>(lsns);
        byte[] from = Arrays.copyOf(PartitionLayout.feedKey(p.container(), 0), 5);
        byte[] lp = p.key();
        io.tetradb.core.feed.PartitionRunKeys doomed = new io.tetradb.core.feed.PartitionRunKeys(engine, p.container());
        engine.scan(Space.FEED, from, PartitionLayout.prefixEnd(from), kv -> {
            for (ChangeRecord r : io.tetradb.core.feed.ChangeRuns.decode(PartitionLayout.getLong(kv.key(), 5),
                    kv.value())) {
                if (wanted.contains(r.lsn()) && Arrays.equals(r.logicalPartition(), lp)) {
                    doomed.add(lp, r.seq());
                }
            }
            return true;
        });
        io.tetradb.core.storage.WriteSet ws = new io.tetradb.core.storage.WriteSet();
        doomed.deleteInto(ws); // the records, and each partition index key whose whole run is then gone
        engine.apply(ws);
    }

    /**
     * Range deletes of the container's items, index entries, change records, partition statistics and unique-key
     * entries. A core on its own directory never calls it (its container deletion removes those ranges in the same
     * write); a core whose item store is this engine apart from its metadata (a test's shared store) does.
     */
    @Override
    public void dropContainer(int container) {
        byte[] coll = container(container);
        byte[] next = container(container + 1);
        byte[] stats = new byte[]{STATS};
        byte[] unique = new byte[]{0x22}; // UniqueKeyIndex: 22 · collId · EPK · pk · …
        engine.apply(new io.tetradb.core.storage.WriteSet()
                .deleteRange(Space.DOCS, coll, next)
                .deleteRange(Space.INDEX, coll, next)
                .deleteRange(Space.FEED, coll, next)
                .deleteRange(Space.META, concat(stats, coll), concat(stats, next))
                .deleteRange(Space.META, concat(unique, coll), concat(unique, next)));
    }

    /** The engine belongs to the core store. */
    @Override
    public void close() {
    }
}

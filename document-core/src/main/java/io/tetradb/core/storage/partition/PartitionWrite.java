package io.tetradb.core.storage.partition;

import io.tetradb.core.feed.ChangeRecord;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.WriteSet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One transaction of one logical partition, as {@link PartitionStore#apply} takes it: the version its writer read
 * ({@code expected}), the version it sets ({@code next}), and its writes. The writes are held once, as a
 * {@link WriteSet} in the embedded layout ({@link PartitionLayout}), which the embedded engine applies as they are;
 * the views ({@link #items()}, {@link #terms()}, {@link #changes()}, {@link #stats()}, {@link #sideWrites()}) are what
 * another engine stores, computed when first asked.
 */
public final class PartitionWrite {
    private final LogicalPartition partition;
    private final long expected;
    private final long next;
    private final WriteSet writes;
    private List<ItemMutation> items;
    private List<TermChange> terms;
    private List<ChangeRecord> changes;
    private PartitionStats stats;
    private List<WriteSet.Write> sideWrites;
    private boolean othersWaiting = true;
    private boolean expectedReadUnderLock;

    public PartitionWrite(LogicalPartition partition, long expected, long next, WriteSet writes) {
        if (next < expected) {
            throw new IllegalArgumentException("the next version (" + next + ") is below the expected one ("
                    + expected + ")");
        }
        this.partition = partition;
        this.expected = expected;
        this.next = next;
        this.writes = writes;
    }

    public static Builder builder(LogicalPartition p, long expected, long next) {
        return new Builder(p, expected, next);
    }

    public LogicalPartition partition() {
        return partition;
    }

    public long expected() {
        return expected;
    }

    public long next() {
        return next;
    }

    /**
     * A durability hint: other writers of this partition queue behind this one, so its sync must come after the
     * caller releases its locks (group commit). False lets an engine sync inline (see {@code tetradb.wal.inlineSync}).
     */
    public boolean othersWaiting() {
        return othersWaiting;
    }

    public PartitionWrite othersWaiting(boolean waiting) {
        this.othersWaiting = waiting;
        return this;
    }

    /**
     * write-cost hook: the writer read {@link #expected()} from this same engine under a lock that every writer of
     * the partition in this process holds while it reads and applies (the core's partition lock). An engine that
     * only this process writes (the embedded one: RocksDB locks its directory) may then skip re-reading the version;
     * an engine shared between servers ignores the hint and checks as always.
     */
    public boolean expectedReadUnderLock() {
        return expectedReadUnderLock;
    }

    public PartitionWrite expectedReadUnderLock(boolean held) {
        this.expectedReadUnderLock = held;
        return this;
    }

    /** The writes in the embedded layout. */
    public WriteSet writes() {
        return writes;
    }

    /** Items put or deleted, in the order written. */
    public List<ItemMutation> items() {
        classify();
        return items;
    }

    /** Index terms added and removed (of the items of {@link #items()}). */
    public List<TermChange> terms() {
        classify();
        return terms;
    }

    /** The change records of the transaction (one per changed item). */
    public List<ChangeRecord> changes() {
        classify();
        return changes;
    }

    /** The partition's statistics after the write, or null when the write leaves them as they are. */
    public PartitionStats stats() {
        classify();
        return stats;
    }

    /**
     * The core's other derived keys written with the transaction, which the contract does not name yet: unique-key
     * entries, face-unique owners, TTL expiry entries, graph adjacency (see document-core/README.md).
     */
    public List<WriteSet.Write> sideWrites() {
        classify();
        return sideWrites;
    }

    private void classify() {
        if (items != null) {
            return;
        }
        List<ItemMutation> is = new ArrayList<>();
        List<TermChange> ts = new ArrayList<>();
        List<ChangeRecord> cs = new ArrayList<>();
        List<WriteSet.Write> side = new ArrayList<>();
        byte[] prefix = partition.prefix();
        byte[] statsKey = PartitionLayout.statsKey(partition);
        byte[] feedPrefix = Arrays.copyOf(PartitionLayout.feedKey(partition.container(), 0), 5);
        List<WriteSet.Write> indexWrites = new ArrayList<>();
        for (WriteSet.Write w : writes.writes()) {
            boolean single = w.rangeEnd() == null;
            if (single && w.space() == Space.DOCS && PartitionLayout.startsWith(w.key(), prefix)) {
                String id = new String(w.key(), prefix.length, w.key().length - prefix.length,
                        java.nio.charset.StandardCharsets.UTF_8);
                is.add(w.value() == null ? new ItemMutation.Delete(id) : new ItemMutation.Put(id, w.value()));
            } else if (single && w.space() == Space.INDEX) {
                indexWrites.add(w);
            } else if (single && w.space() == Space.FEED && w.value() != null && w.key().length == 13
                    && PartitionLayout.startsWith(w.key(), feedPrefix)) {
                cs.addAll(io.tetradb.core.feed.ChangeRuns.decode(PartitionLayout.getLong(w.key(), 5), w.value()));
            } else if (single && w.space() == Space.FEED && w.key().length > 13 && w.key()[4] == 'P'
                    && java.util.Arrays.equals(w.key(), 0, 4, feedPrefix, 0, 4)) {
                // the feed's partition index key of one of these records (collId · 'P' · EPK · pk · seq): part of
                // the change records' embedded layout, not a side write; an engine keeping records by partition needs none
            } else if (single && w.space() == Space.META && w.value() != null && Arrays.equals(w.key(), statsKey)) {
                stats = PartitionStats.decode(w.value());
            } else {
                side.add(w);
            }
        }
        byte[] lp = partition.key();
        for (WriteSet.Write w : indexWrites) { // entry = collId · term · lp · id: the id is one of the write's items
            TermChange t = null;
            for (ItemMutation m : is) {
                byte[] id = PartitionLayout.utf8(m.id());
                int idAt = w.key().length - id.length;
                int lpAt = idAt - lp.length;
                if (lpAt >= 4 && Arrays.equals(w.key(), idAt, w.key().length, id, 0, id.length)
                        && Arrays.equals(w.key(), lpAt, idAt, lp, 0, lp.length)
                        && (t == null || t.id().length() < m.id().length())) {
                    t = new TermChange(Arrays.copyOfRange(w.key(), 4, lpAt), m.id(), w.value() != null);
                }
            }
            if (t == null) {
                side.add(w);
            } else {
                ts.add(t);
            }
        }
        terms = ts;
        changes = cs;
        sideWrites = side;
        items = is;
    }

    /** Builds a write from the contract's terms (for engines' tests and tools; the core hands its write set). */
    public static final class Builder {
        private final LogicalPartition p;
        private final long expected;
        private final long next;
        private final WriteSet ws = new WriteSet();

        private Builder(LogicalPartition p, long expected, long next) {
            this.p = p;
            this.expected = expected;
            this.next = next;
        }

        public Builder put(String id, byte[] value) {
            ws.put(Space.DOCS, PartitionLayout.itemKey(p, id), value);
            return this;
        }

        public Builder delete(String id) {
            ws.delete(Space.DOCS, PartitionLayout.itemKey(p, id));
            return this;
        }

        public Builder addTerm(String id, byte[] term) {
            ws.put(Space.INDEX, PartitionLayout.indexKey(p, term, id), new byte[0]);
            return this;
        }

        public Builder removeTerm(String id, byte[] term) {
            ws.delete(Space.INDEX, PartitionLayout.indexKey(p, term, id));
            return this;
        }

        /** A change record; {@code r.seq()} is its place in the embedded engine's container-wide feed. */
        public Builder change(ChangeRecord r) {
            ws.put(Space.FEED, PartitionLayout.feedKey(p.container(), r.seq()), r.encode());
            return this;
        }

        public Builder stats(PartitionStats s) {
            ws.put(Space.META, PartitionLayout.statsKey(p), s.encode());
            return this;
        }

        /** A derived key of the partition's transaction ({@link #sideWrites()}); value null: its delete. */
        public Builder side(Space space, byte[] key, byte[] value) {
            if (value == null) {
                ws.delete(space, key);
            } else {
                ws.put(space, key, value);
            }
            return this;
        }

        public PartitionWrite build() {
            return new PartitionWrite(p, expected, next, ws);
        }
    }
}

package io.tetradb.core.reads;

import io.tetradb.core.feed.ChangeRecord;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.storage.KeyCursor;
import io.tetradb.core.storage.KeyValue;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.partition.LogicalPartition;
import io.tetradb.core.storage.partition.PartitionStats;
import io.tetradb.core.storage.partition.PartitionStore;
import io.tetradb.core.storage.partition.PartitionVersion;
import io.tetradb.core.storage.partition.StoredItem;
import io.tetradb.core.value.IndexKeyEncoding;
import io.tetradb.core.value.KeyBytes;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

/**
 * {@link ItemReads} through the logical-partition contract ({@link PartitionStore}), for an engine whose layout is not
 * the core's keys (Cassandra). A DOCS key {@code collId · EPK · pk · id} is split into its logical partition (the EPK is
 * {@code 16 × levels} bytes, the pk self-delimiting) and id: a point read is {@code read(p, id)}; a key range is the
 * partitions of the range ({@code partitions}) each scanned by id ({@code scan}); an INDEX range is {@code seek};
 * statistics are {@code stats}/{@code partitions}; a container's change records are each partition's
 * ({@code changes}) merged by their sequence numbers.
 */
public final class ContractItemReads implements ItemReads {
    /** Items or entries fetched per contract call while a cursor moves. */
    static final int CHUNK = 512;

    private final PartitionStore store;
    private final int levels;

    public ContractItemReads(PartitionStore store, int partitionKeyLevels) {
        this.store = store;
        this.levels = partitionKeyLevels;
    }

    @Override
    public PartitionStore partitionStore() {
        return store;
    }

    /** The logical-partition key ({@code EPK · pk}) length at the start of {@code key[at..]}. */
    private int partitionKeyLength(byte[] key, int at) {
        int pkStart = at + 16 * levels;
        return pkStart - at + PartitionKeyValue.encodedLength(key, pkStart, levels);
    }

    private LogicalPartition partitionOf(byte[] docKey) {
        return new LogicalPartition(KeyBytes.getInt(docKey, 0),
                Arrays.copyOfRange(docKey, 4, 4 + partitionKeyLength(docKey, 4)));
    }

    private String idOf(byte[] docKey) {
        int from = 4 + partitionKeyLength(docKey, 4);
        return new String(docKey, from, docKey.length - from, StandardCharsets.UTF_8);
    }

    @Override
    public byte[] item(byte[] docKey) {
        return store.read(partitionOf(docKey), idOf(docKey));
    }

    @Override
    public List<byte[]> items(List<byte[]> docKeys) {
        List<LogicalPartition> partitions = new ArrayList<>(docKeys.size());
        List<String> ids = new ArrayList<>(docKeys.size());
        for (byte[] k : docKeys) {
            partitions.add(partitionOf(k));
            ids.add(idOf(k));
        }
        return store.readAll(partitions, ids);
    }

    // ---- DOCS ranges: the partitions of the range, each scanned by id -------------------------------------------

    @Override
    public KeyCursor items(byte[] from, byte[] to, boolean reverse) {
        int container = KeyBytes.getInt(from, 0);
        byte[] lo = Arrays.copyOfRange(from, 4, Math.min(from.length, 4 + 16 * levels));
        byte[] hi = partitionBound(container, to);
        List<PartitionVersion> parts = new ArrayList<>(store.partitions(container, lo, hi));
        byte[] toWithin = to != null && KeyBytes.getInt(to, 0) == container && to.length >= 4 ? to : null;
        if (!reverse) {
            return new ItemsForward(parts, from, toWithin);
        }
        List<KeyValue> all = new ArrayList<>();
        try (KeyCursor c = new ItemsForward(parts, from, toWithin)) {
            while (c.next()) {
                all.add(new KeyValue(c.key(), c.value()));
            }
        }
        Collections.reverse(all);
        return new ListCursor(all);
    }

    /**
     * The partition-key bound ({@code EPK · pk}) past every partition holding keys below {@code to}: the EPK part of
     * {@code to}, or its end when {@code to} reaches into a partition; null past the container.
     */
    private byte[] partitionBound(int container, byte[] to) {
        if (to == null || to.length < 4 || KeyBytes.getInt(to, 0) != container) {
            return null;
        }
        int epkEnd = 4 + 16 * levels;
        if (to.length <= epkEnd) {
            return Arrays.copyOfRange(to, 4, to.length);
        }
        return IndexKeyEncoding.prefixEnd(Arrays.copyOfRange(to, 4, epkEnd));
    }

    /** Items of the listed partitions within {@code [from, to)}, partition after partition, a chunk at a time. */
    private final class ItemsForward implements KeyCursor {
        private final List<PartitionVersion> parts;
        private final byte[] from;
        private final byte[] to;
        private int part = -1;
        private byte[] prefix;
        private String nextId;
        private String endId;
        private boolean partDone = true;
        private List<StoredItem> chunk = List.of();
        private int at;
        private byte[] key;
        private byte[] value;

        ItemsForward(List<PartitionVersion> parts, byte[] from, byte[] to) {
            this.parts = parts;
            this.from = from;
            this.to = to;
        }

        @Override
        public boolean next() {
            while (true) {
                if (at < chunk.size()) {
                    StoredItem s = chunk.get(at++);
                    key = KeyBytes.concat(prefix, s.id().getBytes(StandardCharsets.UTF_8));
                    value = s.value();
                    return true;
                }
                if (!partDone) {
                    chunk = store.scan(parts.get(part).partition(), nextId, endId, CHUNK);
                    at = 0;
                    if (chunk.size() < CHUNK) {
                        partDone = true;
                    } else {
                        nextId = chunk.get(chunk.size() - 1).id() + '\0'; // the first id after the last one
                    }
                    continue;
                }
                if (!openNextPartition()) {
                    return false;
                }
            }
        }

        /** Moves to the next partition with keys in range; false when none is left. */
        private boolean openNextPartition() {
            while (++part < parts.size()) {
                LogicalPartition p = parts.get(part).partition();
                byte[] pre = p.prefix();
                byte[] end = IndexKeyEncoding.prefixEnd(pre);
                if (end != null && Arrays.compareUnsigned(end, from) <= 0) {
                    continue; // every key of it is below the range
                }
                if (to != null && Arrays.compareUnsigned(pre, to) >= 0) {
                    return false; // this one and every later one are past it
                }
                prefix = pre;
                nextId = KeyBytes.startsWith(from, pre) ? suffix(from, pre.length) : null;
                endId = to != null && KeyBytes.startsWith(to, pre) ? suffix(to, pre.length) : null;
                chunk = List.of();
                at = 0;
                partDone = false;
                return true;
            }
            return false;
        }

        @Override
        public byte[] key() {
            return key;
        }

        @Override
        public byte[] value() {
            return value;
        }

        @Override
        public void close() {
        }
    }

    private static String suffix(byte[] key, int from) {
        return new String(key, from, key.length - from, StandardCharsets.UTF_8);
    }

    // ---- INDEX ranges: seek -------------------------------------------------------------------------------------

    @Override
    public KeyCursor entries(byte[] from, byte[] to, boolean reverse) {
        int container = KeyBytes.getInt(from, 0);
        byte[] fromTerm = Arrays.copyOfRange(from, 4, from.length);
        byte[] toTerm = to == null || to.length < 4 || KeyBytes.getInt(to, 0) != container ? null
                : Arrays.copyOfRange(to, 4, to.length);
        byte[] coll = Arrays.copyOf(from, 4);
        if (!reverse) {
            return new EntriesForward(container, coll, fromTerm, toTerm);
        }
        List<KeyValue> all = new ArrayList<>();
        try (KeyCursor c = new EntriesForward(container, coll, fromTerm, toTerm)) {
            while (c.next()) {
                all.add(new KeyValue(c.key(), c.value()));
            }
        }
        Collections.reverse(all);
        return new ListCursor(all);
    }

    private static final byte[] EMPTY = new byte[0];

    /** Seeks a chunk of entries at a time, the next from just after the last one. */
    private final class EntriesForward implements KeyCursor {
        private final int container;
        private final byte[] coll;
        private byte[] next;
        private final byte[] to;
        private List<byte[]> chunk = List.of();
        private int at;
        private boolean done;
        private byte[] key;

        EntriesForward(int container, byte[] coll, byte[] from, byte[] to) {
            this.container = container;
            this.coll = coll;
            this.next = from;
            this.to = to;
        }

        @Override
        public boolean next() {
            if (at >= chunk.size()) {
                if (done) {
                    return false;
                }
                chunk = store.seek(container, next, to, CHUNK);
                at = 0;
                if (chunk.size() < CHUNK) {
                    done = true;
                } else {
                    next = Arrays.copyOf(chunk.get(chunk.size() - 1), chunk.get(chunk.size() - 1).length + 1);
                }
                if (chunk.isEmpty()) {
                    return false;
                }
            }
            key = KeyBytes.concat(coll, chunk.get(at++));
            return true;
        }

        @Override
        public byte[] key() {
            return key;
        }

        @Override
        public byte[] value() {
            return EMPTY;
        }

        @Override
        public void close() {
        }
    }

    // ---- statistics ---------------------------------------------------------------------------------------------

    @Override
    public byte[] partitionStats(byte[] statsKey) {
        PartitionStats s = store.stats(LogicalPartition.ofPrefix(Arrays.copyOfRange(statsKey, 1, statsKey.length)));
        return s.version() == 0 && s.items() == 0 && s.bytes() == 0 ? null : s.encode();
    }

    @Override
    public void scanPartitionStats(byte[] from, byte[] to, Predicate<KeyValue> visitor) {
        int container = KeyBytes.getInt(from, 1);
        byte[] lo = Arrays.copyOfRange(from, 5, from.length);
        byte[] hi = to == null || to.length < 5 || KeyBytes.getInt(to, 1) != container || to[0] != from[0] ? null
                : Arrays.copyOfRange(to, 5, to.length);
        byte[] head = Arrays.copyOf(from, 5);
        for (PartitionVersion pv : store.partitions(container, lo, hi)) {
            if (!visitor.test(new KeyValue(KeyBytes.concat(head, pv.partition().key()), pv.stats().encode()))) {
                return;
            }
        }
    }

    @Override
    public byte[] derived(byte[] lpPrefix, Space space, byte[] key) {
        return store.readDerived(LogicalPartition.ofPrefix(lpPrefix), space, key);
    }

    // ---- derived keys by range: a partition's own (scanDerived) or the container's (seekDerived), in chunks ------

    @Override
    public void scanPartitionDerived(byte[] lpPrefix, Space space, byte[] from, byte[] to,
                                     Predicate<KeyValue> visitor) {
        LogicalPartition p = LogicalPartition.ofPrefix(lpPrefix);
        visitChunks(from, lo -> store.scanDerived(p, space, lo, to, CHUNK), visitor);
    }

    @Override
    public void scanContainerDerived(int collId, Space space, byte[] from, byte[] to, Predicate<KeyValue> visitor) {
        visitChunks(from, lo -> store.seekDerived(collId, space, lo, to, CHUNK), visitor);
    }

    /** Reads chunk after chunk, each from just after the last key of the one before, until one comes back short. */
    private static void visitChunks(byte[] from, java.util.function.Function<byte[], List<KeyValue>> chunk,
                                    Predicate<KeyValue> visitor) {
        byte[] lo = from;
        while (true) {
            List<KeyValue> page = chunk.apply(lo);
            for (KeyValue kv : page) {
                if (!visitor.test(kv)) {
                    return;
                }
            }
            if (page.size() < CHUNK) {
                return;
            }
            lo = Arrays.copyOf(page.get(page.size() - 1).key(), page.get(page.size() - 1).key().length + 1);
        }
    }

    // ---- change records: each partition's, merged by sequence number --------------------------------------------

    /**
     * The records of the partitions in {@code [fromPartition, toPartition)} whose sequence numbers are in the FEED
     * key range, merged by sequence number. Each partition's records come in lsn order, which is its sequence order,
     * so a partition whose records all precede the range costs one read; the whole range is read for one page.
     */
    @Override
    public KeyCursor changes(byte[] fromKey, byte[] toKey, byte[] fromPartition, byte[] toPartition) {
        int container = KeyBytes.getInt(fromKey, 0);
        long fromSeq = KeyBytes.getLong(fromKey, 5);
        long toSeq = toKey == null || KeyBytes.getInt(toKey, 0) != container ? Long.MAX_VALUE
                : KeyBytes.getLong(toKey, 5);
        byte[] head = Arrays.copyOf(fromKey, 5);
        List<ChangeRecord> records = new ArrayList<>();
        for (PartitionVersion pv : store.partitions(container, fromPartition, toPartition)) {
            long afterLsn = 0;
            while (true) {
                List<ChangeRecord> page = store.changes(pv.partition(), afterLsn, CHUNK);
                for (ChangeRecord r : page) {
                    if (r.seq() >= fromSeq && r.seq() < toSeq) {
                        records.add(r);
                    }
                }
                if (page.size() < CHUNK) {
                    break;
                }
                afterLsn = page.get(page.size() - 1).lsn();
            }
        }
        records.sort(Comparator.comparingLong(ChangeRecord::seq));
        List<KeyValue> out = new ArrayList<>(records.size());
        for (ChangeRecord r : records) {
            byte[] k = Arrays.copyOf(head, 13);
            KeyBytes.putLong(k, 5, r.seq());
            out.add(new KeyValue(k, r.encode()));
        }
        return new ListCursor(out);
    }

    /** A cursor over entries already read. */
    private static final class ListCursor implements KeyCursor {
        private final List<KeyValue> entries;
        private int at = -1;

        ListCursor(List<KeyValue> entries) {
            this.entries = entries;
        }

        @Override
        public boolean next() {
            return ++at < entries.size();
        }

        @Override
        public byte[] key() {
            return entries.get(at).key();
        }

        @Override
        public byte[] value() {
            return entries.get(at).value();
        }

        @Override
        public void close() {
        }
    }
}

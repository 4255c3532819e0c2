package io.tetradb.cassandra.store;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.Statement;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import com.datastax.oss.driver.api.core.metadata.token.TokenRange;

import io.tetradb.core.feed.ChangeRecord;
import io.tetradb.core.storage.WriteSet;
import io.tetradb.core.storage.partition.ApplyResult;
import io.tetradb.core.storage.partition.ItemMutation;
import io.tetradb.core.storage.partition.LogicalPartition;
import io.tetradb.core.storage.partition.PartitionStats;
import io.tetradb.core.storage.partition.PartitionStore;
import io.tetradb.core.storage.partition.PartitionVersion;
import io.tetradb.core.storage.partition.PartitionWrite;
import io.tetradb.core.storage.partition.StoredItem;
import io.tetradb.core.storage.partition.TermChange;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * {@link PartitionStore} on Apache Cassandra 5.0: one table whose Cassandra partition is exactly one logical
 * partition, {@code ((container, lp), kind, key)}, with the partition's version and statistics as static columns.
 * Items are rows of kind 0 keyed by id (so a partition's items are sorted by id, as Cosmos DB scans them), change
 * records rows of kind 1 keyed by lsn, the items' index terms rows of kind 2 keyed by {@code term · id}, the core's
 * other derived keys of the transaction rows of kind 3, all in the same partition: an {@link #apply} is one
 * conditional single-partition batch ({@code UPDATE … SET version = next … IF version = expected} plus every row),
 * which Cassandra applies atomically and in isolation through Paxos, or not at all. Terms live in the item's own
 * partition because only there can they be written in the item's conditional batch (a batch with a condition cannot
 * span partitions; a terms table apart would be written after, and torn by a crash or a lost race); the price is
 * that a seek reads across partitions: for now a filtered scan of the table (see cassandra-engine/README.md). Writes and conditions run at QUORUM / SERIAL, reads at
 * QUORUM: every acknowledged write is seen by every later read while one node of three is down.
 */
public final class CassandraPartitionStore implements PartitionStore {
    static final byte ITEM = 0;
    static final byte CHANGE = 1;
    static final byte TERM = 2;
    static final byte SIDE = 3;
    /** The mark slots of {@link ConditionalApply}: which transaction set a version, keyed by version mod 64. */
    static final byte MARK = 4;

    private final CqlSession session;
    private final Consistency consistency;
    /** Reads marked idempotent (the driver retries them on another node by itself): {@link IdempotentReads}. */
    private final boolean idempotentReads = IdempotentReads.enabled();
    private final PreparedStatement selectStats;
    private final PreparedStatement setStats;
    private final PreparedStatement allTerms;
    private final PreparedStatement allPartitions;
    private final PreparedStatement selectItem;
    private final PreparedStatement scanFrom;
    private final PreparedStatement scanBetween;
    private final PreparedStatement selectChanges;
    private final PreparedStatement pruneChanges;
    private final PreparedStatement setVersionIf;
    private final PreparedStatement setVersionIfNew;
    private final PreparedStatement putRow;
    private final PreparedStatement deleteRow;
    private final PreparedStatement partitionsInRange;
    private final PreparedStatement selectToken;
    private final PreparedStatement selectVersionSerial;
    private final PreparedStatement putTerm;
    private final PreparedStatement termsOfPath;
    private final PreparedStatement termsOfPaths;
    private final PreparedStatement selectDerived;
    private final PreparedStatement deletePartition;
    private final PreparedStatement putSeekableSide;
    private final PreparedStatement derivedBetween;
    private final PreparedStatement selectMark;

    private CassandraPartitionStore(CqlSession session, String keyspace, Consistency consistency) {
        this.session = session;
        this.consistency = consistency;
        String t = keyspace + ".partitions";
        selectStats = session.prepare("SELECT version, stats FROM " + t + " WHERE container = ? AND lp = ? LIMIT 1");
        setStats = session.prepare("UPDATE " + t + " SET stats = ? WHERE container = ? AND lp = ?");
        allTerms = session.prepare("SELECT container, lp, key, value FROM " + t + " WHERE kind = 2 ALLOW FILTERING");
        allPartitions = session.prepare("SELECT DISTINCT container, lp, version, stats FROM " + t);
        selectItem = session.prepare("SELECT value FROM " + t + " WHERE container = ? AND lp = ? AND kind = 0 "
                + "AND key = ?");
        scanFrom = session.prepare("SELECT key, value FROM " + t + " WHERE container = ? AND lp = ? AND kind = 0 "
                + "AND key >= ? LIMIT ?");
        scanBetween = session.prepare("SELECT key, value FROM " + t + " WHERE container = ? AND lp = ? "
                + "AND kind = 0 AND key >= ? AND key < ? LIMIT ?");
        selectChanges = session.prepare("SELECT key, value FROM " + t + " WHERE container = ? AND lp = ? "
                + "AND kind = 1 AND key > ? LIMIT ?");
        pruneChanges = session.prepare("DELETE FROM " + t + " WHERE container = ? AND lp = ? AND kind = 1 "
                + "AND key <= ?");
        setVersionIf = session.prepare("UPDATE " + t + " SET version = ?, txid = ? WHERE container = ? "
                + "AND lp = ? IF version = ?");
        setVersionIfNew = session.prepare("UPDATE " + t + " SET version = ?, txid = ? WHERE container = ? "
                + "AND lp = ? IF version = null");
        selectVersionSerial = session.prepare("SELECT version, txid FROM " + t + " WHERE container = ? "
                + "AND lp = ? LIMIT 1");
        putTerm = session.prepare("INSERT INTO " + t + " (container, lp, kind, key, value, cpath, tprefix) "
                + "VALUES (?, ?, 2, ?, ?, ?, ?)");
        termsOfPath = session.prepare("SELECT lp, key, value FROM " + t + " WHERE cpath = ? AND tprefix >= ? "
                + "AND tprefix <= ?");
        termsOfPaths = session.prepare("SELECT lp, key, value FROM " + t + " WHERE cpath >= ? AND cpath <= ?");
        selectDerived = session.prepare("SELECT value FROM " + t + " WHERE container = ? AND lp = ? AND kind = 3 "
                + "AND key = ?");
        deletePartition = session.prepare("DELETE FROM " + t + " WHERE container = ? AND lp = ?");
        putRow = session.prepare("INSERT INTO " + t + " (container, lp, kind, key, value) VALUES (?, ?, ?, ?, ?)");
        putSeekableSide = session.prepare("INSERT INTO " + t + " (container, lp, kind, key, value, cpath, tprefix) "
                + "VALUES (?, ?, 3, ?, ?, ?, ?)");
        derivedBetween = session.prepare("SELECT key, value FROM " + t + " WHERE container = ? AND lp = ? "
                + "AND kind = 3 AND key >= ? AND key < ? LIMIT ?");
        selectMark = session.prepare("SELECT value FROM " + t + " WHERE container = ? AND lp = ? AND kind = 4 "
                + "AND key = ?");
        deleteRow = session.prepare("DELETE FROM " + t + " WHERE container = ? AND lp = ? AND kind = ? AND key = ?");
        partitionsInRange = session.prepare("SELECT DISTINCT container, lp, version, stats FROM " + t
                + " WHERE token(container, lp) > ? AND token(container, lp) <= ?");
        selectToken = session.prepare("SELECT token(container, lp) FROM " + t + " WHERE container = ? AND lp = ? "
                + "LIMIT 1");
    }

    /** Opens the store on {@code keyspace} (created with {@code replicationFactor} copies if missing). */
    public static CassandraPartitionStore open(CqlSession session, String keyspace, int replicationFactor,
                                               Consistency consistency) {
        Schema.create(session, keyspace, replicationFactor);
        return new CassandraPartitionStore(session, keyspace, consistency);
    }

    /** What the store reads and writes at. */
    public record Consistency(ConsistencyLevel reads, ConsistencyLevel writes, ConsistencyLevel serial) {
        /** QUORUM reads and writes, SERIAL conditions: strong within the cluster (Cosmos DB's "strong" in a region). */
        public static final Consistency QUORUM = new Consistency(ConsistencyLevel.QUORUM, ConsistencyLevel.QUORUM,
                ConsistencyLevel.SERIAL);
        /** LOCAL_ONE reads: eventual, the cheapest (Cosmos DB's "eventual"). */
        public static final Consistency EVENTUAL_READS = new Consistency(ConsistencyLevel.LOCAL_ONE,
                ConsistencyLevel.QUORUM, ConsistencyLevel.SERIAL);
    }

    private <S extends Statement<S>> S read(S s) {
        return IdempotentReads.mark(s.setConsistencyLevel(consistency.reads()), idempotentReads);
    }

    /** A read at SERIAL (a mark, the version): idempotent too, see {@link IdempotentReads}. */
    private <S extends Statement<S>> S serial(S s) {
        return IdempotentReads.mark(s.setConsistencyLevel(consistency.serial()), idempotentReads);
    }

    private <S extends Statement<S>> S write(S s) {
        return s.setConsistencyLevel(consistency.writes()).setSerialConsistencyLevel(consistency.serial());
    }

    @Override
    public PartitionStats stats(LogicalPartition p) {
        return DriverFailures.reading("a partition's statistics", () -> {
            Row r = session.execute(read(selectStats.bind(p.container(), key(p)))).one();
            return stats(r, 0, 1);
        });
    }

    private static PartitionStats stats(Row r, int versionAt, int statsAt) {
        if (r == null || r.isNull(versionAt)) {
            return PartitionStats.EMPTY;
        }
        PartitionStats s = r.isNull(statsAt) ? PartitionStats.EMPTY : PartitionStats.decode(bytes(r.getByteBuffer(statsAt)));
        return new PartitionStats(s.bytes(), s.items(), r.getLong(versionAt));
    }

    @Override
    public ApplyResult apply(PartitionWrite write) {
        LogicalPartition p = write.partition();
        // the transaction's own mark in the slot of the version it sets, so an outcome Cassandra reports unknown can
        // be settled even after later writers moved the version on (ConditionalApply)
        UUID txid = UUID.randomUUID();
        BatchStatement batch = batch(write, txid);
        return ConditionalApply.run(new ConditionalApply.Rounds() {
            @Override
            public ConditionalApply.Sent send() {
                ResultSet rs = session.execute(write(batch));
                if (rs.wasApplied()) {
                    return new ConditionalApply.Sent(true, write.next());
                }
                Row r = rs.one();
                return new ConditionalApply.Sent(false, r == null || r.isNull("version") ? 0 : r.getLong("version"));
            }

            @Override
            public ConditionalApply.Mark markAtSerial(long version) {
                Row r = session.execute(serial(selectMark.bind(p.container(), key(p),
                        ConditionalApply.slot(version)))).one();
                return r == null ? null : ConditionalApply.Mark.decode(r.getByteBuffer(0));
            }

            @Override
            public long versionAtSerial() {
                Row r = serialRead(p);
                return r == null || r.isNull(0) ? 0 : r.getLong(0);
            }
        }, p, txid, write.expected(), write.next());
    }

    /** The partition's version and mark, read at SERIAL: any Paxos round in progress on it is finished first. */
    private Row serialRead(LogicalPartition p) {
        return session.execute(serial(selectVersionSerial.bind(p.container(), key(p)))).one();
    }

    private BatchStatement batch(PartitionWrite w, UUID txid) {
        LogicalPartition p = w.partition();
        ByteBuffer lp = key(p);
        int c = p.container();
        BatchStatementBuilder batch = BatchStatement.builder(DefaultBatchType.LOGGED);
        batch.addStatement(w.expected() == 0 ? setVersionIfNew.bind(w.next(), txid, c, lp)
                : setVersionIf.bind(w.next(), txid, c, lp, w.expected()));
        batch.addStatement(putRow.bind(c, lp, MARK, ConditionalApply.slot(w.next()),
                new ConditionalApply.Mark(txid, w.next()).encode()));
        if (w.stats() != null) {
            PartitionStats s = w.stats();
            batch.addStatement(setStats.bind(ByteBuffer.wrap(new PartitionStats(s.bytes(), s.items(), w.next()).encode()),
                    c, lp));
        }
        // one statement per row: a put and a delete of one row in one batch share a timestamp, and the delete would win
        Map<String, ItemMutation> items = new LinkedHashMap<>();
        for (ItemMutation m : w.items()) {
            items.put(m.id(), m);
        }
        for (ItemMutation m : items.values()) {
            ByteBuffer id = ByteBuffer.wrap(m.id().getBytes(StandardCharsets.UTF_8));
            batch.addStatement(m instanceof ItemMutation.Put put
                    ? putRow.bind(c, lp, ITEM, id, ByteBuffer.wrap(put.value()))
                    : deleteRow.bind(c, lp, ITEM, id));
        }
        Map<String, TermChange> terms = new LinkedHashMap<>();
        for (TermChange t : w.terms()) {
            terms.put(HexFormat.of().formatHex(termKey(t)), t);
        }
        byte[] lpBytes = p.key();
        for (TermChange t : terms.values()) {
            ByteBuffer k = ByteBuffer.wrap(termKey(t));
            byte[] id = t.id().getBytes(StandardCharsets.UTF_8);
            byte[] entry = TermSeek.entry(t.term(), lpBytes, id);
            batch.addStatement(t.added()
                    ? putTerm.bind(c, lp, k, ByteBuffer.wrap(id), TermSeek.cpath(c, entry), TermSeek.tprefix(entry))
                    : deleteRow.bind(c, lp, TERM, k));
        }
        for (ChangeRecord r : w.changes()) {
            byte[] record = r.encode();
            ByteBuffer v = ByteBuffer.allocate(8 + record.length).putLong(r.seq()).put(record).flip();
            batch.addStatement(putRow.bind(c, lp, CHANGE, lsnKey(r.lsn()), v));
        }
        Map<String, WriteSet.Write> side = new LinkedHashMap<>();
        for (WriteSet.Write s : w.sideWrites()) {
            if (s.rangeEnd() != null) {
                throw new UnsupportedOperationException("a range delete in a partition's write ("
                        + s.space().familyName() + "): the Cassandra engine keeps single keys only");
            }
            side.put(HexFormat.of().formatHex(sideKey(s)), s);
        }
        for (WriteSet.Write s : side.values()) {
            ByteBuffer k = ByteBuffer.wrap(sideKey(s));
            batch.addStatement(s.value() == null ? deleteRow.bind(c, lp, SIDE, k)
                    : PartitionStore.seekableSide(s.space(), s.key()) // seekDerived finds it across partitions
                    ? putSeekableSide.bind(c, lp, k, ByteBuffer.wrap(s.value()), DerivedSeek.cpath(c, s.space()),
                    DerivedSeek.tprefix(s.key()))
                    : putRow.bind(c, lp, SIDE, k, ByteBuffer.wrap(s.value())));
        }
        return batch.build();
    }

    private static byte[] termKey(TermChange t) {
        byte[] id = t.id().getBytes(StandardCharsets.UTF_8);
        byte[] out = Arrays.copyOf(t.term(), t.term().length + id.length);
        System.arraycopy(id, 0, out, t.term().length, id.length);
        return out;
    }

    private static byte[] sideKey(WriteSet.Write s) {
        byte[] out = new byte[1 + s.key().length];
        out[0] = (byte) s.space().ordinal();
        System.arraycopy(s.key(), 0, out, 1, s.key().length);
        return out;
    }

    @Override
    public byte[] read(LogicalPartition p, String id) {
        return DriverFailures.reading("a point read", () -> {
            Row r = session.execute(read(selectItem.bind(p.container(), key(p),
                    ByteBuffer.wrap(id.getBytes(StandardCharsets.UTF_8))))).one();
            return r == null ? null : bytes(r.getByteBuffer(0));
        });
    }

    @Override
    public List<byte[]> readAll(List<LogicalPartition> partitions, List<String> ids) {
        return DriverFailures.reading("point reads", () -> {
            List<java.util.concurrent.CompletionStage<com.datastax.oss.driver.api.core.cql.AsyncResultSet>> pending =
                    new ArrayList<>(ids.size());
            for (int i = 0; i < ids.size(); i++) { // sent at once: one round trip's wait for the lot
                LogicalPartition p = partitions.get(i);
                pending.add(session.executeAsync(read(selectItem.bind(p.container(), key(p),
                        ByteBuffer.wrap(ids.get(i).getBytes(StandardCharsets.UTF_8))))));
            }
            List<byte[]> out = new ArrayList<>(ids.size());
            for (var stage : pending) {
                Row r;
                try {
                    r = stage.toCompletableFuture().join().one();
                } catch (java.util.concurrent.CompletionException e) {
                    throw e.getCause() instanceof RuntimeException re ? re : e; // the driver's own error
                }
                out.add(r == null ? null : bytes(r.getByteBuffer(0)));
            }
            return out;
        });
    }

    @Override
    public byte[] readDerived(LogicalPartition p, io.tetradb.core.storage.Space space, byte[] key) {
        return DriverFailures.reading("a side-row read", () -> {
            byte[] k = new byte[1 + key.length];
            k[0] = (byte) space.ordinal();
            System.arraycopy(key, 0, k, 1, key.length);
            Row r = session.execute(read(selectDerived.bind(p.container(), key(p), ByteBuffer.wrap(k)))).one();
            return r == null ? null : bytes(r.getByteBuffer(0));
        });
    }

    /** The partition's side rows of {@code space}: one slice of its kind-3 rows ({@code space · key}). */
    @Override
    public List<io.tetradb.core.storage.KeyValue> scanDerived(LogicalPartition p, io.tetradb.core.storage.Space space,
                                                              byte[] from, byte[] to, int limit) {
        return DriverFailures.reading("a side-row scan", () -> {
            List<io.tetradb.core.storage.KeyValue> out = new ArrayList<>();
            if (limit <= 0) {
                return out;
            }
            ByteBuffer lo = ByteBuffer.wrap(spaced(space, from));
            ByteBuffer hi = ByteBuffer.wrap(to == null ? new byte[]{(byte) (space.ordinal() + 1)} : spaced(space, to));
            for (Row r : session.execute(read(derivedBetween.bind(p.container(), key(p), lo, hi, limit)))) {
                byte[] k = bytes(r.getByteBuffer(0));
                out.add(new io.tetradb.core.storage.KeyValue(Arrays.copyOfRange(k, 1, k.length), bytes(r.getByteBuffer(1))));
            }
            return out;
        });
    }

    /**
     * Side rows of a seekable space across the container's partitions, through the storage-attached indexes
     * ({@link DerivedSeek}): the rows whose key's 8 bytes after the container id lie between the bounds', cut to the
     * exact range and sorted here.
     */
    @Override
    public List<io.tetradb.core.storage.KeyValue> seekDerived(int container, io.tetradb.core.storage.Space space,
                                                              byte[] from, byte[] to, int limit) {
        return DriverFailures.reading("a side-row seek", () -> {
            if (space != io.tetradb.core.storage.Space.ADJACENCY && space != io.tetradb.core.storage.Space.META) {
                throw new IllegalArgumentException("side rows of " + space.familyName() + " are not indexed for seeks");
            }
            List<io.tetradb.core.storage.KeyValue> out = new ArrayList<>();
            if (limit <= 0) {
                return out;
            }
            ResultSet rs = session.execute(read(termsOfPath.bind(DerivedSeek.cpath(container, space),
                    DerivedSeek.tprefix(from), to == null || !samePrefix(from, to, 4) ? Long.MAX_VALUE
                            : DerivedSeek.tprefix(to))));
            for (Row r : rs) {
                byte[] k = bytes(r.getByteBuffer(1));
                byte[] key = Arrays.copyOfRange(k, 1, k.length);
                if (Arrays.compareUnsigned(key, from) >= 0 && (to == null || Arrays.compareUnsigned(key, to) < 0)) {
                    out.add(new io.tetradb.core.storage.KeyValue(key, bytes(r.getByteBuffer(2))));
                }
            }
            out.sort((a, b) -> Arrays.compareUnsigned(a.key(), b.key()));
            return out.size() > limit ? new ArrayList<>(out.subList(0, limit)) : out;
        });
    }

    /** Whether two keys share their first {@code n} bytes (the container id: tprefix orders keys within one). */
    private static boolean samePrefix(byte[] a, byte[] b, int n) {
        return a.length >= n && b.length >= n && Arrays.equals(a, 0, n, b, 0, n);
    }

    private static byte[] spaced(io.tetradb.core.storage.Space space, byte[] key) {
        byte[] k = new byte[1 + key.length];
        k[0] = (byte) space.ordinal();
        System.arraycopy(key, 0, k, 1, key.length);
        return k;
    }

    /**
     * Through the term rows' storage-attached indexes ({@link TermSeek}): within one path, the rows whose entry's
     * first 8 value bytes lie between the bounds' ({@code cpath = ? AND tprefix >= ? AND tprefix <= ?}); across paths,
     * the paths' rows ({@code cpath >= ? AND cpath <= ?}). Either is a superset of the range, cut to it and sorted
     * here; the rows come from every replica set that holds some (SAI is local to each node).
     */
    @Override
    public List<byte[]> seek(int container, byte[] fromTerm, byte[] toTerm, int limit) {
        return DriverFailures.reading("an index seek", () -> {
            List<byte[]> out = new ArrayList<>();
            if (limit <= 0) {
                return out;
            }
            long fromPath = TermSeek.cpath(container, fromTerm);
            long toPath = toTerm == null ? ((long) container << 32) | 0xFFFFFFFFL : TermSeek.cpath(container, toTerm);
            ResultSet rs = fromPath == toPath
                    ? session.execute(read(termsOfPath.bind(fromPath, TermSeek.tprefix(fromTerm),
                            toTerm == null ? Long.MAX_VALUE : TermSeek.tprefix(toTerm))))
                    : session.execute(read(termsOfPaths.bind(fromPath, toPath)));
            for (Row r : rs) {
                byte[] lp = bytes(r.getByteBuffer(0));
                byte[] k = bytes(r.getByteBuffer(1));
                byte[] id = bytes(r.getByteBuffer(2));
                byte[] entry = TermSeek.entry(Arrays.copyOf(k, k.length - id.length), lp, id);
                if (Arrays.compareUnsigned(entry, fromTerm) >= 0
                        && (toTerm == null || Arrays.compareUnsigned(entry, toTerm) < 0)) {
                    out.add(entry);
                }
            }
            out.sort(Arrays::compareUnsigned);
            return out.size() > limit ? new ArrayList<>(out.subList(0, limit)) : out;
        });
    }

    /**
     * The seek before the storage-attached indexes: a filtered scan of the whole table's term rows, sorted here
     * (kept to measure the indexes against, cassandra-engine/README.md).
     */
    List<byte[]> seekByFilteringScan(int container, byte[] fromTerm, byte[] toTerm, int limit) {
        List<byte[]> out = new ArrayList<>();
        for (Row r : session.execute(read(allTerms.bind()))) {
            if (r.getInt(0) != container) {
                continue;
            }
            byte[] lp = bytes(r.getByteBuffer(1));
            byte[] k = bytes(r.getByteBuffer(2));
            byte[] id = bytes(r.getByteBuffer(3));
            int termLength = k.length - id.length;
            byte[] entry = new byte[k.length + lp.length];
            System.arraycopy(k, 0, entry, 0, termLength);
            System.arraycopy(lp, 0, entry, termLength, lp.length);
            System.arraycopy(id, 0, entry, termLength + lp.length, id.length);
            if (Arrays.compareUnsigned(entry, fromTerm) >= 0
                    && (toTerm == null || Arrays.compareUnsigned(entry, toTerm) < 0)) {
                out.add(entry);
            }
        }
        out.sort(Arrays::compareUnsigned);
        return out.size() > limit ? new ArrayList<>(out.subList(0, Math.max(0, limit))) : out;
    }

    @Override
    public List<StoredItem> scan(LogicalPartition p, String from, String to, int limit) {
        return DriverFailures.reading("an id-range scan", () -> {
            ByteBuffer lo = ByteBuffer.wrap((from == null ? "" : from).getBytes(StandardCharsets.UTF_8));
            ResultSet rs = to == null
                    ? session.execute(read(scanFrom.bind(p.container(), key(p), lo, limit)))
                    : session.execute(read(scanBetween.bind(p.container(), key(p), lo,
                    ByteBuffer.wrap(to.getBytes(StandardCharsets.UTF_8)), limit)));
            List<StoredItem> out = new ArrayList<>();
            for (Row r : rs) {
                out.add(new StoredItem(new String(bytes(r.getByteBuffer(0)), StandardCharsets.UTF_8),
                        bytes(r.getByteBuffer(1))));
            }
            return out;
        });
    }

    @Override
    public List<ChangeRecord> changes(LogicalPartition p, long afterLsn, int limit) {
        return DriverFailures.reading("a change-record read", () -> {
            List<ChangeRecord> out = new ArrayList<>();
            if (limit <= 0) {
                return out;
            }
            for (Row r : session.execute(read(selectChanges.bind(p.container(), key(p), lsnKey(afterLsn), limit)))) {
                byte[] v = bytes(r.getByteBuffer(1));
                out.add(ChangeRecord.decode(ByteBuffer.wrap(v).getLong(), Arrays.copyOfRange(v, 8, v.length)));
            }
            return out;
        });
    }

    /** A scan of the table's partition keys (DISTINCT), kept and sorted here. */
    @Override
    public List<PartitionVersion> partitions(int container, byte[] fromKey, byte[] toKey) {
        return DriverFailures.reading("a partition listing", () -> {
            List<PartitionVersion> out = new ArrayList<>();
            for (Row r : session.execute(read(allPartitions.bind()))) {
                byte[] lp = bytes(r.getByteBuffer(1));
                if (r.getInt(0) == container && (fromKey == null || Arrays.compareUnsigned(lp, fromKey) >= 0)
                        && (toKey == null || Arrays.compareUnsigned(lp, toKey) < 0)) {
                    out.add(new PartitionVersion(new LogicalPartition(container, lp), stats(r, 2, 3)));
                }
            }
            out.sort((a, b) -> Arrays.compareUnsigned(a.partition().key(), b.partition().key()));
            return out;
        });
    }

    /**
     * A deleted container's partitions, each removed whole (one partition tombstone: items, terms, change records,
     * side rows and the static version); found by a scan of the table's partition keys, the deletes sent at once.
     */
    @Override
    public void dropContainer(int container) {
        DriverFailures.writing("a container's drop", () -> {
            List<java.util.concurrent.CompletionStage<com.datastax.oss.driver.api.core.cql.AsyncResultSet>> pending =
                    new ArrayList<>();
            for (Row r : session.execute(read(allPartitions.bind()))) {
                if (r.getInt(0) == container) {
                    pending.add(session.executeAsync(write(deletePartition.bind(container, r.getByteBuffer(1)))));
                }
            }
            for (var stage : pending) {
                try {
                    stage.toCompletableFuture().join();
                } catch (java.util.concurrent.CompletionException e) {
                    throw e.getCause() instanceof RuntimeException re ? re : e;
                }
            }
            return null;
        });
    }

    /**
     * The feed pruner's deletes of single change rows, sent at once. Not conditional: a record that may go (a later
     * one of its item exists, or it left the retention) never has to come back, and no write reuses an lsn.
     */
    @Override
    public void deleteChanges(LogicalPartition p, List<Long> lsns) {
        DriverFailures.writing("change-record deletes", () -> {
            List<java.util.concurrent.CompletionStage<com.datastax.oss.driver.api.core.cql.AsyncResultSet>> pending =
                    new ArrayList<>(lsns.size());
            for (long lsn : lsns) {
                pending.add(session.executeAsync(write(deleteRow.bind(p.container(), key(p), CHANGE, lsnKey(lsn)))));
            }
            for (var stage : pending) {
                try {
                    stage.toCompletableFuture().join();
                } catch (java.util.concurrent.CompletionException e) {
                    throw e.getCause() instanceof RuntimeException re ? re : e;
                }
            }
            return null;
        });
    }

    /** Deletes change records up to {@code throughLsn} (the feed's pruning); not conditional. */
    public void pruneChanges(LogicalPartition p, long throughLsn) {
        DriverFailures.writing("change-record pruning", () -> {
            session.execute(write(pruneChanges.bind(p.container(), key(p), lsnKey(throughLsn))));
            return null;
        });
    }

    /**
     * The engine's slices of the key space, in order, covering it once: Murmur3 token ranges (the ring's wrap-around
     * split), what feed ranges and physical partitions become on Cassandra.
     */
    public List<Slice> slices() {
        TokenMap tokens = session.getMetadata().getTokenMap()
                .orElseThrow(() -> new IllegalStateException("the driver has no token metadata"));
        List<Slice> out = new ArrayList<>();
        for (TokenRange range : tokens.getTokenRanges()) {
            for (TokenRange r : range.unwrap()) {
                long start = Long.parseLong(tokens.format(r.getStart()));
                long end = Long.parseLong(tokens.format(r.getEnd()));
                // (x, MIN] is the ring's end: (x, +inf)
                out.add(new Slice(start, end == Long.MIN_VALUE ? Long.MAX_VALUE : end));
            }
        }
        out.sort(java.util.Comparator.comparingLong(Slice::start));
        return out;
    }

    /** The logical partitions of {@code container} in {@code slice}, with their versions. */
    public List<PartitionVersion> partitions(int container, Slice slice) {
        return DriverFailures.reading("a slice's partition listing", () -> {
            List<PartitionVersion> out = new ArrayList<>();
            for (Row r : session.execute(read(partitionsInRange.bind(slice.start(), slice.end())))) {
                if (r.getInt(0) == container) {
                    out.add(new PartitionVersion(new LogicalPartition(container, bytes(r.getByteBuffer(1))),
                            stats(r, 2, 3)));
                }
            }
            return out;
        });
    }

    /** The Murmur3 token Cassandra places {@code p} by (for tests and the partitions page). */
    public long token(LogicalPartition p) {
        return DriverFailures.reading("a token read", () -> {
            Row r = session.execute(read(selectToken.bind(p.container(), key(p)))).one();
            if (r == null) {
                throw new IllegalArgumentException("no partition " + p);
            }
            return r.getLong(0);
        });
    }

    @Override
    public void close() {
        // the session belongs to the caller
    }

    private static ByteBuffer key(LogicalPartition p) {
        return ByteBuffer.wrap(p.key());
    }

    /** An lsn as a clustering key: 8 bytes big-endian, so byte order is numeric order for lsn ≥ 0. */
    private static ByteBuffer lsnKey(long lsn) {
        return ByteBuffer.allocate(8).putLong(0, lsn);
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}

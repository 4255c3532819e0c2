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
import com.datastax.oss.driver.api.core.servererrors.CASWriteUnknownException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * {@link PartitionStore} on Apache Cassandra 5.0: one table whose Cassandra partition is exactly one logical
 * partition, {@code ((container, lp), kind, key)}, with the partition's version as a static column. Items are rows of
 * kind 0 keyed by id (so a partition's items are sorted by id, as Cosmos DB scans them), change records rows of kind 1
 * keyed by lsn, in the same partition: an {@link #apply} is one conditional single-partition batch ({@code UPDATE …
 * SET version = next … IF version = expected} plus the puts, deletes and change rows), which Cassandra applies
 * atomically and in isolation through Paxos, or not at all. Writes and conditions run at QUORUM / SERIAL, reads at
 * QUORUM: every acknowledged write is seen by every later read while one node of three is down.
 */
public final class CassandraPartitionStore implements PartitionStore {
    static final byte ITEM = 0;
    static final byte CHANGE = 1;

    private final CqlSession session;
    private final Consistency consistency;
    private final PreparedStatement selectVersion;
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
    /** How often an apply whose outcome Cassandra reported unknown is settled before giving up. */
    static final int SETTLE_ATTEMPTS = 10;

    private CassandraPartitionStore(CqlSession session, String keyspace, Consistency consistency) {
        this.session = session;
        this.consistency = consistency;
        String t = keyspace + ".partitions";
        selectVersion = session.prepare("SELECT version FROM " + t + " WHERE container = ? AND lp = ? LIMIT 1");
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
        putRow = session.prepare("INSERT INTO " + t + " (container, lp, kind, key, value) VALUES (?, ?, ?, ?, ?)");
        deleteRow = session.prepare("DELETE FROM " + t + " WHERE container = ? AND lp = ? AND kind = ? AND key = ?");
        partitionsInRange = session.prepare("SELECT DISTINCT container, lp, version FROM " + t
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
        return s.setConsistencyLevel(consistency.reads());
    }

    private <S extends Statement<S>> S write(S s) {
        return s.setConsistencyLevel(consistency.writes()).setSerialConsistencyLevel(consistency.serial());
    }

    @Override
    public long version(LogicalPartition p) {
        Row r = session.execute(read(selectVersion.bind(p.container(), key(p)))).one();
        return r == null || r.isNull(0) ? 0 : r.getLong(0);
    }

    @Override
    public ApplyResult apply(LogicalPartition p, long expected, long next, List<Mutation> mutations,
                             List<Change> changes) {
        if (next <= expected) {
            throw new IllegalArgumentException("the next version (" + next + ") must be above the expected one ("
                    + expected + ")");
        }
        // the transaction's own mark next to the version, so an outcome Cassandra reports unknown can be settled
        UUID txid = UUID.randomUUID();
        BatchStatement batch = batch(p, expected, next, txid, mutations, changes);
        for (int attempt = 0; ; attempt++) {
            try {
                ResultSet rs = session.execute(write(batch));
                if (rs.wasApplied()) {
                    return new ApplyResult(true, next);
                }
                Row r = rs.one();
                long current = r == null || r.isNull("version") ? 0 : r.getLong("version");
                if (attempt > 0 && current == next && txid.equals(serialMark(p))) {
                    return new ApplyResult(true, next); // an earlier attempt of ours was completed meanwhile
                }
                return new ApplyResult(false, current);
            } catch (CASWriteUnknownException | WriteTimeoutException e) {
                // Paxos did not learn whether our proposal was accepted by a quorum: read at SERIAL (which finishes
                // any round in progress). Our mark: applied. The version moved on under another mark: a later commit
                // outranks our proposal, which can never apply now. Still the expected version: send the same
                // conditional batch again; its condition lets at most one of our attempts apply.
                for (; ; attempt++) {
                    if (attempt + 1 >= SETTLE_ATTEMPTS) {
                        throw new OutcomeUnknownException(p, e);
                    }
                    backOff(attempt);
                    Row r;
                    try {
                        r = serialRead(p);
                    } catch (ReadTimeoutException | WriteTimeoutException | CASWriteUnknownException busy) {
                        continue; // the SERIAL read's own Paxos round lost to contention: try it again
                    }
                    long current = r == null || r.isNull(0) ? 0 : r.getLong(0);
                    if (r != null && txid.equals(r.getUuid(1))) {
                        return new ApplyResult(true, next);
                    }
                    if (current != expected) {
                        return new ApplyResult(false, current);
                    }
                    break; // still at the expected version: send the batch again
                }
            }
        }
    }

    /** Paxos rounds that collide retry later at random, or they collide again (1-2, 2-4, … ms, at most 256). */
    private static void backOff(int attempt) {
        long base = 1L << Math.min(attempt, 8);
        try {
            Thread.sleep(base + java.util.concurrent.ThreadLocalRandom.current().nextLong(base));
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while settling a write's outcome", ie);
        }
    }

    /** The partition's version and mark, read at SERIAL: any Paxos round in progress on it is finished first. */
    private Row serialRead(LogicalPartition p) {
        return session.execute(selectVersionSerial.bind(p.container(), key(p))
                .setConsistencyLevel(consistency.serial())).one();
    }

    private UUID serialMark(LogicalPartition p) {
        Row r = serialRead(p);
        return r == null ? null : r.getUuid(1);
    }

    private BatchStatement batch(LogicalPartition p, long expected, long next, UUID txid, List<Mutation> mutations,
                                 List<Change> changes) {
        ByteBuffer lp = key(p);
        BatchStatementBuilder batch = BatchStatement.builder(DefaultBatchType.LOGGED);
        batch.addStatement(expected == 0 ? setVersionIfNew.bind(next, txid, p.container(), lp)
                : setVersionIf.bind(next, txid, p.container(), lp, expected));
        // one mutation per id: a put and a delete of one row in one batch share a timestamp, and the delete would win
        Map<String, Mutation> last = new LinkedHashMap<>();
        for (Mutation m : mutations) {
            last.put(m.id(), m);
        }
        for (Mutation m : last.values()) {
            ByteBuffer id = ByteBuffer.wrap(m.id().getBytes(StandardCharsets.UTF_8));
            if (m instanceof Mutation.Put put) {
                batch.addStatement(putRow.bind(p.container(), lp, ITEM, id, ByteBuffer.wrap(put.value())));
            } else {
                batch.addStatement(deleteRow.bind(p.container(), lp, ITEM, id));
            }
        }
        for (Change c : changes) {
            batch.addStatement(putRow.bind(p.container(), lp, CHANGE, lsnKey(c.lsn()), ByteBuffer.wrap(c.record())));
        }
        return batch.build();
    }

    @Override
    public Optional<byte[]> read(LogicalPartition p, String id) {
        Row r = session.execute(read(selectItem.bind(p.container(), key(p),
                ByteBuffer.wrap(id.getBytes(StandardCharsets.UTF_8))))).one();
        return r == null ? Optional.empty() : Optional.of(bytes(r.getByteBuffer(0)));
    }

    @Override
    public List<StoredItem> scan(LogicalPartition p, String from, String to, int limit) {
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
    }

    @Override
    public List<Change> changes(LogicalPartition p, long afterLsn, int limit) {
        List<Change> out = new ArrayList<>();
        for (Row r : session.execute(read(selectChanges.bind(p.container(), key(p), lsnKey(afterLsn), limit)))) {
            out.add(new Change(r.getByteBuffer(0).getLong(0), bytes(r.getByteBuffer(1))));
        }
        return out;
    }

    @Override
    public void pruneChanges(LogicalPartition p, long throughLsn) {
        session.execute(write(pruneChanges.bind(p.container(), key(p), lsnKey(throughLsn))));
    }

    @Override
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

    @Override
    public List<PartitionVersion> partitions(int container, Slice slice) {
        List<PartitionVersion> out = new ArrayList<>();
        for (Row r : session.execute(read(partitionsInRange.bind(slice.start(), slice.end())))) {
            if (r.getInt(0) == container) {
                out.add(new PartitionVersion(new LogicalPartition(container, bytes(r.getByteBuffer(1))),
                        r.isNull(2) ? 0 : r.getLong(2)));
            }
        }
        return out;
    }

    /** The Murmur3 token Cassandra places {@code p} by (for tests and the partitions page). */
    public long token(LogicalPartition p) {
        Row r = session.execute(read(selectToken.bind(p.container(), key(p)))).one();
        if (r == null) {
            throw new IllegalArgumentException("no partition " + p);
        }
        return r.getLong(0);
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

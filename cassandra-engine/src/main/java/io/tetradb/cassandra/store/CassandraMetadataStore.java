package io.tetradb.cassandra.store;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.servererrors.CASWriteUnknownException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import io.tetradb.core.storage.meta.MetaEntry;
import io.tetradb.core.storage.meta.MetaVersion;
import io.tetradb.core.storage.meta.MetaWrite;
import io.tetradb.core.storage.meta.MetadataStore;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * {@link MetadataStore} on Apache Cassandra 5.0: table {@code metadata (shard, key, value, version)}, every entry in
 * the one Cassandra partition {@code shard = 0}, ordered by key (blobs compare as unsigned bytes, as the core's keys
 * sort). A {@link MetaWrite} is one conditional (Paxos) batch over that partition: {@code IF NOT EXISTS} for a
 * create, {@code IF version = ?} for a replace, a required entry or a conditional delete; unconditional puts and
 * deletes ride in the same batch, so it applies whole or not at all, in isolation. A write without a condition still
 * goes through Paxos (a condition on an anchor row that is always true): mixing plain writes with conditional ones on
 * the same rows would let a plain write's timestamp reorder it against Paxos. The version column is the value's
 * {@link MetaVersion} (the contract's: the embedded store computes the same); the catalog stamp is a row of its own,
 * rewritten with a random version in the batch of every catalog change.
 *
 * <p>One partition for all metadata: it is small (definitions, partition maps, counters, path numbers, scripts) and
 * written rarely, and only one partition lets a container's creation (definition, counter, partition map) be one
 * atomic conditional write; Cosmos DB likewise keeps an account's metadata in one replicated "master" partition.
 * Writes at QUORUM with SERIAL conditions, reads at QUORUM (the consistency given).
 */
public final class CassandraMetadataStore implements MetadataStore {
    private static final int SHARD = 0;
    /** The catalog stamp's row and the always-true condition's anchor: 0xFF keys, which the core never uses. */
    static final byte[] STAMP_KEY = {(byte) 0xFF, (byte) 0xFF, 's'};
    static final byte[] ANCHOR_KEY = {(byte) 0xFF, (byte) 0xFF, 'a'};
    /** Each write's own mark, {@code FF FF 'm' · uuid}, kept a day: how an unknown outcome is settled. */
    private static final byte[] MARK_PREFIX = {(byte) 0xFF, (byte) 0xFF, 'm'};
    private static final int MARK_TTL_SECONDS = 86_400;
    static final int SETTLE_ATTEMPTS = 10;

    private final CqlSession session;
    private final CassandraPartitionStore.Consistency consistency;
    /** Reads marked idempotent (the driver retries them on another node by itself): {@link IdempotentReads}. */
    private final boolean idempotentReads = IdempotentReads.enabled();
    private final PreparedStatement select;
    private final PreparedStatement selectFrom;
    private final PreparedStatement selectBetween;
    private final PreparedStatement insertIfAbsent;
    private final PreparedStatement updateIf;
    private final PreparedStatement insert;
    private final PreparedStatement deleteIf;
    private final PreparedStatement delete;
    private final PreparedStatement anchor;
    private final PreparedStatement mark;

    private CassandraMetadataStore(CqlSession session, String keyspace, CassandraPartitionStore.Consistency consistency) {
        this.session = session;
        this.consistency = consistency;
        String t = keyspace + ".metadata";
        select = session.prepare("SELECT value, version FROM " + t + " WHERE shard = ? AND key = ?");
        selectFrom = session.prepare("SELECT key, value, version FROM " + t + " WHERE shard = ? AND key >= ?");
        selectBetween = session.prepare("SELECT key, value, version FROM " + t + " WHERE shard = ? AND key >= ? "
                + "AND key < ?");
        insertIfAbsent = session.prepare("INSERT INTO " + t + " (shard, key, value, version) VALUES (?, ?, ?, ?) "
                + "IF NOT EXISTS");
        updateIf = session.prepare("UPDATE " + t + " SET value = ?, version = ? WHERE shard = ? AND key = ? "
                + "IF version = ?");
        insert = session.prepare("INSERT INTO " + t + " (shard, key, value, version) VALUES (?, ?, ?, ?)");
        deleteIf = session.prepare("DELETE FROM " + t + " WHERE shard = ? AND key = ? IF version = ?");
        delete = session.prepare("DELETE FROM " + t + " WHERE shard = ? AND key = ?");
        // the anchor's version is never set, so "IF version = null" always holds: a Paxos round for plain writes
        anchor = session.prepare("UPDATE " + t + " SET value = ? WHERE shard = ? AND key = ? IF version = null");
        mark = session.prepare("INSERT INTO " + t + " (shard, key, value) VALUES (?, ?, ?) USING TTL "
                + MARK_TTL_SECONDS);
    }

    /** Opens the store on {@code keyspace} (created with {@code replicationFactor} copies if missing). */
    public static CassandraMetadataStore open(CqlSession session, String keyspace, int replicationFactor,
                                              CassandraPartitionStore.Consistency consistency) {
        Schema.createMetadata(session, keyspace, replicationFactor);
        return new CassandraMetadataStore(session, keyspace, consistency);
    }

    /**
     * At SERIAL: a point read of metadata is what a server decides from (a container exists, a definition changed, a
     * counter's value), so it also finishes any Paxos round in progress on the partition and sees the last committed
     * write; metadata reads are rare (a container's load, a catalog refresh, a creation).
     */
    @Override
    public MetaEntry get(byte[] key) {
        return DriverFailures.reading("a metadata read", () -> {
            Row r = serialRead(key);
            return r == null ? null : new MetaEntry(key, bytes(r.getByteBuffer(0)), r.getLong(1));
        });
    }

    private Row serialRead(byte[] key) {
        for (int attempt = 0; ; attempt++) {
            try {
                return session.execute(IdempotentReads.mark(select.bind(SHARD, ByteBuffer.wrap(key))
                        .setConsistencyLevel(consistency.serial()), idempotentReads)).one();
            } catch (ReadTimeoutException | WriteTimeoutException | CASWriteUnknownException busy) {
                if (attempt + 1 >= SETTLE_ATTEMPTS) {
                    throw busy; // its Paxos round kept losing to writers
                }
                ConditionalApply.backOff(attempt);
            }
        }
    }

    @Override
    public List<MetaEntry> list(byte[] from, byte[] to) {
        BoundStatement s = to == null ? selectFrom.bind(SHARD, ByteBuffer.wrap(from))
                : selectBetween.bind(SHARD, ByteBuffer.wrap(from), ByteBuffer.wrap(to));
        return DriverFailures.reading("a metadata listing", () -> {
            List<MetaEntry> out = new ArrayList<>();
            for (Row r : session.execute(IdempotentReads.mark(s.setConsistencyLevel(consistency.reads()),
                    idempotentReads))) {
                byte[] key = bytes(r.getByteBuffer(0));
                if (key.length > 0 && key[0] == (byte) 0xFF && key.length > 1 && key[1] == (byte) 0xFF) {
                    continue; // the store's own rows
                }
                out.add(new MetaEntry(key, bytes(r.getByteBuffer(1)), r.getLong(2)));
            }
            return out;
        });
    }

    @Override
    public boolean apply(MetaWrite write) {
        Map<String, MetaWrite.Op> ops = fold(write);
        byte[] markKey = ByteBuffer.allocate(MARK_PREFIX.length + 16).put(MARK_PREFIX)
                .putLong(ThreadLocalRandom.current().nextLong()).putLong(System.nanoTime()).array();
        BatchStatement batch = batch(ops.values(), write.isCatalogChange(), markKey);
        boolean resent = false;
        for (int attempt = 0; ; attempt++) {
            try {
                boolean applied = session.execute(batch).wasApplied();
                if (applied || !resent) {
                    return applied;
                }
                // a batch sent again after an unknown outcome and refused: the earlier attempt may be what refused
                // it (applied after our settling read missed it); only the mark can say
                return markedAfterRefusal(markKey, attempt);
            } catch (com.datastax.oss.driver.api.core.DriverException e) {
                if (DriverFailures.unavailable(e) && !resent) {
                    // refused before any replica ran it, and no earlier attempt of ours: not applied, retry later
                    throw new io.tetradb.core.storage.StorageUnavailableException("Cassandra could not apply a "
                            + "metadata write: " + e.getMessage(), e);
                }
                if (!DriverFailures.unavailable(e) && !DriverFailures.mayHaveApplied(e)) {
                    throw e;
                }
                // a CAS timeout, the client's own timeout, a closed connection (its node killed with the batch in
                // flight): an unknown outcome (and a resend refused for want of replicas leaves the first one's)
                // Paxos did not learn whether a quorum accepted the batch: read its keys at SERIAL (which finishes a
                // round in progress). Every key as the batch leaves it: applied. A condition no longer holding:
                // someone else wrote first, the batch cannot apply. Otherwise send it again (at most one applies).
                for (; ; attempt++) {
                    if (attempt + 1 >= SETTLE_ATTEMPTS) {
                        throw new OutcomeUnknownException("metadata write", e);
                    }
                    ConditionalApply.backOff(attempt);
                    Boolean settled;
                    try {
                        settled = settle(ops.values(), markKey);
                    } catch (com.datastax.oss.driver.api.core.DriverException busy) {
                        if (!DriverFailures.unavailable(busy) && !DriverFailures.mayHaveApplied(busy)) {
                            throw busy;
                        }
                        continue;
                    }
                    if (settled != null) {
                        return settled;
                    }
                    resent = true;
                    break;
                }
            }
        }
    }

    /** Whether the write's mark is there, read at SERIAL (again while the read's own round times out). */
    private boolean markedAfterRefusal(byte[] markKey, int attempt) {
        for (; ; attempt++) {
            try {
                return serialRead(markKey) != null;
            } catch (com.datastax.oss.driver.api.core.DriverException busy) {
                if (!DriverFailures.unavailable(busy) && !DriverFailures.mayHaveApplied(busy)) {
                    throw busy;
                }
                if (attempt + 1 >= SETTLE_ATTEMPTS) {
                    throw new OutcomeUnknownException("metadata write", busy);
                }
                ConditionalApply.backOff(attempt);
            }
        }
    }

    /** One operation per key (a put and a delete of one row in one batch share a timestamp; the delete would win). */
    private Map<String, MetaWrite.Op> fold(MetaWrite write) {
        Map<String, MetaWrite.Op> ops = new LinkedHashMap<>();
        for (MetaWrite.Op op : write.ops()) {
            if (op.kind() == MetaWrite.Kind.DELETE_RANGE) {
                // a range delete is the keys there now (a key created meanwhile in a dead container's range stays)
                for (MetaEntry e : list(op.key(), op.end())) {
                    put(ops, new MetaWrite.Op(MetaWrite.Kind.DELETE, e.key(), null, 0, null));
                }
            } else {
                put(ops, op);
            }
        }
        return ops;
    }

    private static void put(Map<String, MetaWrite.Op> ops, MetaWrite.Op op) {
        String k = HexFormat.of().formatHex(op.key());
        MetaWrite.Op before = ops.get(k);
        if (before != null && before.isConditional() && !op.isConditional()) {
            // a condition and a plain write of one key: the condition, with the plain write's outcome
            op = op.kind() == MetaWrite.Kind.DELETE
                    ? new MetaWrite.Op(MetaWrite.Kind.DELETE_IF, op.key(), null, before.expected(), null)
                    : before.kind() == MetaWrite.Kind.CREATE ? new MetaWrite.Op(MetaWrite.Kind.CREATE, op.key(), op.value(), 0, null)
                    : new MetaWrite.Op(MetaWrite.Kind.REPLACE, op.key(), op.value(), before.expected(), null);
        }
        ops.put(k, op);
    }

    private BatchStatement batch(Iterable<MetaWrite.Op> ops, boolean catalogChange, byte[] markKey) {
        BatchStatementBuilder b = BatchStatement.builder(DefaultBatchType.LOGGED);
        b.addStatement(mark.bind(SHARD, ByteBuffer.wrap(markKey), ByteBuffer.allocate(0)));
        boolean conditional = false;
        for (MetaWrite.Op op : ops) {
            ByteBuffer key = ByteBuffer.wrap(op.key());
            conditional |= op.isConditional();
            b.addStatement(switch (op.kind()) {
                case CREATE -> insertIfAbsent.bind(SHARD, key, ByteBuffer.wrap(op.value()), MetaVersion.of(op.value()));
                case REPLACE, REQUIRE -> updateIf.bind(ByteBuffer.wrap(op.value()), MetaVersion.of(op.value()), SHARD,
                        key, op.expected());
                case PUT -> insert.bind(SHARD, key, ByteBuffer.wrap(op.value()), MetaVersion.of(op.value()));
                case DELETE_IF -> deleteIf.bind(SHARD, key, op.expected());
                case DELETE -> delete.bind(SHARD, key);
                case DELETE_RANGE -> throw new IllegalStateException("range deletes are folded to keys");
            });
        }
        if (catalogChange) {
            long stamp = ThreadLocalRandom.current().nextLong();
            b.addStatement(insert.bind(SHARD, ByteBuffer.wrap(STAMP_KEY), ByteBuffer.allocate(8).putLong(0, stamp),
                    stamp));
        }
        if (!conditional) {
            b.addStatement(anchor.bind(ByteBuffer.allocate(0), SHARD, ByteBuffer.wrap(ANCHOR_KEY)));
        }
        return b.build().setConsistencyLevel(consistency.writes()).setSerialConsistencyLevel(consistency.serial());
    }

    /**
     * After an unknown outcome: TRUE when the write's own mark is there (it applied), FALSE when a condition no longer
     * holds (someone else wrote first: it cannot apply any more), null when every condition still holds (send again;
     * at most one attempt applies). By the mark, not by the values: two writers may write the same bytes (the same
     * counter value, the same definition), and only the mark says whose write it was.
     */
    private Boolean settle(Iterable<MetaWrite.Op> ops, byte[] markKey) {
        if (serialRead(markKey) != null) {
            return Boolean.TRUE;
        }
        for (MetaWrite.Op op : ops) {
            if (op.isConditional()) {
                Row r = serialRead(op.key());
                long found = r == null ? MetaVersion.ABSENT : r.getLong(1);
                if (found != op.expected()) {
                    return Boolean.FALSE;
                }
            }
        }
        return null;
    }

    /** At SERIAL, like {@link #get}: a stamp read decides whether a server's caches are current. */
    @Override
    public long catalogStamp() {
        Row r = serialRead(STAMP_KEY);
        return r == null ? 0 : r.getLong(1);
    }

    @Override
    public boolean isShared() {
        return true;
    }

    @Override
    public void close() {
        // the session is the opener's
    }


    private static byte[] bytes(ByteBuffer b) {
        if (b == null) {
            return new byte[0];
        }
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    @Override
    public String toString() {
        return "CassandraMetadataStore" + Arrays.toString(new Object[]{consistency});
    }
}

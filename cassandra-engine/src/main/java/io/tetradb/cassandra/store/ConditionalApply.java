package io.tetradb.cassandra.store;

import com.datastax.oss.driver.api.core.DriverException;
import io.tetradb.core.storage.StorageUnavailableException;

import io.tetradb.core.storage.partition.ApplyResult;
import io.tetradb.core.storage.partition.LogicalPartition;

import java.nio.ByteBuffer;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Makes the outcome of one conditional single-partition batch exact (cassandra-engine/README.md, "unknown outcomes").
 * Every batch writes its transaction's <b>mark</b> (its random id and the version it sets) into the partition's mark
 * slot for that version, one of {@link #MARK_SLOTS} rows (kind 4, keyed by {@code version mod 64}), so a mark stays
 * readable after later writers have moved the version on, and the slots never grow. When Cassandra reports an
 * outcome unknown (a CAS write timeout: Paxos did not learn whether a quorum accepted the proposal), or a batch sent
 * again after that is refused, the answer comes from the mark read at SERIAL (a Paxos round, which finishes a round in
 * progress on the replicas it reaches): ours, applied; another transaction's at the version we set, not applied (it
 * needed the version we expected); no mark yet and the partition still at the version we expected, the same batch is
 * sent again (its condition lets at most one of our attempts apply); no mark and the version moved on, the mark is
 * read once more before answering "not applied". Where the mark cannot be read (SERIAL reads keep timing out) or its
 * slot was reused by a version 64 later, the answer is {@link OutcomeUnknownException}, never "not applied". A first
 * send refused before any replica ran it (too few replicas alive, no node reachable) applied nothing:
 * {@link StorageUnavailableException}, which the client may retry.
 * <p>
 * The first cluster runs settled by the static {@code txid} beside the version, which the next writer overwrites: an
 * apply whose batch a quorum had accepted but whose answer timed out, followed by another writer's commit, was
 * reported not applied (23 of 24 racing versions counted won).
 */
final class ConditionalApply {
    /** Mark slots per logical partition: a mark stays readable until the version has moved on by this many. */
    static final int MARK_SLOTS = 64;
    /** Rounds (sends and settling reads) before an outcome is given up as unknown. */
    static final int SETTLE_ATTEMPTS = 10;

    /** What the settling asks Cassandra of one partition (a test double stands in to inject timeouts). */
    interface Rounds {
        /** Sends the conditional batch; throws the driver's exception when its outcome is unknown. */
        Sent send();

        /** The mark slot of version {@code version}, read at SERIAL; null when empty. */
        Mark markAtSerial(long version);

        /** The partition's version, read at SERIAL (0 for a partition never written). */
        long versionAtSerial();
    }

    /** A batch's answer: applied, or refused with the partition's current version. */
    record Sent(boolean applied, long current) {
    }

    /** A mark: the transaction that set {@code version}. */
    record Mark(UUID txid, long version) {
        ByteBuffer encode() {
            return ByteBuffer.allocate(24).putLong(txid.getMostSignificantBits())
                    .putLong(txid.getLeastSignificantBits()).putLong(version).flip();
        }

        static Mark decode(ByteBuffer b) {
            ByteBuffer d = b.duplicate();
            return new Mark(new UUID(d.getLong(), d.getLong()), d.getLong());
        }
    }

    private enum Verdict { APPLIED, NOT_APPLIED, NOT_YET, UNKNOWN }

    private ConditionalApply() {
    }

    /** The clustering key of {@code version}'s mark slot (kind 4). */
    static ByteBuffer slot(long version) {
        return ByteBuffer.wrap(new byte[]{(byte) Math.floorMod(version, MARK_SLOTS)});
    }

    /** Runs the batch of transaction {@code txid} ({@code expected} → {@code next}) until its outcome is known. */
    static ApplyResult run(Rounds rounds, LogicalPartition p, UUID txid, long expected, long next) {
        RuntimeException why = null; // the last unknown outcome: an earlier attempt of ours may have applied
        int attempt = 0;
        while (true) {
            try {
                Sent s = rounds.send();
                if (s.applied()) {
                    return new ApplyResult(true, next, 0);
                }
                if (why == null && s.current() != next) {
                    return new ApplyResult(false, s.current(), 0); // a fresh round refused: none of ours applied
                }
                // refused after an attempt of unknown outcome (or showing the version we set): that attempt may be
                // what refused this one; only our mark can say
            } catch (DriverException e) {
                if (DriverFailures.unavailable(e)) {
                    if (why == null) { // refused before any replica ran it, and no earlier attempt of ours: not applied
                        throw new StorageUnavailableException("Cassandra could not apply a write to " + p + ": "
                                + e.getMessage(), e);
                    }
                    // an earlier attempt's outcome is still unknown: settle it by its mark
                } else if (DriverFailures.mayHaveApplied(e)) {
                    // a CAS timeout, a read timeout in Paxos' read phase, the client's own timeout, the connection
                    // closed with the batch in flight (its node killed): an unknown outcome
                    why = e;
                } else {
                    throw e;
                }
            }
            while (true) {
                if (++attempt >= SETTLE_ATTEMPTS) {
                    throw new OutcomeUnknownException(p, why);
                }
                backOff(attempt);
                Verdict v;
                long version;
                Mark m;
                try {
                    m = rounds.markAtSerial(next);
                    v = judge(m, txid, expected, next);
                    version = v == Verdict.NOT_YET ? rounds.versionAtSerial() : -1;
                } catch (DriverException busy) {
                    if (!DriverFailures.unavailable(busy) && !DriverFailures.mayHaveApplied(busy)) {
                        throw busy;
                    }
                    continue; // the SERIAL read's own round lost to contention or too few replicas: read again
                }
                if (v == Verdict.APPLIED) {
                    return new ApplyResult(true, next, 0);
                }
                if (v == Verdict.UNKNOWN) {
                    throw new OutcomeUnknownException(p, why);
                }
                if (v == Verdict.NOT_APPLIED) {
                    return new ApplyResult(false, m.version(), 0);
                }
                if (version == expected) {
                    break; // no mark, still the version we expected: send the batch again
                }
                // the version moved on and no mark of ours: read it once more before answering (a second Paxos round
                // finishes a proposal of ours that the first one's quorum may have missed)
                try {
                    v = judge(rounds.markAtSerial(next), txid, expected, next);
                } catch (DriverException busy) {
                    if (!DriverFailures.unavailable(busy) && !DriverFailures.mayHaveApplied(busy)) {
                        throw busy;
                    }
                    continue;
                }
                if (v == Verdict.APPLIED) {
                    return new ApplyResult(true, next, 0);
                }
                if (v == Verdict.UNKNOWN) {
                    throw new OutcomeUnknownException(p, why);
                }
                return new ApplyResult(false, version, 0);
            }
        }
    }

    private static Verdict judge(Mark m, UUID txid, long expected, long next) {
        if (m == null || m.version() < next) {
            return Verdict.NOT_YET; // no transaction has set `next` (the slot is empty or holds an older version)
        }
        if (m.version() > next) {
            return Verdict.UNKNOWN; // the slot was reused: `next`'s mark is gone
        }
        if (m.txid().equals(txid)) {
            return Verdict.APPLIED;
        }
        // another transaction set `next`: ours, which needs `expected`, can never apply after it (versions only grow);
        // a write that keeps the version (next == expected) may still: judged by the version, as before any mark
        return next > expected ? Verdict.NOT_APPLIED : Verdict.NOT_YET;
    }

    /** Paxos rounds that collide retry later at random, or they collide again (1-2, 2-4, … ms, at most 256). */
    static void backOff(int attempt) {
        long base = 1L << Math.min(attempt, 8);
        try {
            Thread.sleep(base + ThreadLocalRandom.current().nextLong(base));
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while settling a write's outcome", ie);
        }
    }
}

package io.tetradb.core.feed;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/**
 * What the {@link FeedPruner} remembers of one container's feed between passes, in memory only (after a restart the
 * first pass starts over from the beginning). Every item change writes a record, so the newest record seen of each
 * item tells, without reading the item, whether an older record of it is superseded.
 */
final class PruneProgress {
    /** Records up to here are registered in {@link #latest}. */
    long seen;
    /** Records up to here are decided: removed, or kept as their item's latest version (tracked in {@link #latest}). */
    long decided;
    /**
     * Records up to here were written before this progress began (an earlier run, a crash between two chunks): one
     * that looks live is checked against the item itself, once.
     */
    final long trustedAfter;
    /** The container's retention the decisions were made under. */
    final long retentionMillis;
    /**
     * retention-due: the highest number of an undecided record a later pass must remove or check — a tombstone, a
     * superseded version, a record written before this progress began — held because it is within the retention.
     * Undecided records above {@link #decided} that are their item's latest version need no pass: one comes with the
     * replace or delete that supersedes them.
     */
    private long pendingUpTo;
    /**
     * When the next pass is due without a new replace or delete: the first undecided record leaves the retention then
     * (no pass can decide anything before); {@link Long#MAX_VALUE} while no undecided record is pending.
     */
    long dueAtMillis = Long.MAX_VALUE;
    /** Item ({@code EPK · pk · id}) → sequence number of its newest create/replace record seen (none after a delete). */
    final Map<ByteBuffer, Long> latest = new HashMap<>();

    /**
     * feed-prune: the records in ({@link #decided}, {@link #seen}] without their images, so that a later pass decides
     * them without reading them again (they wait there while within the retention); null when not all of them are
     * here (more than {@link #maxHeld}): then the pass reads them from the store.
     */
    private java.util.ArrayDeque<ChangeRecord> held;
    private final int maxHeld;

    PruneProgress(long trustedAfter, long retentionMillis, int maxHeld) {
        this.trustedAfter = trustedAfter;
        this.retentionMillis = retentionMillis;
        this.maxHeld = maxHeld;
        this.held = maxHeld > 0 ? new java.util.ArrayDeque<>() : null;
    }

    java.util.ArrayDeque<ChangeRecord> held() {
        return held;
    }

    /** {@code fresh} (the records after {@link #seen}, in order) are registered: held until decided. */
    void hold(java.util.List<ChangeRecord> fresh) {
        if (held == null) {
            return;
        }
        if (held.size() + fresh.size() > maxHeld) {
            held = null; // too many to keep: the pass reads them when it decides them
            return;
        }
        for (ChangeRecord r : fresh) {
            held.addLast(r.current() == null && r.previous() == null ? r : new ChangeRecord(r.seq(),
                    r.operationType(), r.lsn(), r.previousLsn(), r.crtsMillis(), r.ttlExpired(), r.logicalPartition(),
                    r.id(), null, null, r.imageRefs()));
        }
    }

    /** Record {@code seq}, undecided, will have to be removed or checked once it leaves the retention. */
    void pending(long seq) {
        pendingUpTo = Math.max(pendingUpTo, seq);
    }

    /** Some undecided record is {@link #pending}: records are decided in order, so one above {@link #decided}. */
    boolean pendingLeft() {
        return pendingUpTo > decided;
    }

    /** Records up to {@code seq} are decided. */
    void decidedUpTo(long seq) {
        decided = seq;
        if (held != null) {
            while (!held.isEmpty() && held.peekFirst().seq() <= seq) {
                held.pollFirst();
            }
        }
    }

    /** With nothing undecided, what is held is known again (empty). */
    void holdAgainIfNoneHeld() {
        if (held == null && maxHeld > 0 && decided >= seen) {
            held = new java.util.ArrayDeque<>();
        }
    }

    static ByteBuffer itemOf(ChangeRecord r) {
        byte[] lp = r.logicalPartition();
        byte[] id = r.id().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] key = new byte[lp.length + id.length];
        System.arraycopy(lp, 0, key, 0, lp.length);
        System.arraycopy(id, 0, key, lp.length, id.length);
        return ByteBuffer.wrap(key);
    }
}

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
    /** Item ({@code EPK · pk · id}) → sequence number of its newest create/replace record seen (none after a delete). */
    final Map<ByteBuffer, Long> latest = new HashMap<>();

    PruneProgress(long trustedAfter, long retentionMillis) {
        this.trustedAfter = trustedAfter;
        this.retentionMillis = retentionMillis;
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

package io.tetradb.core.feed;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a change-feed reader on the logical-partition contract stands: for each logical partition of its scope that
 * had changes, the lsn it has read through, and the partition the next page starts at. An lsn is the partition's
 * version, which the engine's conditional apply decides, so every server of a shared keyspace numbers a partition's
 * changes alike and a cursor is valid on any of them and after any restart; it is keyed by logical partition, not
 * by physical range, so it stays valid across splits (a child range keeps the entries of its own partitions).
 *
 * <p>Why per logical partition and not one position: partitions commit independently (one Paxos round each on
 * Cassandra), so no container-wide number orders their changes without a counter every writer contends on, and a
 * cursor of (partition, lsn) past which a sweep moves on would miss a change a partition already passed commits
 * later. The size is bounded by the scope's partitions that had changes (their key bytes and an lsn each), not by
 * the changes.
 *
 * <p>Encoding: {@code 'C' · version 1 · varint resume length · resume · varint count · (varint key length · key ·
 * varint lsn)*}, keys in unsigned byte order.
 */
public final class FeedCursor {
    private static final byte MAGIC = 'C';
    private static final byte VERSION = 1;

    private final TreeMap<byte[], Long> lsns = new TreeMap<>(Arrays::compareUnsigned);
    /** The partition key the next page starts at (inclusive); null: the scope's first. */
    private byte[] resume;

    /** A reader that has read nothing (from the beginning). */
    public static FeedCursor beginning() {
        return new FeedCursor();
    }

    /** The lsn read through in {@code partition} ({@code EPK · pk}); 0 for none. */
    public long lsn(byte[] partition) {
        Long l = lsns.get(partition);
        return l == null ? 0 : l;
    }

    /** Records that {@code partition}'s changes are read through {@code lsn}. */
    public void advance(byte[] partition, long lsn) {
        if (lsn > lsn(partition)) {
            lsns.put(partition.clone(), lsn);
        }
    }

    public byte[] resume() {
        return resume == null ? null : resume.clone();
    }

    public void resumeAt(byte[] partition) {
        this.resume = partition == null ? null : partition.clone();
    }

    /** The partitions with an entry and their lsns, in key order. */
    public Map<byte[], Long> entries() {
        return java.util.Collections.unmodifiableMap(lsns);
    }

    public FeedCursor copy() {
        FeedCursor c = new FeedCursor();
        c.lsns.putAll(lsns);
        c.resume = resume;
        return c;
    }

    public byte[] encode() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(16 + lsns.size() * 32);
        out.write(MAGIC);
        out.write(VERSION);
        byte[] r = resume == null ? new byte[0] : resume;
        Varints.write(out, r.length);
        out.writeBytes(r);
        Varints.write(out, lsns.size());
        for (Map.Entry<byte[], Long> e : lsns.entrySet()) {
            Varints.write(out, e.getKey().length);
            out.writeBytes(e.getKey());
            Varints.write(out, e.getValue());
        }
        return out.toByteArray();
    }

    /** The cursor {@link #encode()} wrote; IllegalArgumentException for anything else. */
    public static FeedCursor decode(byte[] bytes) {
        try {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            if (b.get() != MAGIC || b.get() != VERSION) {
                throw new IllegalArgumentException("not a change feed cursor");
            }
            FeedCursor c = new FeedCursor();
            byte[] r = new byte[(int) Varints.read(b, "a change feed cursor")];
            b.get(r);
            c.resume = r.length == 0 ? null : r;
            long n = Varints.read(b, "a change feed cursor");
            for (long i = 0; i < n; i++) {
                byte[] k = new byte[(int) Varints.read(b, "a change feed cursor")];
                b.get(k);
                c.lsns.put(k, Varints.read(b, "a change feed cursor"));
            }
            if (b.hasRemaining()) {
                throw new IllegalArgumentException("trailing bytes after a change feed cursor");
            }
            return c;
        } catch (java.nio.BufferUnderflowException | NegativeArraySizeException e) {
            throw new IllegalArgumentException("a truncated change feed cursor", e);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FeedCursor c && Arrays.equals(encode(), c.encode());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(encode());
    }
}

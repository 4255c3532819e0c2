package io.tetradb.cassandra.store;

import java.util.Arrays;

/**
 * The two numbers a term row carries for its storage-attached indexes, and the bounds a seek asks them for. An index
 * entry is {@code term · lp · id} with {@code term = pathId(4) · enc(value)}: {@code cpath} is the container and the
 * path id in one long, {@code tprefix} the entry's first 8 bytes after the path id (zero-padded) as a long whose
 * signed order is the bytes' unsigned order. Both are monotone in the entry's byte order, so every entry of
 * {@code [from, to)} has {@code cpath} between the bounds' and, within one path, {@code tprefix} between theirs: the
 * indexed query returns a superset (values that share their first 8 bytes), which the seek cuts to the range exactly.
 */
final class TermSeek {
    private TermSeek() {
    }

    static long cpath(int container, byte[] entry) {
        return ((long) container << 32) | (pathId(entry) & 0xFFFFFFFFL);
    }

    /** The path id of an entry or bound (a bound shorter than 4 bytes is zero-padded, as its order says). */
    static int pathId(byte[] entry) {
        byte[] b = Arrays.copyOf(entry, Math.max(4, entry.length));
        return ((b[0] & 0xFF) << 24) | ((b[1] & 0xFF) << 16) | ((b[2] & 0xFF) << 8) | (b[3] & 0xFF);
    }

    static long tprefix(byte[] entry) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            int at = 4 + i;
            v = (v << 8) | (at < entry.length ? entry[at] & 0xFF : 0);
        }
        return v ^ Long.MIN_VALUE; // unsigned order as signed
    }

    /** The entry {@code term · lp · id} of a term row. */
    static byte[] entry(byte[] term, byte[] lp, byte[] id) {
        byte[] out = new byte[term.length + lp.length + id.length];
        System.arraycopy(term, 0, out, 0, term.length);
        System.arraycopy(lp, 0, out, term.length, lp.length);
        System.arraycopy(id, 0, out, term.length + lp.length, id.length);
        return out;
    }
}

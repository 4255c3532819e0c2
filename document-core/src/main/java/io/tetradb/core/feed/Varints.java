package io.tetradb.core.feed;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

/**
 * Unsigned LEB128 numbers, 7 bits per byte, as the feed's cursors and the faces' tokens built on them
 * ({@link FeedCursor}, the Mongo face's resume tokens) write lengths and lsns: small numbers stay one byte.
 */
public final class Varints {
    private Varints() {
    }

    public static void write(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    /** Reads one number; {@code what} names the token in the error of a malformed one. */
    public static long read(ByteBuffer b, String what) {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte x = b.get();
            v |= (long) (x & 0x7F) << shift;
            if ((x & 0x80) == 0) {
                return v;
            }
        }
        throw new IllegalArgumentException("a malformed number in " + what);
    }
}

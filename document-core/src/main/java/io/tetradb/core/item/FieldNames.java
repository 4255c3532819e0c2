package io.tetradb.core.item;

import java.util.Arrays;

/**
 * Field names as Strings, decoded once: items of a container repeat the same names, so a small direct-mapped table of
 * recent names saves decoding and allocating them for every item read (and their String hash codes stay computed).
 * A name of up to 16 bytes is hashed and compared as two 64-bit words (most names are that short: a byte-by-byte hash
 * and an {@code Arrays.equals} per name were a fifth of a point read's tree build); a longer one is hashed from three
 * of its words and compared whole.
 * Entries are immutable, so threads may race on a slot and at worst decode a name again.
 */
final class FieldNames {
    private static final int SLOTS = 2048; // a power of two
    private static final int MAX_CACHED_LENGTH = 48;
    private static final int WORDS_LENGTH = 16;
    private static final Entry[] TABLE = new Entry[SLOTS];

    /** A name: its first 16 bytes as two little-endian words (zero past its end) and, when longer, all its bytes. */
    private record Entry(int length, long w0, long w1, byte[] utf8, String name) {
    }

    private FieldNames() {
    }

    static String name(byte[] b, int off, int len) {
        if (len > WORDS_LENGTH) {
            return longName(b, off, len);
        }
        long w0 = len == 0 ? 0 : word(b, off, Math.min(len, 8));
        long w1 = len > 8 ? word(b, off + 8, len - 8) : 0;
        long h = (w0 * 0x9E3779B97F4A7C15L + w1) * 0xC2B2AE3D27D4EB4FL + len;
        int slot = (int) (h >>> 40) & (SLOTS - 1);
        Entry e = TABLE[slot];
        if (e != null && e.length == len && e.w0 == w0 && e.w1 == w1) {
            return e.name;
        }
        String name = Utf8.decode(b, off, len);
        TABLE[slot] = new Entry(len, w0, w1, null, name);
        return name;
    }

    /** The {@code n} (1..8) bytes at {@code off} as a little-endian word, zero above them. */
    private static long word(byte[] b, int off, int n) {
        if (n == 8) {
            return Bytes.i64(b, off);
        }
        if (off + 8 <= b.length) { // one read, the bytes past the name masked off
            return Bytes.i64(b, off) & (-1L >>> (64 - 8 * n));
        }
        long w = 0;
        for (int i = n - 1; i >= 0; i--) {
            w = (w << 8) | (b[off + i] & 0xFF);
        }
        return w;
    }

    private static String longName(byte[] b, int off, int len) {
        if (len > MAX_CACHED_LENGTH) {
            return Utf8.decode(b, off, len);
        }
        long h = (Bytes.i64(b, off) * 0x9E3779B97F4A7C15L + Bytes.i64(b, off + 8)) * 0xC2B2AE3D27D4EB4FL
                + Bytes.i64(b, off + len - 8) * 31 + len; // its first 16 and last 8 bytes: no loop over the name
        int slot = (int) (h >>> 40) & (SLOTS - 1);
        Entry e = TABLE[slot];
        if (e != null && e.utf8 != null && Arrays.equals(e.utf8, 0, e.utf8.length, b, off, off + len)) {
            return e.name;
        }
        String name = Utf8.decode(b, off, len);
        TABLE[slot] = new Entry(len, 0, 0, Arrays.copyOfRange(b, off, off + len), name);
        return name;
    }
}

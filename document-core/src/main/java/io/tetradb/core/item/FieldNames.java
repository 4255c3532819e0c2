package io.tetradb.core.item;

import java.util.Arrays;

/**
 * Field names as Strings, decoded once: items of a container repeat the same names, so a small direct-mapped table of
 * recent names saves decoding and allocating them for every item read (and their String hash codes stay computed).
 * Entries are immutable, so threads may race on a slot and at worst decode a name again.
 */
final class FieldNames {
    private static final int SLOTS = 2048; // a power of two
    private static final int MAX_CACHED_LENGTH = 48;
    private static final Entry[] TABLE = new Entry[SLOTS];

    private record Entry(byte[] utf8, String name) {
    }

    private FieldNames() {
    }

    static String name(byte[] b, int off, int len) {
        if (len > MAX_CACHED_LENGTH) {
            return Utf8.decode(b, off, len);
        }
        int h = len;
        for (int i = off; i < off + len; i++) {
            h = 31 * h + b[i];
        }
        int slot = (h ^ (h >>> 11)) & (SLOTS - 1);
        Entry e = TABLE[slot];
        if (e != null && Arrays.equals(e.utf8, 0, e.utf8.length, b, off, off + len)) {
            return e.name;
        }
        String name = Utf8.decode(b, off, len);
        TABLE[slot] = new Entry(Arrays.copyOfRange(b, off, off + len), name);
        return name;
    }
}

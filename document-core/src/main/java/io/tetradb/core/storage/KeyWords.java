package io.tetradb.core.storage;

/**
 * Eight key bytes as one unsigned number, for the sorts that compare keys a word at a time (the index key order of a
 * transaction's writes, the bulk chunk's run order): unsigned order of the words is the keys' byte order over those
 * bytes.
 */
public final class KeyWords {
    private KeyWords() {
    }

    /** The 8 bytes of {@code k} from {@code from} as one unsigned number, bytes past its end read as 0. */
    public static long padded(byte[] k, int from) {
        long w = 0;
        int end = Math.min(k.length, from + 8);
        for (int i = from; i < end; i++) {
            w |= (long) (k[i] & 0xFF) << (56 - 8 * (i - from));
        }
        return w;
    }
}

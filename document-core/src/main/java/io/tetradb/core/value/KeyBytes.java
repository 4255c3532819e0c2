package io.tetradb.core.value;

/** Small big-endian helpers for the index key bodies of the typed values. */
final class KeyBytes {
    private KeyBytes() {
    }

    static byte[] longKey(long v) {
        byte[] b = new byte[8];
        putLong(b, 0, v);
        return b;
    }

    static void putLong(byte[] b, int at, long v) {
        for (int i = 0; i < 8; i++) {
            b[at + i] = (byte) (v >>> (56 - 8 * i));
        }
    }

    static long getLong(byte[] b, int at) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[at + i] & 0xFF);
        }
        return v;
    }

    static void putInt(byte[] b, int at, int v) {
        for (int i = 0; i < 4; i++) {
            b[at + i] = (byte) (v >>> (24 - 8 * i));
        }
    }

    static int getInt(byte[] b, int at) {
        int v = 0;
        for (int i = 0; i < 4; i++) {
            v = (v << 8) | (b[at + i] & 0xFF);
        }
        return v;
    }
}

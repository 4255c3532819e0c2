package io.tetradb.core.value;

/**
 * Small helpers for order-preserving byte keys: big-endian numbers (the index key bodies of the typed values, the
 * storage layouts' counters), concatenation and prefix bounds.
 */
public final class KeyBytes {
    private KeyBytes() {
    }

    public static byte[] longKey(long v) {
        byte[] b = new byte[8];
        putLong(b, 0, v);
        return b;
    }

    public static void putLong(byte[] b, int at, long v) {
        for (int i = 0; i < 8; i++) {
            b[at + i] = (byte) (v >>> (56 - 8 * i));
        }
    }

    public static long getLong(byte[] b, int at) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[at + i] & 0xFF);
        }
        return v;
    }

    public static void putInt(byte[] b, int at, int v) {
        for (int i = 0; i < 4; i++) {
            b[at + i] = (byte) (v >>> (24 - 8 * i));
        }
    }

    public static int getInt(byte[] b, int at) {
        int v = 0;
        for (int i = 0; i < 4; i++) {
            v = (v << 8) | (b[at + i] & 0xFF);
        }
        return v;
    }

    public static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    public static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length && java.util.Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }
}

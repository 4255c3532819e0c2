package io.tetradb.core.item;

import java.nio.charset.StandardCharsets;

/**
 * UTF-8 that keeps every Java string: well-formed text is standard UTF-8; a lone surrogate (legal in a Java string
 * and in JSON's \\u escapes) is written in its 3-byte form instead of being replaced by '?', and read back as itself.
 */
final class Utf8 {
    private Utf8() {
    }

    static byte[] encode(String s) {
        int n = s.length();
        int i0 = 0;
        while (i0 < n && s.charAt(i0) < 0x80) {
            i0++;
        }
        if (i0 == n) {
            return s.getBytes(StandardCharsets.ISO_8859_1);
        }
        byte[] out = new byte[3 * n];
        return java.util.Arrays.copyOf(out, encodeInto(s, out, 0));
    }

    /**
     * Writes {@link #encode}'s bytes of {@code s} to {@code out} from {@code at} (room for {@code 3 * s.length()}
     * bytes is the caller's) and returns the end (item-copies: the TB1 writers encode into their buffer, no array).
     */
    static int encodeInto(String s, byte[] out, int at) {
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                out[at++] = (byte) c;
            } else if (c < 0x800) {
                out[at++] = (byte) (0xC0 | (c >>> 6));
                out[at++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                out[at++] = (byte) (0xF0 | (cp >>> 18));
                out[at++] = (byte) (0x80 | ((cp >>> 12) & 0x3F));
                out[at++] = (byte) (0x80 | ((cp >>> 6) & 0x3F));
                out[at++] = (byte) (0x80 | (cp & 0x3F));
            } else {
                out[at++] = (byte) (0xE0 | (c >>> 12));
                out[at++] = (byte) (0x80 | ((c >>> 6) & 0x3F));
                out[at++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        return at;
    }

    /** True when {@code b[off, off+len)} is ASCII (eight bytes at a time: no byte has its top bit set). */
    static boolean isAscii(byte[] b, int off, int len) {
        int i = off;
        int end = off + len;
        for (; i + 8 <= end; i += 8) {
            if ((Bytes.i64(b, i) & 0x8080808080808080L) != 0) {
                return false;
            }
        }
        for (; i < end; i++) {
            if (b[i] < 0) {
                return false;
            }
        }
        return true;
    }

    static String decode(byte[] b, int off, int len) {
        String s = new String(b, off, len, StandardCharsets.UTF_8);
        if (s.indexOf('\uFFFD') < 0) {
            return s; // nothing replaced (for ASCII text this check is O(1): a Latin-1 string cannot hold U+FFFD)
        }
        // 0xED leads the 3-byte forms of surrogates, which the JDK's decoder replaced with U+FFFD
        for (int i = off; i < off + len; i++) {
            if (b[i] == (byte) 0xED) {
                return decodeLenient(b, off, len);
            }
        }
        return s;
    }

    private static String decodeLenient(byte[] b, int off, int len) {
        StringBuilder sb = new StringBuilder(len);
        int i = off;
        int end = off + len;
        while (i < end) {
            int c = b[i] & 0xFF;
            if (c < 0x80) {
                sb.append((char) c);
                i++;
            } else if (c < 0xE0) {
                sb.append((char) (((c & 0x1F) << 6) | (b[i + 1] & 0x3F)));
                i += 2;
            } else if (c < 0xF0) {
                sb.append((char) (((c & 0x0F) << 12) | ((b[i + 1] & 0x3F) << 6) | (b[i + 2] & 0x3F)));
                i += 3;
            } else {
                int cp = ((c & 0x07) << 18) | ((b[i + 1] & 0x3F) << 12) | ((b[i + 2] & 0x3F) << 6) | (b[i + 3] & 0x3F);
                sb.appendCodePoint(cp);
                i += 4;
            }
        }
        return sb.toString();
    }
}

package io.tetradb.core.item;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.StandardCharsets;

/**
 * item-copies (issue 17): copies a string that is all ASCII into a byte array, with no array made per string. The
 * JDK's {@code String.getBytes(UTF_8)} checked and copied a long string fast but returned a new array, which the
 * writer then copied into its buffer (a 1 KiB item's filler: a ninth of what a point write allocated). Here the
 * string's chars go through a reused scratch array ({@code getChars}, vectorised) into the JDK's US-ASCII encoder
 * (its array loop is vectorised too), chunk by chunk, so the scratch stays small. Any char above 0x7F (a lone
 * surrogate included) makes the encoder stop with an error, and the caller writes the string as general UTF-8. Not
 * thread-safe: one per writer.
 */
final class AsciiEncoder {
    private static final int CHUNK = 1024;

    private final CharsetEncoder encoder = StandardCharsets.US_ASCII.newEncoder();
    private final char[] chars = new char[CHUNK];
    private final CharBuffer in = CharBuffer.wrap(chars);
    private ByteBuffer out;

    /**
     * Writes the {@code n} chars of {@code s} as bytes to {@code to[at, at + n)} and returns true when they are all
     * ASCII; else returns false, with nothing promised about {@code to[at, at + n)} ({@code to} has room for them).
     */
    boolean copy(String s, int n, byte[] to, int at) {
        if (out == null || out.array() != to) {
            out = ByteBuffer.wrap(to); // the writer's buffer grew: wrapped once per new buffer
        }
        for (int from = 0; from < n; from += CHUNK) {
            int k = Math.min(CHUNK, n - from);
            s.getChars(from, from + k, chars, 0);
            in.clear().limit(k);
            out.clear().position(at + from).limit(at + from + k);
            encoder.reset();
            if (!encoder.encode(in, out, true).isUnderflow() || in.hasRemaining()) {
                return false;
            }
        }
        return true;
    }
}

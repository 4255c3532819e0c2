package io.tetradb.mongo.bson;

import org.bson.ByteBuf;
import org.bson.io.ByteBufferBsonInput;

import java.util.Arrays;

/**
 * org.mongodb:bson's input over a heap buffer whose C strings (element names, as {@code BsonBinaryReader.readBsonType}
 * reads them) come from a small per-thread cache of the strings the library decoded before for the same bytes: the
 * documents of an insert repeat the same few names, and each name read was a byte array, a UTF-8 decode and a String
 * (mongo-encode). A miss, a name longer than {@link #MAX_CACHED} bytes and a string with no terminator before the
 * buffer's end are read by the library itself (with its errors); a hit skips the bytes the library would have read
 * and returns the String it gave for them, so the reader sees exactly what it would have seen.
 */
public final class CachedNamesBsonInput extends ByteBufferBsonInput {
    /** Each thread's names of the commands it decodes (their keys repeat from one request to the next). */
    private static final ThreadLocal<Names> COMMAND_NAMES = ThreadLocal.withInitial(() -> new Names(128));

    /**
     * An input over {@code bytes} (a heap buffer, position to limit: one BSON document) whose element names come from
     * this thread's cache of command names: a driver's command repeats the same names ({@code find}, {@code filter},
     * {@code lsid}, {@code $db}, …) in every request.
     */
    public static CachedNamesBsonInput forCommand(java.nio.ByteBuffer bytes) {
        return new CachedNamesBsonInput(new org.bson.ByteBufNIO(bytes), COMMAND_NAMES.get());
    }

    /** Longer names are not cached (an insert's names are short; a cache slot holds a copy of the bytes). */
    static final int MAX_CACHED = 64;

    /** A direct-mapped cache of decoded C strings; one per thread (not thread-safe). */
    static final class Names {
        /** A short name's bytes (up to 7) as one little-endian number, and its length (-1: empty slot). */
        private final long[] words;
        private final int[] lengths;
        /** A longer name's bytes. */
        private final byte[][] bytes;
        private final boolean[] asciis;
        private final String[] strings;
        private final int mask;

        Names(int slots) {
            if (Integer.bitCount(slots) != 1) {
                throw new IllegalArgumentException("slots must be a power of two: " + slots);
            }
            words = new long[slots];
            lengths = new int[slots];
            Arrays.fill(lengths, -1);
            bytes = new byte[slots][];
            asciis = new boolean[slots];
            strings = new String[slots];
            mask = slots - 1;
        }

        private int slot(long word, int n) {
            long h = (word ^ n) * 0x9E3779B97F4A7C15L;
            return (int) (h >>> 40) & mask;
        }
    }

    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final java.lang.invoke.VarHandle LONGS = java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
            long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    private final byte[] array;
    private final int base;
    private final int end;
    private final Names names;
    /** Whether the last C string read was all ASCII bytes (then its String has one char per byte). */
    private boolean lastAscii;

    /**
     * @param buf   the document's bytes, a heap buffer ({@code buf.asNIO().hasArray()})
     * @param names this thread's cache
     */
    CachedNamesBsonInput(ByteBuf buf, Names names) {
        super(buf);
        java.nio.ByteBuffer nio = buf.asNIO();
        this.array = nio.array();
        this.base = nio.arrayOffset();
        this.end = nio.arrayOffset() + nio.limit();
        this.names = names;
    }

    /** The heap array under the document. */
    byte[] array() {
        return array;
    }

    /** The input's position as an index into {@link #array()}. */
    int arrayPosition() {
        return base + getPosition();
    }

    /**
     * Whether the C string last read (the element name {@code readBsonType} just read) is all ASCII, so its bytes,
     * ending right before the input's position with their NUL, are its String's chars one for one; false when not
     * known.
     */
    boolean lastCStringAscii() {
        return lastAscii;
    }

    @Override
    public String readCString() {
        lastAscii = false;
        int from = base + getPosition();
        if (from + 8 > end) { // the document's last bytes: the library reads them (and raises its errors)
            return library(from);
        }
        byte[] a = array;
        long word = (long) LONGS.get(a, from);
        // the lowest byte whose high bit is set here is the first zero byte (eight bytes at a time, as the library)
        long zeros = (word - ONES) & ~word & HIGHS;
        Names c = names;
        if (zeros != 0) { // a name of up to 7 bytes: compared as one number
            int n = Long.numberOfTrailingZeros(zeros) >>> 3;
            long key = word & ((1L << (n << 3)) - 1);
            lastAscii = (key & HIGHS) == 0;
            int slot = c.slot(key, n);
            if (c.lengths[slot] == n && c.words[slot] == key) {
                skip(n + 1);
                return c.strings[slot];
            }
            String s = super.readCString();
            c.words[slot] = key;
            c.lengths[slot] = n;
            c.bytes[slot] = null;
            c.strings[slot] = s;
            return s;
        }
        int n = 8;
        int limit = Math.min(end, from + MAX_CACHED);
        while (from + n < limit && a[from + n] != 0) {
            n++;
        }
        if (from + n == limit) { // too long to cache, or no terminator: the library reads it (with its errors)
            return library(from);
        }
        int slot = c.slot(word, n);
        byte[] cached = c.bytes[slot];
        if (cached != null && Arrays.equals(cached, 0, cached.length, a, from, from + n)) {
            skip(n + 1);
            lastAscii = c.asciis[slot];
            return c.strings[slot];
        }
        String s = library(from);
        boolean ascii = lastAscii;
        c.words[slot] = 0;
        c.lengths[slot] = -1;
        c.bytes[slot] = Arrays.copyOfRange(a, from, from + n);
        c.asciis[slot] = ascii;
        c.strings[slot] = s;
        lastAscii = ascii;
        return s;
    }

    /** The C string at {@code from} as the library reads it, noting whether its bytes were all ASCII. */
    private String library(int from) {
        String s = super.readCString();
        int to = base + getPosition() - 1; // its NUL
        boolean ascii = true;
        for (int i = from; i < to; i++) {
            ascii &= array[i] >= 0;
        }
        lastAscii = ascii;
        return s;
    }
}

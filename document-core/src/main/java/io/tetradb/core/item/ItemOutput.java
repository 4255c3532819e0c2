package io.tetradb.core.item;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.value.BinaryDataNode;
import io.tetradb.core.value.DateTimeNode;
import io.tetradb.core.value.Decimal128Node;
import io.tetradb.core.value.ObjectIdNode;
import io.tetradb.core.value.RegexNode;
import io.tetradb.core.value.TimestampNode;
import io.tetradb.core.value.UuidNode;
import io.tetradb.core.value.ValueType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;

import static io.tetradb.core.item.BinaryItemFormat.*;

/**
 * The output both TB1 writers write through (core-read: {@link BinaryItemWriter} from a tree,
 * {@link BinaryItemStreamWriter} from events had each their own copy): a growing buffer, the format's primitives
 * (varints, fixed-width numbers, UTF-8 strings with lone surrogates kept), every scalar of the value model, and the
 * key order of an object's field table. The containers' headers are each writer's own (one writes a tree's known
 * sizes up front, the other moves entries up when an event closes a container). Not thread-safe.
 */
abstract class ItemOutput {
    byte[] buf;
    int len;

    ItemOutput(int initialCapacity) {
        this.buf = new byte[Math.max(16, initialCapacity)];
    }

    // ---- scalars of the value model

    /**
     * Writes {@code v}, a scalar of {@code type}, and returns true; returns false (nothing written) for an array, an
     * object or undefined, which the writer handles.
     */
    final boolean scalar(ValueType type, JsonNode v) {
        switch (type) {
            case NULL -> put(NULL);
            case BOOLEAN -> put(v.booleanValue() ? TRUE : FALSE);
            case INT32 -> fixed32(INT32, v.intValue());
            case INT64 -> fixed64(INT64, v.longValue());
            case DOUBLE -> fixed64(DOUBLE, Double.doubleToRawLongBits(v.doubleValue()));
            case FLOAT -> fixed32(FLOAT, Float.floatToRawIntBits(v.floatValue()));
            case BIG_INTEGER -> putBigInteger(v.bigIntegerValue());
            case BIG_DECIMAL -> putDecimal(BIG_DECIMAL, v.decimalValue());
            case DECIMAL128 -> {
                if (v instanceof Decimal128Node) {
                    putDecimal(DECIMAL128, v.decimalValue());
                } else {
                    double d = v.doubleValue();
                    putDecimal128Special(Double.isNaN(d) ? 0 : d > 0 ? 1 : 2);
                }
            }
            case STRING -> putString(v.textValue());
            case DATE_TIME -> {
                DateTimeNode d = (DateTimeNode) v;
                putDateTime(d.ticks(), d.hasOffset() ? d.offsetMinutes() : DateTimeNode.NO_OFFSET);
            }
            case BINARY -> putBinary(((BinaryDataNode) v).subtype(), ((BinaryDataNode) v).bytes());
            case OBJECT_ID -> putObjectId(((ObjectIdNode) v).bytes());
            case UUID -> {
                java.util.UUID u = ((UuidNode) v).uuid();
                putUuid(u.getMostSignificantBits(), u.getLeastSignificantBits());
            }
            case TIMESTAMP -> fixed64(TIMESTAMP, ((TimestampNode) v).value());
            case REGEX -> putRegex(((RegexNode) v).pattern(), ((RegexNode) v).options());
            case MIN_KEY -> put(MIN_KEY);
            case MAX_KEY -> put(MAX_KEY);
            default -> {
                return false;
            }
        }
        return true;
    }

    final void fixed32(int tag, int v) {
        ensure(5);
        buf[len++] = (byte) tag;
        Bytes.putI32(buf, len, v);
        len += 4;
    }

    final void fixed64(int tag, long v) {
        ensure(9);
        buf[len++] = (byte) tag;
        Bytes.putI64(buf, len, v);
        len += 8;
    }

    final void putBigInteger(BigInteger v) {
        put(BIG_INTEGER);
        bytes(v.toByteArray());
    }

    /** A BigDecimal or Decimal128: zigzag scale, unscaled bytes. */
    final void putDecimal(int tag, BigDecimal d) {
        put(tag);
        int scale = d.scale();
        varint((scale << 1) ^ (scale >> 31));
        bytes(d.unscaledValue().toByteArray());
    }

    /** Decimal128 NaN (0), +Infinity (1) or -Infinity (2). */
    final void putDecimal128Special(int kind) {
        put(DECIMAL128_SPECIAL);
        put(kind);
    }

    final void putString(String s) {
        put(STRING);
        utf8(s);
    }

    /** 100 ns ticks since 1970 UTC; {@code offsetMinutes} {@code DateTimeNode.NO_OFFSET} when there is none. */
    final void putDateTime(long ticks, int offsetMinutes) {
        boolean offset = offsetMinutes != DateTimeNode.NO_OFFSET;
        fixed64(offset ? DATE_TIME_OFFSET : DATE_TIME, ticks);
        if (offset) {
            ensure(2);
            Bytes.putI16(buf, len, offsetMinutes);
            len += 2;
        }
    }

    final void putBinary(int subtype, byte[] bytes) {
        put(BINARY);
        put(subtype);
        bytes(bytes);
    }

    final void putObjectId(byte[] twelve) {
        ensure(13);
        buf[len++] = OBJECT_ID;
        System.arraycopy(twelve, 0, buf, len, 12);
        len += 12;
    }

    /** A UUID as its two halves, big-endian. */
    final void putUuid(long mostSignificant, long leastSignificant) {
        ensure(17);
        buf[len++] = (byte) BinaryItemFormat.UUID;
        putBigEndian(mostSignificant);
        putBigEndian(leastSignificant);
    }

    final void putRegex(String pattern, String options) {
        put(REGEX);
        utf8(pattern);
        utf8(options);
    }

    private void putBigEndian(long v) {
        for (int i = 0; i < 8; i++) {
            buf[len++] = (byte) (v >>> (56 - 8 * i));
        }
    }

    // ---- strings

    /** Strings at least this long are checked for ASCII by the JDK's encoder rather than char by char. */
    static final int LONG_STRING = 24;

    /**
     * item-copies: long ASCII strings copied without an array per string. One per thread, not per writer: a one-off
     * writer ({@link BinaryItemWriter#encode}) would otherwise make one per item; fetched per string, never kept,
     * since a writer may pass from one thread to another.
     */
    private static final ThreadLocal<AsciiEncoder> ASCII = ThreadLocal.withInitial(AsciiEncoder::new);

    /**
     * varint length · UTF-8, written straight into the buffer (item-copies: no array per string). ASCII, the common
     * case, is copied as it is; anything else is encoded by {@link Utf8#encodeInto} (a lone surrogate in its 3-byte
     * form, as {@link Utf8#encode} always wrote it), so the bytes are those of {@code bytes(Utf8.encode(s))}.
     */
    final void utf8(String s) {
        int n = s.length();
        if (n >= LONG_STRING ? asciiCopied(s, n) : asciiLooped(s, n)) {
            return;
        }
        long most = 3L * n; // UTF-8 takes 1 to 3 bytes per UTF-16 unit (4 per surrogate pair)
        if (most > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("a string of " + n + " characters is too long to store");
        }
        int room = varintLength((int) most); // the longest the length can take; moved down below when shorter
        ensure(room + (int) most);
        int from = len + room;
        int bytes = Utf8.encodeInto(s, buf, from) - from;
        int lengthBytes = varintLength(bytes);
        if (lengthBytes != room) {
            System.arraycopy(buf, from, buf, len + lengthBytes, bytes);
        }
        len = writeVarint(len, bytes) + bytes;
    }

    /**
     * A short string: written char by char when it is ASCII (true); else false, nothing counted written. The chars
     * are or-ed and checked once after the loop (tb1-strings): a loop without an exit ran 7–26 ns for 6–30 chars
     * against 12–43 with an exit per char (a micro on this machine); a non-ASCII string, rare, is then written again.
     */
    private boolean asciiLooped(String s, int n) {
        int lengthBytes = varintLength(n);
        ensure(lengthBytes + n);
        int at = len + lengthBytes;
        byte[] b = buf;
        int seen = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            b[at + i] = (byte) c;
            seen |= c;
        }
        if (seen >= 0x80) {
            return false;
        }
        len = writeVarint(len, n) + n;
        return true;
    }

    /**
     * core-write, item-copies: a long string, copied as its bytes when it is ASCII (true); else false, nothing counted
     * written. The char loop costs ~1 ns a char (a 1 KiB item's filler was a sixth of a batched create's Java); the
     * JDK's vectorised copies do it in a fraction, and since item-copies without the array {@code getBytes} made.
     */
    private boolean asciiCopied(String s, int n) {
        int lengthBytes = varintLength(n);
        ensure(lengthBytes + n);
        if (!ASCII.get().copy(s, n, buf, len + lengthBytes)) {
            return false;
        }
        len = writeVarint(len, n) + n;
        return true;
    }

    /** varint length · the UTF-8 bytes {@code utf8[off, off+n)} as given. */
    final void utf8(byte[] utf8, int off, int n) {
        varint(n);
        ensure(n);
        System.arraycopy(utf8, off, buf, len, n);
        len += n;
    }

    // ---- the key order of field tables

    /**
     * The first 8 bytes of the key written at {@code at} (varint length · UTF-8), big-endian, zero-padded: prefixes
     * ordered as unsigned numbers order the keys as their bytes do, except on a tie (then the whole keys decide).
     */
    static long keyPrefix(byte[] buf, int at) {
        long kv = BinaryItemReader.varintAt(buf, at);
        int from = (int) (kv >>> 32);
        int n = (int) kv;
        if (n >= 8) {
            return Long.reverseBytes(Bytes.i64(buf, from));
        }
        if (n == 0) {
            return 0;
        }
        if (from + 8 <= buf.length) { // the bytes past the key are masked off
            return Long.reverseBytes(Bytes.i64(buf, from)) & (-1L << (64 - 8 * n));
        }
        long prefix = 0;
        for (int i = 0; i < n; i++) {
            prefix |= (buf[from + i] & 0xFFL) << (56 - 8 * i);
        }
        return prefix;
    }

    /** Compares the keys written at {@code a} and {@code b} (varint length · UTF-8) by unsigned bytes. */
    final int compareKeys(int a, int b) {
        long ka = BinaryItemReader.varintAt(buf, a);
        long kb = BinaryItemReader.varintAt(buf, b);
        int sa = (int) (ka >>> 32);
        int sb = (int) (kb >>> 32);
        return Arrays.compareUnsigned(buf, sa, sa + (int) ka, buf, sb, sb + (int) kb);
    }

    // ---- bytes

    final void bytes(byte[] b) {
        varint(b.length);
        ensure(b.length);
        System.arraycopy(b, 0, buf, len, b.length);
        len += b.length;
    }

    final void varint(int v) {
        ensure(5);
        len = writeVarint(len, v);
    }

    final int writeVarint(int at, int v) {
        while ((v & ~0x7F) != 0) {
            buf[at++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[at++] = (byte) v;
        return at;
    }

    static int varintLength(int v) {
        return (v & ~0x7F) == 0 ? 1 : (v & ~0x3FFF) == 0 ? 2 : (v & ~0x1FFFFF) == 0 ? 3 : (v & ~0xFFFFFFF) == 0 ? 4 : 5;
    }

    final void put(int b) {
        ensure(1);
        buf[len++] = (byte) b;
    }

    final void ensure(int n) {
        if (len + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
        }
    }
}

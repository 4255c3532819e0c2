package io.tetradb.core.item;

import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.value.BinaryDataNode;
import io.tetradb.core.value.DateTimeNode;
import io.tetradb.core.value.Decimal128Node;
import io.tetradb.core.value.MaxKeyNode;
import io.tetradb.core.value.MinKeyNode;
import io.tetradb.core.value.ObjectIdNode;
import io.tetradb.core.value.RegexNode;
import io.tetradb.core.value.TimestampNode;
import io.tetradb.core.value.UuidNode;
import io.tetradb.core.value.ValueType;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.UUID;
import java.util.function.UnaryOperator;

import static io.tetradb.core.item.BinaryItemFormat.*;

/**
 * Writes typed value trees in the {@link BinaryItemFormat}. One writer reuses its buffer across items (not
 * thread-safe); {@link #encode(JsonNode)} is the one-off form.
 */
public final class BinaryItemWriter {
    private byte[] buf;
    private int len;
    /** Per object being written: entry offsets, then the sort permutation (reused, grown as needed). */
    private int[] scratch = new int[64];
    private int scratchTop;
    private final int maxDepth;
    /** How nodes outside the value model (Jackson's BinaryNode, POJONode) are stored, or null to refuse them. */
    private final UnaryOperator<JsonNode> foreign;
    /** write-cost: the index terms recorded while writing (one pass), or null. */
    private ItemTermRecorder terms;

    public BinaryItemWriter() {
        this(1024, 256);
    }

    public BinaryItemWriter(int initialCapacity, int maxDepth) {
        this(initialCapacity, maxDepth, null);
    }

    /**
     * @param foreign turns a node outside the value model into one inside it (the store gives such nodes their JSON
     *                form, as the JSON-text format always did); null refuses them
     */
    public BinaryItemWriter(int initialCapacity, int maxDepth, UnaryOperator<JsonNode> foreign) {
        this.buf = new byte[Math.max(16, initialCapacity)];
        this.maxDepth = maxDepth;
        this.foreign = foreign;
    }

    public static byte[] encode(JsonNode value) {
        return new BinaryItemWriter().write(value);
    }

    /** The encoding of {@code value} as a new array. */
    public byte[] write(JsonNode value) {
        len = 0;
        scratchTop = 0;
        value(value, 0);
        return Arrays.copyOf(buf, len);
    }

    /**
     * write-cost: the encoding of {@code value}, recording into {@code recorder} the index terms its policy asks for
     * (their offsets in the returned array), in the same pass.
     */
    public byte[] write(JsonNode value, ItemTermRecorder recorder) {
        terms = recorder;
        try {
            return write(value);
        } finally {
            terms = null;
        }
    }

    /** Writes {@code value} after {@code prefix} (an item header) into one new array. */
    public byte[] write(byte[] prefix, JsonNode value) {
        len = 0;
        scratchTop = 0;
        ensure(prefix.length);
        System.arraycopy(prefix, 0, buf, 0, prefix.length);
        len = prefix.length;
        value(value, 0);
        return Arrays.copyOf(buf, len);
    }

    private void value(JsonNode v, int depth) {
        ValueType type;
        try {
            type = ValueType.of(v);
        } catch (IllegalArgumentException outsideTheModel) {
            if (foreign == null) {
                throw outsideTheModel;
            }
            value(foreign.apply(v), depth);
            return;
        }
        int at = len;
        switch (type) {
            case NULL -> put(NULL);
            case BOOLEAN -> put(v.booleanValue() ? TRUE : FALSE);
            case INT32 -> {
                ensure(5);
                buf[len++] = INT32;
                Bytes.putI32(buf, len, v.intValue());
                len += 4;
            }
            case INT64 -> fixed64(INT64, v.longValue());
            case DOUBLE -> fixed64(DOUBLE, Double.doubleToRawLongBits(v.doubleValue()));
            case FLOAT -> {
                ensure(5);
                buf[len++] = FLOAT;
                Bytes.putI32(buf, len, Float.floatToRawIntBits(v.floatValue()));
                len += 4;
            }
            case BIG_INTEGER -> {
                put(BIG_INTEGER);
                bytes(v.bigIntegerValue().toByteArray());
            }
            case BIG_DECIMAL -> decimal(BIG_DECIMAL, v.decimalValue());
            case DECIMAL128 -> {
                if (v instanceof Decimal128Node) {
                    decimal(DECIMAL128, v.decimalValue());
                } else {
                    double d = v.doubleValue();
                    put(DECIMAL128_SPECIAL);
                    put(Double.isNaN(d) ? 0 : d > 0 ? 1 : 2);
                }
            }
            case STRING -> string(v.textValue());
            case ARRAY -> {
                checkDepth(depth);
                array(v, depth);
            }
            case OBJECT -> {
                checkDepth(depth);
                object(v, depth);
            }
            case DATE_TIME -> {
                DateTimeNode d = (DateTimeNode) v;
                fixed64(d.hasOffset() ? DATE_TIME_OFFSET : DATE_TIME, d.ticks());
                if (d.hasOffset()) {
                    ensure(2);
                    Bytes.putI16(buf, len, d.offsetMinutes());
                    len += 2;
                }
            }
            case BINARY -> {
                BinaryDataNode b = (BinaryDataNode) v;
                put(BINARY);
                put(b.subtype());
                bytes(b.bytes());
            }
            case OBJECT_ID -> raw(OBJECT_ID, ((ObjectIdNode) v).bytes());
            case UUID -> {
                UUID u = ((UuidNode) v).uuid();
                ensure(17);
                buf[len++] = (byte) BinaryItemFormat.UUID;
                putBigEndian(u.getMostSignificantBits());
                putBigEndian(u.getLeastSignificantBits());
            }
            case TIMESTAMP -> fixed64(TIMESTAMP, ((TimestampNode) v).value());
            case REGEX -> {
                RegexNode r = (RegexNode) v;
                put(REGEX);
                utf8(r.pattern());
                utf8(r.options());
            }
            case MIN_KEY -> put(MIN_KEY);
            case MAX_KEY -> put(MAX_KEY);
            case UNDEFINED -> throw new IllegalArgumentException("an item cannot hold an undefined value");
            default -> throw new AssertionError(v);
        }
        if (terms != null && type != ValueType.OBJECT && type != ValueType.ARRAY) {
            terms.scalar(at);
        }
    }

    /** A container at {@code depth} (the root is 0) is the {@code depth + 1}-th level of nesting. */
    private void checkDepth(int depth) {
        if (depth + 1 > maxDepth) {
            throw new IllegalArgumentException("the item is nested too deeply: more than " + maxDepth + " levels");
        }
    }

    private void object(JsonNode o, int depth) {
        int n = o.size();
        ensure(1 + 4 + 5 + 2 * n);
        buf[len++] = OBJECT;
        int sizeAt = len;
        len += 4;
        varint(n);
        int tableAt = len;
        len += 2 * n;
        int entriesAt = len;
        int base = scratchTop;
        if (scratch.length < base + 2 * n) {
            scratch = Arrays.copyOf(scratch, Math.max(scratch.length * 2, base + 2 * n));
            keyPrefixes = Arrays.copyOf(keyPrefixes, scratch.length);
        }
        scratchTop = base + 2 * n;
        int i = 0;
        ItemTermRecorder t = terms;
        int firstTerm = t == null ? 0 : t.count();
        for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); i++) {
            Map.Entry<String, JsonNode> f = it.next();
            int keyAt = len;
            scratch[base + i] = keyAt - entriesAt;
            utf8(f.getKey());
            keyPrefixes[base + i] = keyPrefix(buf, keyAt);
            if (t == null) {
                value(f.getValue(), depth + 1);
            } else {
                t.enterField(f.getKey(), depth == 0);
                value(f.getValue(), depth + 1);
                t.leaveField();
            }
        }
        // the sort permutation by key bytes (insertion sort: objects are mostly small and often nearly sorted); each
        // key's first 8 bytes compared as one unsigned number first, the whole keys only on a tie (core-write)
        int[] s = scratch;
        int p = base + n;
        if (sortPrefixes.length < n) {
            sortPrefixes = new long[Math.max(n, 2 * sortPrefixes.length)];
        }
        long[] sp = sortPrefixes;
        long[] kp = keyPrefixes;
        for (int k = 0; k < n; k++) {
            int off = s[base + k];
            long pk = kp[base + k];
            int j = k;
            while (j > 0) {
                int c = Long.compareUnsigned(sp[j - 1], pk);
                if (c < 0 || (c == 0 && compareKeys(entriesAt + s[p + j - 1], entriesAt + off) <= 0)) {
                    break;
                }
                s[p + j] = s[p + j - 1];
                sp[j] = sp[j - 1];
                j--;
            }
            s[p + j] = off;
            sp[j] = pk;
        }
        int entriesLength = len - entriesAt;
        if (entriesLength > 0xFFFF) {
            // widen the table to u32 offsets: move the entries up by 2n bytes
            ensure(2 * n);
            System.arraycopy(buf, entriesAt, buf, entriesAt + 2 * n, entriesLength);
            len += 2 * n;
            if (t != null) {
                t.shift(firstTerm, 2 * n); // the terms' values moved with the entries
            }
            buf[sizeAt - 1] = OBJECT_WIDE;
            for (int k = 0; k < n; k++) {
                Bytes.putI32(buf, tableAt + 4 * k, s[p + k]);
            }
        } else {
            for (int k = 0; k < n; k++) {
                Bytes.putI16(buf, tableAt + 2 * k, s[p + k]);
            }
        }
        Bytes.putI32(buf, sizeAt, len - sizeAt - 4);
        scratchTop = base;
    }

    /** Per entry of the objects being written (parallel to {@link #scratch}): its key's {@link #keyPrefix}. */
    private long[] keyPrefixes = new long[64];
    /** The prefixes in sorted order while one object's permutation is sorted. */
    private long[] sortPrefixes = new long[16];

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
        long prefix = 0;
        for (int i = 0; i < n; i++) {
            prefix |= (buf[from + i] & 0xFFL) << (56 - 8 * i);
        }
        return prefix;
    }

    /** Compares the keys written at {@code a} and {@code b} (varint length · UTF-8) by unsigned bytes. */
    private int compareKeys(int a, int b) {
        long ka = BinaryItemReader.varintAt(buf, a);
        long kb = BinaryItemReader.varintAt(buf, b);
        int la = (int) ka;
        int lb = (int) kb;
        int sa = (int) (ka >>> 32);
        int sb = (int) (kb >>> 32);
        return Arrays.compareUnsigned(buf, sa, sa + la, buf, sb, sb + lb);
    }

    private void array(JsonNode a, int depth) {
        ensure(1 + 4 + 5);
        buf[len++] = ARRAY;
        int sizeAt = len;
        len += 4;
        varint(a.size());
        if (terms != null) {
            terms.enterArray();
        }
        for (JsonNode e : a) {
            value(e, depth + 1);
        }
        if (terms != null) {
            terms.leaveArray();
        }
        Bytes.putI32(buf, sizeAt, len - sizeAt - 4);
    }

    private void decimal(int tag, BigDecimal d) {
        put(tag);
        int scale = d.scale();
        varint((scale << 1) ^ (scale >> 31));
        bytes(d.unscaledValue().toByteArray());
    }

    private void string(String s) {
        put(STRING);
        utf8(s);
    }

    /** Strings at least this long are checked for ASCII by the JDK's encoder rather than char by char. */
    static final int LONG_STRING = 24;

    /** varint length · UTF-8; ASCII (the common case) written straight into the buffer without a copy. */
    private void utf8(String s) {
        int n = s.length();
        int lengthBytes = n < (1 << 7) ? 1 : n < (1 << 14) ? 2 : n < (1 << 21) ? 3 : n < (1 << 28) ? 4 : 5;
        ensure(lengthBytes + n);
        int at = len + lengthBytes;
        if (n >= LONG_STRING && asciiCopied(s, n, at)) {
            varint(n);
            len += n;
            return;
        }
        int i = 0;
        byte[] b = buf;
        while (i < n) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                break;
            }
            b[at + i] = (byte) c;
            i++;
        }
        if (i == n) {
            varint(n);
            len += n;
            return;
        }
        bytes(Utf8.encode(s));
    }

    /**
     * core-write: copies a long ASCII string's bytes to {@code at} and returns true, or returns false (nothing
     * promised about {@code buf[at..]}). The JDK encodes a Latin-1 string to UTF-8 with one vectorised check and one
     * copy, where the char loop costs ~1 ns a char (a 1 KiB item's filler was a sixth of a batched create's Java).
     * Its output is the string's bytes exactly when it has one byte per char and holds no '?': every other char takes
     * two or more bytes, except a lone surrogate, which the JDK replaces by '?' (this store keeps it, {@link Utf8}).
     */
    private boolean asciiCopied(String s, int n, int at) {
        byte[] u = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        if (u.length != n || holdsQuestionMark(u)) {
            return false;
        }
        System.arraycopy(u, 0, buf, at, n);
        return true;
    }

    /** True when {@code u} holds the byte '?' (eight bytes at a time: a zero byte of {@code word ^ '?'*8}). */
    private static boolean holdsQuestionMark(byte[] u) {
        int i = 0;
        for (; i + 8 <= u.length; i += 8) {
            long x = Bytes.i64(u, i) ^ 0x3F3F3F3F3F3F3F3FL;
            if (((x - 0x0101010101010101L) & ~x & 0x8080808080808080L) != 0) {
                return true;
            }
        }
        for (; i < u.length; i++) {
            if (u[i] == '?') {
                return true;
            }
        }
        return false;
    }

    private void bytes(byte[] b) {
        varint(b.length);
        ensure(b.length);
        System.arraycopy(b, 0, buf, len, b.length);
        len += b.length;
    }

    private void raw(int tag, byte[] b) {
        ensure(1 + b.length);
        buf[len++] = (byte) tag;
        System.arraycopy(b, 0, buf, len, b.length);
        len += b.length;
    }

    private void fixed64(int tag, long v) {
        ensure(9);
        buf[len++] = (byte) tag;
        Bytes.putI64(buf, len, v);
        len += 8;
    }

    private void putBigEndian(long v) {
        for (int i = 0; i < 8; i++) {
            buf[len++] = (byte) (v >>> (56 - 8 * i));
        }
    }

    private void varint(int v) {
        ensure(5);
        while ((v & ~0x7F) != 0) {
            buf[len++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[len++] = (byte) v;
    }

    private void put(int b) {
        ensure(1);
        buf[len++] = (byte) b;
    }

    private void ensure(int n) {
        if (len + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
        }
    }
}

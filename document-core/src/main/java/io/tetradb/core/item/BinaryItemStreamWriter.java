package io.tetradb.core.item;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;

import static io.tetradb.core.item.BinaryItemFormat.*;

/**
 * Writes the {@link BinaryItemFormat} from a stream of events (a JSON parser's tokens, a BSON reader's elements)
 * instead of a tree: the bytes are exactly what {@link BinaryItemWriter} writes for the tree those events build. A
 * container's header (size, count, field table) is only known at its end, so its entries are written first and moved
 * up by the header's length when it closes. A repeated field name in one object is refused
 * ({@link DuplicateFieldException}): a tree keeps one of them, so the caller decides (the faces fall back to their
 * tree). Not thread-safe; reusable after {@link #reset()}.
 */
public final class BinaryItemStreamWriter extends ItemOutput {
    /** Two fields of one object have the same name. */
    public static final class DuplicateFieldException extends IllegalArgumentException {
        public DuplicateFieldException(String message) {
            super(message);
        }
    }

    private final int maxDepth;
    /** Open containers: where each one's tag is, and where its key offsets start in {@link #keys}. */
    private int[] tagAt = new int[16];
    private int[] keysFrom = new int[16];
    private int[] counts = new int[16];
    private int depth;
    /** Offsets (from the object's first entry) of the keys of every open object, innermost last. */
    private int[] keys = new int[64];
    private int keysTop;
    /**
     * Whether a name of the outermost object was a system property's ({@link SystemNames}): noted as it is written, so
     * the store needs no lookup in the bytes to know whether it must drop one (mongo-encode).
     */
    private boolean topLevelSystemName;

    public BinaryItemStreamWriter(int initialCapacity, int maxDepth) {
        super(initialCapacity);
        this.maxDepth = maxDepth;
    }

    public void reset() {
        len = 0;
        depth = 0;
        keysTop = 0;
        topLevelSystemName = false;
    }

    /**
     * Whether a field of the outermost object written since {@link #reset()} is named as a system property
     * ({@code _rid _self _etag _attachments _ts}), which the store drops from a user's item.
     */
    public boolean wroteTopLevelSystemName() {
        return topLevelSystemName;
    }

    /** The value written (one complete value) as a new array. */
    public byte[] toByteArray() {
        if (depth != 0) {
            throw new IllegalStateException("a container is still open");
        }
        return Arrays.copyOf(buf, len);
    }

    /**
     * insert-frame (issue 17): the value written (one complete value) as a new array of {@code header ·} the value
     * {@code ·} {@code room} zero bytes: a frame ({@link StoredItems#isFrame}) the store finishes in place, so this is
     * the item's only copy out of the writer.
     */
    public byte[] toFrame(byte[] header, int room) {
        if (depth != 0) {
            throw new IllegalStateException("a container is still open");
        }
        byte[] out = new byte[header.length + len + room];
        System.arraycopy(header, 0, out, 0, header.length);
        System.arraycopy(buf, 0, out, header.length, len);
        return out;
    }

    public int size() {
        return len;
    }

    // ---- containers

    public void startObject() {
        open(OBJECT);
    }

    public void startArray() {
        open(ARRAY);
    }

    private void open(int tag) {
        if (depth + 1 > maxDepth) {
            throw new IllegalArgumentException("the item is nested too deeply: more than " + maxDepth + " levels");
        }
        value();
        if (depth == tagAt.length) {
            tagAt = Arrays.copyOf(tagAt, depth * 2);
            keysFrom = Arrays.copyOf(keysFrom, depth * 2);
            counts = Arrays.copyOf(counts, depth * 2);
        }
        put(tag);
        tagAt[depth] = len - 1;
        keysFrom[depth] = keysTop;
        counts[depth] = 0;
        depth++;
    }

    /** The next field's name (inside an object, before its value). */
    public void name(String name) {
        key();
        if (depth == 1 && SystemNames.is(name)) {
            topLevelSystemName = true;
        }
        utf8(name);
    }

    /** The next field's name as UTF-8 bytes. */
    public void name(byte[] utf8, int off, int n) {
        key();
        if (depth == 1 && SystemNames.is(utf8, off, n)) {
            topLevelSystemName = true;
        }
        utf8(utf8, off, n);
    }

    private void key() {
        int d = depth - 1;
        if (d < 0 || buf[tagAt[d]] != OBJECT) {
            throw new IllegalStateException("a field name outside an object");
        }
        if (keysTop == keys.length) {
            keys = Arrays.copyOf(keys, keysTop * 2);
        }
        keys[keysTop++] = len - (tagAt[d] + 1);
        counts[d]++;
    }

    /** Counts an element of an open array (a field's value was counted with its name). */
    private void value() {
        if (depth > 0 && buf[tagAt[depth - 1]] == ARRAY) {
            counts[depth - 1]++;
        }
    }

    public void endArray() {
        int d = --depth;
        int start = tagAt[d] + 1;
        int n = counts[d];
        int header = 4 + varintLength(n);
        shift(start, header);
        Bytes.putI32(buf, start, len - start - 4);
        writeVarint(start + 4, n);
    }

    public void endObject() {
        int d = --depth;
        int start = tagAt[d] + 1; // entries start here until the header moves them
        int n = counts[d];
        int base = keysFrom[d];
        keysTop = base;
        int entriesLength = len - start;
        boolean wide = entriesLength > 0xFFFF;
        int width = wide ? 4 : 2;
        // the sort permutation of the keys by their bytes (insertion sort: stable, as the tree writer's); each key's
        // first 8 bytes compared as one unsigned number first, the bytes only on a tie (mongo-net)
        // a fresh array, not a scratch field: a field here cost ≈ 0.4 µs per 1 KB document (EncodeCpuProbe), the JIT
        // no longer knowing the order array apart from the key offsets it is read with
        int[] order = new int[n];
        if (prefixes.length < n) {
            prefixes = new long[Math.max(n, 2 * prefixes.length)];
        }
        long[] pre = prefixes;
        for (int k = 0; k < n; k++) {
            int off = keys[base + k];
            long p = keyPrefix(buf, start + off);
            int j = k;
            while (j > 0 && compareKeys(pre[j - 1], start + order[j - 1], p, start + off) > 0) {
                order[j] = order[j - 1];
                pre[j] = pre[j - 1];
                j--;
            }
            order[j] = off;
            pre[j] = p;
        }
        for (int k = 1; k < n; k++) {
            if (pre[k - 1] == pre[k] && compareKeys(start + order[k - 1], start + order[k]) == 0) {
                throw new DuplicateFieldException("the field name '" + keyText(start + order[k])
                        + "' appears twice in one object");
            }
        }
        int header = 4 + varintLength(n) + width * n;
        shift(start, header);
        if (wide) {
            buf[tagAt[d]] = OBJECT_WIDE;
        }
        Bytes.putI32(buf, start, len - start - 4);
        int tableAt = writeVarint(start + 4, n);
        for (int k = 0; k < n; k++) {
            if (wide) {
                Bytes.putI32(buf, tableAt + 4 * k, order[k]);
            } else {
                Bytes.putI16(buf, tableAt + 2 * k, order[k]);
            }
        }
    }

    private String keyText(int at) {
        long kv = BinaryItemReader.varintAt(buf, at);
        return Utf8.decode(buf, (int) (kv >>> 32), (int) kv);
    }

    /** Key prefixes of the object being closed (scratch for {@link #endObject}). */
    private long[] prefixes = new long[16];

    private int compareKeys(long prefixA, int a, long prefixB, int b) {
        int c = Long.compareUnsigned(prefixA, prefixB);
        return c != 0 ? c : compareKeys(a, b);
    }

    /** Moves {@code [from, len)} up by {@code by} bytes. */
    private void shift(int from, int by) {
        ensure(by);
        System.arraycopy(buf, from, buf, from + by, len - from);
        len += by;
    }

    // ---- scalars

    public void nullValue() {
        value();
        put(NULL);
    }

    public void bool(boolean v) {
        value();
        put(v ? TRUE : FALSE);
    }

    public void int32(int v) {
        value();
        fixed32(INT32, v);
    }

    public void int64(long v) {
        value();
        fixed64(INT64, v);
    }

    public void float64(double v) {
        value();
        fixed64(DOUBLE, Double.doubleToRawLongBits(v));
    }

    public void float32(float v) {
        value();
        fixed32(FLOAT, Float.floatToRawIntBits(v));
    }

    public void bigInteger(BigInteger v) {
        value();
        putBigInteger(v);
    }

    public void bigDecimal(BigDecimal v) {
        value();
        putDecimal(BIG_DECIMAL, v);
    }

    public void decimal128(BigDecimal v) {
        value();
        putDecimal(DECIMAL128, v);
    }

    /** Decimal128 NaN (0), +Infinity (1) or -Infinity (2). */
    public void decimal128Special(int kind) {
        value();
        putDecimal128Special(kind);
    }

    public void string(String s) {
        value();
        putString(s);
    }

    /** A string given as UTF-16 units (a JSON parser's text buffer): no String made. */
    public void string(char[] chars, int off, int n) {
        value();
        put(STRING);
        ensure(5 + 3 * n);
        int lengthAt = len;
        int at = len + 5; // room for the longest varint; moved down below when shorter
        for (int i = off; i < off + n; i++) {
            char c = chars[i];
            if (c < 0x80) {
                buf[at++] = (byte) c;
            } else if (c < 0x800) {
                buf[at++] = (byte) (0xC0 | (c >>> 6));
                buf[at++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < off + n && Character.isLowSurrogate(chars[i + 1])) {
                int cp = Character.toCodePoint(c, chars[++i]);
                buf[at++] = (byte) (0xF0 | (cp >>> 18));
                buf[at++] = (byte) (0x80 | ((cp >>> 12) & 0x3F));
                buf[at++] = (byte) (0x80 | ((cp >>> 6) & 0x3F));
                buf[at++] = (byte) (0x80 | (cp & 0x3F));
            } else {
                buf[at++] = (byte) (0xE0 | (c >>> 12));
                buf[at++] = (byte) (0x80 | ((c >>> 6) & 0x3F));
                buf[at++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        int bytes = at - (lengthAt + 5);
        int vl = varintLength(bytes);
        System.arraycopy(buf, lengthAt + 5, buf, lengthAt + vl, bytes);
        writeVarint(lengthAt, bytes);
        len = lengthAt + vl + bytes;
    }

    /** A string given as its UTF-8 bytes (well-formed, or a lone surrogate in its 3-byte form). */
    public void string(byte[] utf8, int off, int n) {
        value();
        put(STRING);
        utf8(utf8, off, n);
    }

    /** 100 ns ticks since 1970 UTC; {@code offsetMinutes} {@code DateTimeNode.NO_OFFSET} when there is none. */
    public void dateTime(long ticks, int offsetMinutes) {
        value();
        putDateTime(ticks, offsetMinutes);
    }

    public void binary(int subtype, byte[] bytes) {
        value();
        putBinary(subtype, bytes);
    }

    public void objectId(byte[] twelve) {
        value();
        putObjectId(twelve);
    }

    public void uuid(long mostSignificant, long leastSignificant) {
        value();
        putUuid(mostSignificant, leastSignificant);
    }

    public void timestamp(long v) {
        value();
        fixed64(TIMESTAMP, v);
    }

    public void regex(String pattern, String options) {
        value();
        putRegex(pattern, options);
    }

    public void minKey() {
        value();
        put(MIN_KEY);
    }

    public void maxKey() {
        value();
        put(MAX_KEY);
    }

    /** A whole value of the typed model given as a tree (a face's typed scalar, or a container). */
    public void value(com.fasterxml.jackson.databind.JsonNode v) {
        io.tetradb.core.value.ValueType type = io.tetradb.core.value.ValueType.of(v);
        switch (type) {
            case ARRAY -> {
                startArray();
                for (com.fasterxml.jackson.databind.JsonNode e : v) {
                    value(e);
                }
                endArray();
            }
            case OBJECT -> {
                startObject();
                for (java.util.Iterator<java.util.Map.Entry<String, com.fasterxml.jackson.databind.JsonNode>> it =
                     v.fields(); it.hasNext(); ) {
                    java.util.Map.Entry<String, com.fasterxml.jackson.databind.JsonNode> f = it.next();
                    name(f.getKey());
                    value(f.getValue());
                }
                endObject();
            }
            default -> {
                if (type == io.tetradb.core.value.ValueType.UNDEFINED) {
                    throw new IllegalArgumentException("an item cannot hold " + v.getNodeType());
                }
                value();
                scalar(type, v); // core-read: the output both writers share
            }
        }
    }
}

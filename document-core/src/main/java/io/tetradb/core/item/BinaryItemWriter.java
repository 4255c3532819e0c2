package io.tetradb.core.item;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.value.ValueType;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.function.UnaryOperator;

import static io.tetradb.core.item.BinaryItemFormat.*;

/**
 * Writes typed value trees in the {@link BinaryItemFormat}. One writer reuses its buffer across items (not
 * thread-safe); {@link #encode(JsonNode)} is the one-off form. Scalars, strings and the key order are written by
 * {@link ItemOutput}, which {@link BinaryItemStreamWriter} shares.
 */
public final class BinaryItemWriter extends ItemOutput {
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
        this(initialCapacity, maxDepth, foreign, true);
    }

    private BinaryItemWriter(int initialCapacity, int maxDepth, UnaryOperator<JsonNode> foreign, boolean cacheNames) {
        super(initialCapacity);
        this.maxDepth = maxDepth;
        this.foreign = foreign;
        this.names = cacheNames ? new String[NAME_SLOTS] : null;
        this.nameBytes = cacheNames ? new byte[NAME_SLOTS][] : null;
        this.namePrefixes = cacheNames ? new long[NAME_SLOTS] : null;
    }

    /** One value by a writer of its own, which keeps no cache of names (it would be made for one item). */
    public static byte[] encode(JsonNode value) {
        return new BinaryItemWriter(1024, 256, null, false).write(value);
    }

    private static final byte[] NO_HEADER = {};

    /** The encoding of {@code value} as a new array. */
    public byte[] write(JsonNode value) {
        return write(NO_HEADER, value, null, 0);
    }

    /**
     * write-cost: the encoding of {@code value}, recording into {@code recorder} the index terms its policy asks for
     * (their offsets in the returned array), in the same pass.
     */
    public byte[] write(JsonNode value, ItemTermRecorder recorder) {
        return write(NO_HEADER, value, recorder, 0);
    }

    /** Writes {@code value} after {@code prefix} (an item header) into one new array. */
    public byte[] write(byte[] prefix, JsonNode value) {
        return write(prefix, value, null, 0);
    }

    /**
     * item-copies (issue 17): {@code header · the encoding of value · room} in one new array (the buffer's one exact
     * copy), {@code room} bytes left for what follows (a stored item's trailer, {@link StoredItems#frame}); the terms
     * {@code recorder} (or null) records have their offsets in that array. Every other entry point is this one
     * without a header, terms or room (frame-rest).
     */
    public byte[] write(byte[] header, JsonNode value, ItemTermRecorder recorder, int room) {
        start(header, recorder);
        try {
            value(value, 0);
        } finally {
            terms = null;
        }
        return Arrays.copyOf(buf, len + room);
    }

    /**
     * frame-rest (issue 17): {@link #write(byte[], JsonNode, ItemTermRecorder, int)} of a caller's item, leaving out
     * the system properties ({@link SystemNames}) it holds at its top level, as the store keeps them in the trailer:
     * the bytes of the item copied without them, noticed while its names are written instead of looked up first.
     */
    public byte[] writeItem(byte[] header, JsonNode item, ItemTermRecorder recorder, int room) {
        start(header, recorder);
        try {
            if (item instanceof ObjectNode) {
                checkDepth(0);
                object(item, 0, true);
            } else {
                value(item, 0);
            }
        } finally {
            terms = null;
        }
        return Arrays.copyOf(buf, len + room);
    }

    private void start(byte[] header, ItemTermRecorder recorder) {
        scratchTop = 0;
        len = 0;
        ensure(header.length);
        System.arraycopy(header, 0, buf, 0, header.length);
        len = header.length;
        terms = recorder;
    }

    private void value(JsonNode v, int depth) {
        // frame-rest: Jackson's common node classes by their exact class (no interface check, no virtual type
        // questions); a subclass, a typed node or null takes ValueType.of below
        Class<?> c = v == null ? null : v.getClass();
        int at = len;
        if (c == TextNode.class) {
            putString(v.textValue());
        } else if (c == ObjectNode.class) {
            checkDepth(depth);
            object(v, depth, false);
            return;
        } else if (c == IntNode.class) {
            fixed32(INT32, v.intValue());
        } else if (c == DoubleNode.class) {
            fixed64(DOUBLE, Double.doubleToRawLongBits(v.doubleValue()));
        } else if (c == LongNode.class) {
            fixed64(INT64, v.longValue());
        } else if (c == ArrayNode.class) {
            checkDepth(depth);
            array(v, depth);
            return;
        } else if (c == BooleanNode.class) {
            put(v.booleanValue() ? TRUE : FALSE);
        } else {
            typed(v, depth);
            return;
        }
        if (terms != null) {
            terms.scalar(at);
        }
    }

    /** Any other node: by its {@link ValueType}. */
    private void typed(JsonNode v, int depth) {
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
            case ARRAY -> {
                checkDepth(depth);
                array(v, depth);
            }
            case OBJECT -> {
                checkDepth(depth);
                object(v, depth, false);
            }
            case UNDEFINED -> throw new IllegalArgumentException("an item cannot hold an undefined value");
            default -> {
                if (!scalar(type, v)) { // core-read: the scalars are written by the output both writers share
                    throw new AssertionError(v);
                }
            }
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

    /** An object; {@code withoutSystemNames}: a caller's item, whose top-level system properties are left out. */
    private void object(JsonNode o, int depth, boolean withoutSystemNames) {
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
        for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (withoutSystemNames && SystemNames.is(f.getKey())) {
                continue;
            }
            scratch[base + i] = len - entriesAt;
            keyPrefixes[base + i] = name(f.getKey());
            if (t == null) {
                value(f.getValue(), depth + 1);
            } else {
                t.enterField(f.getKey(), depth == 0);
                value(f.getValue(), depth + 1);
                t.leaveField();
            }
            i++;
        }
        if (i < n) { // system properties left out: the count and the table shrink, the entries move down
            int fewer = varintLength(n) - varintLength(i) + 2 * (n - i);
            System.arraycopy(buf, entriesAt, buf, entriesAt - fewer, len - entriesAt);
            len -= fewer;
            entriesAt -= fewer;
            if (t != null) {
                t.shift(firstTerm, -fewer);
            }
            n = i;
            writeVarint(sizeAt + 4, n);
            tableAt = entriesAt - 2 * n;
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

    // ---- field names (tb1-strings, issue 17): an item's names recur item after item, so each is written from a
    // cache of its encoded bytes and key prefix instead of being encoded and its prefix read again. A name from a
    // literal or a Jackson parser (which interns names) is the same String each time: its hash is cached in it and
    // equals answers on identity. Direct-mapped, a collision replaces the slot; names over 64 bytes are not kept.

    private static final int NAME_SLOTS = 256;
    private static final int NAME_MAX = 64;
    /** The cached names by slot, or null for a writer that keeps none ({@link #encode}). */
    private final String[] names;
    private final byte[][] nameBytes;
    private final long[] namePrefixes;

    /** Writes {@code name} as a key (varint length · UTF-8) and returns its {@link #keyPrefix}. */
    private long name(String name) {
        if (names == null) {
            int at = len;
            utf8(name);
            return keyPrefix(buf, at);
        }
        int h = name.hashCode();
        int slot = (h ^ (h >>> 16)) & (NAME_SLOTS - 1);
        if (name.equals(names[slot])) {
            byte[] e = nameBytes[slot];
            int n = e.length;
            ensure(n);
            System.arraycopy(e, 0, buf, len, n);
            len += n;
            return namePrefixes[slot];
        }
        return newName(name, slot);
    }

    /** A name not in its slot: written as any string and kept there (out of line: the hit stays small to inline). */
    private long newName(String name, int slot) {
        int at = len;
        utf8(name);
        long prefix = keyPrefix(buf, at);
        if (len - at <= NAME_MAX) {
            names[slot] = name;
            nameBytes[slot] = Arrays.copyOfRange(buf, at, len);
            namePrefixes[slot] = prefix;
        }
        return prefix;
    }

    /** Per entry of the objects being written (parallel to {@link #scratch}): its key's {@link #keyPrefix}. */
    private long[] keyPrefixes = new long[64];
    /** The prefixes in sorted order while one object's permutation is sorted. */
    private long[] sortPrefixes = new long[16];

    private void array(JsonNode a, int depth) {
        ensure(1 + 4 + 5);
        buf[len++] = ARRAY;
        int sizeAt = len;
        len += 4;
        int n = a.size();
        varint(n);
        if (terms != null) {
            terms.enterArray();
        }
        for (int k = 0; k < n; k++) { // by index: no iterator to escape the compiled writer (frame-rest)
            value(a.get(k), depth + 1);
        }
        if (terms != null) {
            terms.leaveArray();
        }
        Bytes.putI32(buf, sizeAt, len - sizeAt - 4);
    }
}

package io.tetradb.core.item;

import com.fasterxml.jackson.databind.JsonNode;
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
        super(initialCapacity);
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

    /**
     * item-copies (issue 17): {@code header · the encoding of value · room} in one new array (the buffer's one exact
     * copy), {@code room} bytes left for what follows (a stored item's trailer, {@link StoredItems#frame}); the terms
     * {@code recorder} (or null) records have their offsets in that array.
     */
    public byte[] write(byte[] header, JsonNode value, ItemTermRecorder recorder, int room) {
        len = 0;
        scratchTop = 0;
        ensure(header.length);
        System.arraycopy(header, 0, buf, 0, header.length);
        len = header.length;
        terms = recorder;
        try {
            value(value, 0);
        } finally {
            terms = null;
        }
        return Arrays.copyOf(buf, len + room);
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
            case ARRAY -> {
                checkDepth(depth);
                array(v, depth);
            }
            case OBJECT -> {
                checkDepth(depth);
                object(v, depth);
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
}

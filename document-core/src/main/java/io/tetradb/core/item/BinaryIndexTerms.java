package io.tetradb.core.item;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.FloatNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import io.tetradb.core.index.CompiledIndexingPolicy;
import io.tetradb.core.index.IndexTerms;
import io.tetradb.core.value.IndexKeyEncoding;
import io.tetradb.core.value.ValueOrder;

import java.util.Arrays;
import java.util.Set;

import static io.tetradb.core.item.BinaryItemFormat.*;

/**
 * The index terms of a TB1 item read straight from its bytes: the same paths, in the same order, with the same
 * entry keys as {@link IndexTerms#ofVersion} over the item's tree ({@code BinaryIndexTermsPropertyTest} compares
 * them), without building the tree. Strings are keyed from their UTF-8 bytes (no Java string), numbers of the common
 * types from their fixed-width bytes; the rare types (big numbers, decimals, typed values) are decoded one value at
 * a time and keyed as the tree path keys them.
 */
public final class BinaryIndexTerms {
    /** Stored system properties never indexed from the item itself ({@code _ts} is added by the caller). */
    private static final Set<String> SYSTEM = Set.of("_rid", "_self", "_etag", "_attachments", "_ts");

    private BinaryIndexTerms() {
    }

    /**
     * The user fields of the TB1 object at {@code off} (system properties skipped): every scalar the policy indexes,
     * in document order, recorded as the one-pass writer records them (flat path, through an array, value offset in
     * {@code b}), for the caller to key in a loop of its own; {@code _ts} is the caller's.
     */
    public static ItemTermRecorder terms(byte[] b, int off, CompiledIndexingPolicy policy) {
        ItemTermRecorder terms = new ItemTermRecorder(policy);
        if (policy.enabled()) {
            WALKS.get().walk(b, off, IndexPathTrie.root(policy), terms);
        }
        return terms;
    }

    private static final ThreadLocal<Walk> WALKS = ThreadLocal.withInitial(Walk::new);

    /**
     * As {@link #terms}, into a recorder this thread reuses: valid until the thread's next call, so only for a caller
     * that consumes the terms at once and calls out to nothing that may call here meanwhile (the store's
     * {@code BinaryIndexEntries.of}). graph-warm (issue 18): no recorder and five arrays per item of a bulk load.
     */
    public static ItemTermRecorder reusedTerms(byte[] b, int off, CompiledIndexingPolicy policy) {
        ItemTermRecorder terms = RECORDERS.get();
        if (terms == null) {
            terms = new ItemTermRecorder(policy);
            RECORDERS.set(terms);
        } else {
            terms.reset(policy);
        }
        if (policy.enabled()) {
            WALKS.get().walk(b, off, IndexPathTrie.root(policy), terms);
        }
        return terms;
    }

    private static final ThreadLocal<ItemTermRecorder> RECORDERS = new ThreadLocal<>();

    /**
     * Graph-load5 (issue 18): the policy's answers come from its {@link IndexPathTrie} (as {@link ItemTermRecorder}
     * reads them), one node per concrete path with its flat path made once: no path list kept per field, no pattern
     * matching and no path string per field of every item; and the walk only records each term (no callback keying
     * it). Graph-jit (issue 18): one loop over a stack of open objects and arrays, not two methods calling each other:
     * C2 inlined the recursive pair into each other and into every caller (50 KB of code for {@code objectAt}, 83 KB
     * for a caller in a fresh JVM's first loads, different in each JVM with the order of compilation). The stack is
     * kept per thread (no allocation per item); the walk calls out to nothing, so it is never re-entered.
     */
    private static final class Walk {
        /** Per open container: where its next field or element starts, how many are left, 2 · underArray + array. */
        private int[] next = new int[16];
        private int[] left = new int[16];
        private int[] kind = new int[16];
        /** Per open container: the trie node of an object, or of an array's elements. */
        private IndexPathTrie.Node[] nodes = new IndexPathTrie.Node[16];

        /** Records the indexed scalars of the object at {@code off} in document order, depth first. */
        void walk(byte[] b, int off, IndexPathTrie.Node root, ItemTermRecorder terms) {
            int depth = 0;
            depth = open(b, off, root, false, depth);
            try {
                while (depth > 0) {
                    int top = depth - 1;
                    if (left[top] == 0) {
                        nodes[top] = null;
                        depth--;
                        continue;
                    }
                    left[top]--;
                    int at;
                    IndexPathTrie.Node node;
                    boolean underArray = (kind[top] & 2) != 0;
                    if ((kind[top] & 1) != 0) { // an array's element
                        at = next[top];
                        next[top] = BinaryItemReader.skip(b, at);
                        node = nodes[top];
                    } else { // an object's field
                        long kv = BinaryItemReader.varintAt(b, next[top]);
                        int klen = (int) kv;
                        int kstart = (int) (kv >>> 32);
                        String name = FieldNames.name(b, kstart, klen);
                        at = kstart + klen;
                        next[top] = BinaryItemReader.skip(b, at);
                        if (top == 0 && klen > 0 && b[kstart] == '_' && SYSTEM.contains(name)) { // each starts with '_'
                            continue;
                        }
                        node = nodes[top].field(name);
                        if (!node.may) {
                            continue;
                        }
                    }
                    int tag = b[at];
                    if (tag == OBJECT || tag == OBJECT_WIDE || tag == ARRAY) {
                        depth = open(b, at, node, underArray, depth);
                    } else if (node.indexes) {
                        terms.term(node.flat, underArray, at);
                    }
                }
            } finally {
                java.util.Arrays.fill(nodes, 0, depth, null); // a failure part-way lets go of the trie's nodes
            }
        }

        /** Pushes the object or array at {@code at} (its elements are under an array); the new depth. */
        private int open(byte[] b, int at, IndexPathTrie.Node node, boolean underArray, int depth) {
            if (depth == next.length) {
                int n = 2 * depth;
                next = java.util.Arrays.copyOf(next, n);
                left = java.util.Arrays.copyOf(left, n);
                kind = java.util.Arrays.copyOf(kind, n);
                nodes = java.util.Arrays.copyOf(nodes, n);
            }
            int tag = b[at];
            long cv = BinaryItemReader.varintAt(b, at + 5);
            int count = (int) cv;
            int first = (int) (cv >>> 32);
            if (tag == ARRAY) {
                next[depth] = first;
                kind[depth] = 2 | 1;
                nodes[depth] = node.elements();
            } else {
                next[depth] = first + (tag == OBJECT ? 2 : 4) * count; // past the offset table
                kind[depth] = underArray ? 2 : 0;
                nodes[depth] = node;
            }
            left[depth] = count;
            return depth + 1;
        }
    }

    /**
     * The index entry key {@code prefix · enc(value) · suffix[suffixFrom..]} of the scalar at {@code at}: exactly
     * {@code IndexKeyEncoding.encodeEntry(prefix, IndexTerms.bounded(asStored(value)), suffix, suffixFrom)} of its
     * decoded value.
     */
    public static byte[] encodeEntry(byte[] prefix, byte[] b, int at, byte[] suffix, int suffixFrom) {
        int tag = b[at];
        if (tag == STRING) {
            long v = BinaryItemReader.varintAt(b, at + 1);
            int n = (int) v;
            int start = (int) (v >>> 32);
            int suffixLength = suffix.length - suffixFrom;
            int m = Math.min(n, IndexTerms.MAX_STRING_CHARS); // ASCII: a byte is a unit, the cut is at m bytes
            if (plainAscii(b, start, m)) { // the common case: the (first) bytes as they are
                n = m;
                byte[] out = new byte[prefix.length + n + 3 + suffixLength];
                System.arraycopy(prefix, 0, out, 0, prefix.length);
                out[prefix.length] = (byte) ValueOrder.RANK_STRING;
                System.arraycopy(b, start, out, prefix.length + 1, n);
                int o = prefix.length + 1 + n;
                out[o] = 0x00;
                out[o + 1] = 0x01;
                System.arraycopy(suffix, suffixFrom, out, o + 2, suffixLength);
                return out;
            }
            // CESU form is at most 1.5 × UTF-8 (a 4-byte sequence becomes 6), 0x00 doubles, and at most 256 units
            // of at most 3 bytes are kept; + tag and terminator
            byte[] out = new byte[prefix.length + 1 + Math.min(2 * n, 3 * IndexTerms.MAX_STRING_CHARS) + 2 + suffixLength];
            System.arraycopy(prefix, 0, out, 0, prefix.length);
            int o = prefix.length;
            out[o++] = (byte) ValueOrder.RANK_STRING;
            o = writeUnits(b, start, start + n, out, o);
            out[o++] = 0x00;
            out[o++] = 0x01;
            System.arraycopy(suffix, suffixFrom, out, o, suffixLength);
            o += suffixLength;
            return o == out.length ? out : Arrays.copyOf(out, o);
        }
        switch (tag) { // index-cost: the common scalars keyed straight from their bytes, no node or buffer
            case NULL:
                return IndexKeyEncoding.encodeLiteralEntry(prefix, null, suffix, suffixFrom);
            case FALSE:
                return IndexKeyEncoding.encodeLiteralEntry(prefix, Boolean.FALSE, suffix, suffixFrom);
            case TRUE:
                return IndexKeyEncoding.encodeLiteralEntry(prefix, Boolean.TRUE, suffix, suffixFrom);
            case INT32:
                return IndexKeyEncoding.encodeLongEntry(prefix, Bytes.i32(b, at + 1), suffix, suffixFrom);
            case INT64:
                return IndexKeyEncoding.encodeLongEntry(prefix, Bytes.i64(b, at + 1), suffix, suffixFrom);
            case DOUBLE:
                return IndexKeyEncoding.encodeDoubleEntry(prefix, Double.longBitsToDouble(Bytes.i64(b, at + 1)),
                        suffix, suffixFrom);
            case FLOAT:
                return IndexKeyEncoding.encodeDoubleEntry(prefix, Float.intBitsToFloat(Bytes.i32(b, at + 1)),
                        suffix, suffixFrom);
            default:
                return IndexKeyEncoding.encodeEntry(prefix, indexedValue(b, at), suffix, suffixFrom);
        }
    }

    /**
     * Whether the value at {@code at} is one of the common scalars {@link #encodeEntry} keys from its bytes alone
     * (null, booleans, the fixed-width numbers, strings): graph-jit, a composite component read without a tree.
     */
    public static boolean commonScalar(byte[] b, int at) {
        int tag = b[at];
        return tag == STRING || (tag >= NULL && tag <= FLOAT);
    }

    /** ASCII without NUL (which the key escapes). */
    private static boolean plainAscii(byte[] b, int from, int n) {
        for (int i = from; i < from + n; i++) {
            if (b[i] <= 0) {
                return false;
            }
        }
        return true;
    }

    /** The value the index keys for the scalar at {@code at}, as the tree path computes it. */
    public static JsonNode indexedValue(byte[] b, int at) {
        int tag = b[at];
        switch (tag) {
            case NULL:
                return NullNode.getInstance();
            case FALSE:
                return BooleanNode.FALSE;
            case TRUE:
                return BooleanNode.TRUE;
            case INT32:
                return IntNode.valueOf(Bytes.i32(b, at + 1));
            case INT64:
                return LongNode.valueOf(Bytes.i64(b, at + 1));
            case DOUBLE:
                return DoubleNode.valueOf(Double.longBitsToDouble(Bytes.i64(b, at + 1)));
            case FLOAT:
                return FloatNode.valueOf(Float.intBitsToFloat(Bytes.i32(b, at + 1)));
            default:
                return IndexTerms.indexedForm(BinaryItemReader.read(b, at));
        }
    }

    /**
     * The UTF-16 units of the UTF-8 bytes {@code [from, to)} in the index's per-unit UTF-8 form (0x00 escaped), cut
     * as {@link IndexTerms#bounded} cuts a string: past {@value IndexTerms#MAX_STRING_CHARS} units, at that many
     * (one fewer when the last would be a high surrogate).
     */
    private static int writeUnits(byte[] b, int from, int to, byte[] out, int o) {
        int max = IndexTerms.MAX_STRING_CHARS;
        int units = 0;
        int i = from;
        while (i < to) {
            int c = b[i] & 0xFF;
            if (units == max) {
                break; // more units follow: the string is longer than the bound
            }
            if (c < 0x80) {
                if (c == 0) {
                    out[o++] = 0x00;
                    out[o++] = (byte) 0xFF;
                } else {
                    out[o++] = (byte) c;
                }
                i++;
                units++;
            } else if (c < 0xE0) {
                out[o++] = b[i];
                out[o++] = b[i + 1];
                i += 2;
                units++;
            } else if (c < 0xF0) {
                boolean high = c == 0xED && (b[i + 1] & 0xF0) == 0xA0; // U+D800..U+DBFF in 3-byte form
                if (high && units == max - 1 && i + 3 < to) {
                    break; // a high surrogate as the last unit kept of a longer string is cut
                }
                out[o++] = b[i];
                out[o++] = b[i + 1];
                out[o++] = b[i + 2];
                i += 3;
                units++;
            } else {
                if (units == max - 1) {
                    break; // the pair's high surrogate would be the last unit kept: cut before it
                }
                int cp = ((c & 0x07) << 18) | ((b[i + 1] & 0x3F) << 12) | ((b[i + 2] & 0x3F) << 6) | (b[i + 3] & 0x3F);
                char hi = Character.highSurrogate(cp);
                char lo = Character.lowSurrogate(cp);
                out[o++] = (byte) (0xE0 | (hi >>> 12));
                out[o++] = (byte) (0x80 | ((hi >>> 6) & 0x3F));
                out[o++] = (byte) (0x80 | (hi & 0x3F));
                out[o++] = (byte) (0xE0 | (lo >>> 12));
                out[o++] = (byte) (0x80 | ((lo >>> 6) & 0x3F));
                out[o++] = (byte) (0x80 | (lo & 0x3F));
                i += 4;
                units += 2;
            }
        }
        return o;
    }
}

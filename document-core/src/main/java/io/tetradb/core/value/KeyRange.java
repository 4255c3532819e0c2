package io.tetradb.core.value;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Arrays;

/**
 * A range of index keys {@code [start, end)} in unsigned byte order, built from {@link IndexKeyEncoding} so that a
 * predicate on a value becomes one range seek. {@code start == null} means unbounded below, {@code end == null}
 * unbounded above. Keys are {@code enc(value) · suffix} (the suffix being EPK · pk · id or further composite
 * components): because encodings are self-delimiting, every key of value {@code v} starts with {@code enc(v)}.
 * <p>
 * Range predicates ({@code > >= < <= BETWEEN}) are confined to the operand's type: in Cosmos SQL a comparison across
 * types is undefined and the item is skipped, so {@code c.x > 5} must not return strings (MongoDB brackets types the
 * same way). Use {@link #ofType} and {@link #withPrefix} to build anything else.
 */
public record KeyRange(byte[] start, byte[] end) {

    /** Keys whose value compares equal to {@code v} (5 finds 5.0 too). */
    public static KeyRange equalTo(JsonNode v) {
        byte[] e = IndexKeyEncoding.encode(v);
        return new KeyRange(e, IndexKeyEncoding.prefixEnd(e));
    }

    /** Keys whose value has {@code v}'s type and is {@code > v}. */
    public static KeyRange greaterThan(JsonNode v) {
        return new KeyRange(IndexKeyEncoding.prefixEnd(IndexKeyEncoding.encode(v)), typeEnd(v));
    }

    /** Keys whose value has {@code v}'s type and is {@code >= v}. */
    public static KeyRange atLeast(JsonNode v) {
        return new KeyRange(IndexKeyEncoding.encode(v), typeEnd(v));
    }

    /** Keys whose value has {@code v}'s type and is {@code < v}. */
    public static KeyRange lessThan(JsonNode v) {
        return new KeyRange(typeStart(v), IndexKeyEncoding.encode(v));
    }

    /** Keys whose value has {@code v}'s type and is {@code <= v}. */
    public static KeyRange atMost(JsonNode v) {
        return new KeyRange(typeStart(v), IndexKeyEncoding.prefixEnd(IndexKeyEncoding.encode(v)));
    }

    /**
     * {@code BETWEEN lo AND hi} (both inclusive); an empty range when the bounds differ in type (Cosmos: undefined).
     */
    public static KeyRange between(JsonNode lo, JsonNode hi) {
        if (ValueOrder.typeRank(lo) != ValueOrder.typeRank(hi)) {
            byte[] e = IndexKeyEncoding.encode(lo);
            return new KeyRange(e, e);
        }
        return new KeyRange(IndexKeyEncoding.encode(lo), IndexKeyEncoding.prefixEnd(IndexKeyEncoding.encode(hi)));
    }

    /** {@code STARTSWITH(value, prefix)} (case-sensitive): every string that starts with {@code prefix}. */
    public static KeyRange startsWith(String prefix) {
        byte[] p = IndexKeyEncoding.encodeStringPrefix(prefix);
        return new KeyRange(p, IndexKeyEncoding.prefixEnd(p));
    }

    /** Every key whose value has the given type rank ({@link ValueOrder} constants). */
    public static KeyRange ofType(int rank) {
        return new KeyRange(new byte[] {(byte) rank}, new byte[] {(byte) (rank + 8)});
    }

    /** The same range inside the keys that start with {@code prefix} (an index id, or {@code EPK · pk · indexId}). */
    public KeyRange withPrefix(byte[] prefix) {
        byte[] s = start == null ? prefix.clone() : concat(prefix, start);
        byte[] e = end == null ? IndexKeyEncoding.prefixEnd(prefix) : concat(prefix, end);
        return new KeyRange(s, e);
    }

    /** The keys in both ranges (empty when they do not overlap). */
    public KeyRange intersect(KeyRange o) {
        byte[] s = start == null ? o.start : o.start == null || Arrays.compareUnsigned(start, o.start) >= 0 ? start
                : o.start;
        byte[] e = end == null ? o.end : o.end == null || Arrays.compareUnsigned(end, o.end) <= 0 ? end : o.end;
        return new KeyRange(s, e);
    }

    /** Whether {@code key} lies in the range. */
    public boolean contains(byte[] key) {
        return (start == null || Arrays.compareUnsigned(key, start) >= 0)
                && (end == null || Arrays.compareUnsigned(key, end) < 0);
    }

    /** Whether the range can hold no key. */
    public boolean isEmpty() {
        return start != null && end != null && Arrays.compareUnsigned(start, end) >= 0;
    }

    private static byte[] typeStart(JsonNode v) {
        return new byte[] {(byte) ValueOrder.typeRank(v)};
    }

    private static byte[] typeEnd(JsonNode v) {
        return new byte[] {(byte) (ValueOrder.typeRank(v) + 8)};
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyRange k && Arrays.equals(start, k.start) && Arrays.equals(end, k.end);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(start) + Arrays.hashCode(end);
    }

    @Override
    public String toString() {
        return "KeyRange[" + hex(start) + ", " + hex(end) + ")";
    }

    private static String hex(byte[] b) {
        if (b == null) {
            return "∞";
        }
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(String.format("%02x", x & 0xFF));
        }
        return sb.toString();
    }
}

package io.tetradb.core.value;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Order-preserving, self-delimiting byte encoding of values: for all values {@code a, b},
 * {@code sign(Arrays.compareUnsigned(encode(a), encode(b))) == sign(ValueOrder.compare(a, b))}, values that compare
 * equal (5, 5.0, 5.00) have identical bytes, and no encoding is a proper prefix of another value's encoding. So an
 * index key {@code enc(value) · EPK · pk · id} sorts by value first, an equality seek is the prefix {@code enc(v)},
 * and a composite key is the plain concatenation of its components' encodings.
 *
 * <h2>Layout</h2>
 * The first byte is the type tag ({@link ValueOrder} rank; booleans use two tags):
 * <pre>
 *   undefined  0x10
 *   null       0x18
 *   false      0x20          true 0x21
 *   number     0x28 · nearest double(8) · remainder (1 byte when the value is exactly a double)
 *   string     0x30 · units · 0x00 0x01
 *   array      0x38 · enc(element)* · 0x00
 *   object     0x40 · (enc(key as string) · enc(value))* in sorted-key order · 0x00
 * </pre>
 * Tags are never 0x00 (so 0x00 can end arrays and objects: it sorts below any element) nor 0xFF.
 *
 * <h2>Numbers: nearest double + exact signed remainder</h2>
 * A number {@code x} is written as {@code d = round(x)}, the nearest double (correctly rounded, half-even), in the
 * usual order-preserving form (sign bit flipped for positives, all bits flipped for negatives; -0.0 written as 0.0;
 * NaN as eight 0x00 bytes, below -Infinity), followed by the exact remainder {@code r = x - d}: {@code 0x03} when
 * {@code r == 0}, {@code 0x04 · P(r)} when positive and {@code 0x02 · ~P(-r)} (bytes complemented) when negative.
 * Rounding to nearest is monotone, so {@code x < y} implies {@code d(x) <= d(y)}, and when {@code d} ties the
 * remainder decides: the order is exact. Decimals that round to ±Infinity are written as ±MAX_VALUE followed by
 * {@code 0x05 · P(x)} / {@code 0x01 · ~P(-x)} (the value itself instead of a remainder, which would be
 * astronomically long for 1E+999999999): they sort after (before) every value that rounds to ±MAX_VALUE and,
 * among themselves, by value.
 * Every double and every integer up to 2^53 costs 10 bytes; only longs beyond 2^53, BigIntegers and decimals that no
 * double represents carry a longer remainder. (A pure decimal encoding was the alternative; it would make an ordinary
 * double such as 0.1 ~30 bytes, because its exact expansion has 55 digits.)
 * <p>
 * {@code P(p)} for {@code p > 0} is a base-100 float: with {@code p = 0.c1 c2 ... cn × 100^E}, {@code c1 != 0},
 * trailing zero digits dropped: {@code E} as a 4-byte big-endian int with the sign bit flipped, then each centimal
 * digit {@code c} as {@code 2c+1}, the last one as {@code 2c}. The even last byte makes {@code P} prefix-free and a
 * longer mantissa sort after its prefix; the complement of a prefix-free order-preserving code is prefix-free and
 * order-reversing, which is what negative remainders need.
 *
 * <h2>Strings: UTF-16 units in UTF-8 form, 0x00 escaped</h2>
 * Each UTF-16 code unit is written on its own in UTF-8's 1/2/3-byte form (CESU-8: a surrogate pair becomes two 3-byte
 * sequences), because UTF-8's form preserves the numeric order of what it encodes: the bytes sort exactly like {@link
 * String#compareTo}, the order {@link ValueOrder} uses, while ASCII stays one byte. The unit U+0000 is written {@code
 * 0x00 0xFF} and the string ends with {@code 0x00 0x01}; so the terminator sorts below every unit ({@code "a" < "a\0"
 * < "a\1"}), no encoded string is a prefix of another, and the encoding of a string prefix (without its terminator) is
 * a byte prefix of the encoding of every string that starts with it: {@code STARTSWITH} is the contiguous key range
 * {@link KeyRange#startsWith}.
 *
 * <h2>Descending components</h2>
 * {@link #encode(JsonNode, boolean)} with {@code descending} complements every byte: still prefix-free, order
 * reversed, for DESC components of composite indexes.
 */
public final class IndexKeyEncoding {

    static final int TAG_UNDEFINED = ValueOrder.RANK_UNDEFINED;
    static final int TAG_NULL = ValueOrder.RANK_NULL;
    static final int TAG_FALSE = ValueOrder.RANK_BOOLEAN;
    static final int TAG_TRUE = ValueOrder.RANK_BOOLEAN + 1;
    static final int TAG_NUMBER = ValueOrder.RANK_NUMBER;
    static final int TAG_STRING = ValueOrder.RANK_STRING;
    static final int TAG_ARRAY = ValueOrder.RANK_ARRAY;
    static final int TAG_OBJECT = ValueOrder.RANK_OBJECT;
    static final int END = 0x00;

    private static final int REM_BEYOND_NEGATIVE = 0x01;
    private static final int REM_NEGATIVE = 0x02;
    private static final int REM_ZERO = 0x03;
    private static final int REM_POSITIVE = 0x04;
    private static final int REM_BEYOND_POSITIVE = 0x05;
    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private IndexKeyEncoding() {
    }

    // ------------------------------------------------------------------------------------------------ encoding

    /** The ascending encoding of a value ({@code null} = undefined). */
    public static byte[] encode(JsonNode v) {
        Buf out = new Buf(16);
        write(v, out);
        return out.toArray();
    }

    /**
     * An index entry key {@code prefix · enc(v) · suffix[suffixFrom..]}, written into one array (no encoding copied
     * around): the write path builds ~20 of these per item.
     */
    public static byte[] encodeEntry(byte[] prefix, JsonNode v, byte[] suffix, int suffixFrom) {
        int suffixLength = suffix.length - suffixFrom;
        int estimate = v.isTextual() ? v.textValue().length() + 3 : 10;
        Buf out = new Buf(prefix.length + estimate + suffixLength);
        out.put(prefix, 0, prefix.length);
        write(v, out);
        out.put(suffix, suffixFrom, suffixLength);
        return out.toArray();
    }

    /**
     * Issue 17, index-cost: {@link #encodeEntry(byte[], JsonNode, byte[], int)} of a long, written straight into the
     * key's one array (no node, no growing buffer): a long within ±2^53 is its double and a zero remainder.
     */
    public static byte[] encodeLongEntry(byte[] prefix, long x, byte[] suffix, int suffixFrom) {
        if (x < -(1L << 53) || x > (1L << 53)) {
            return encodeEntry(prefix, com.fasterxml.jackson.databind.node.LongNode.valueOf(x), suffix, suffixFrom);
        }
        return encodeDoubleEntry(prefix, (double) x, suffix, suffixFrom);
    }

    /** As {@link #encodeLongEntry} for a double or a float's value: its key bits and a zero remainder. */
    public static byte[] encodeDoubleEntry(byte[] prefix, double d, byte[] suffix, int suffixFrom) {
        int suffixLength = suffix.length - suffixFrom;
        byte[] out = new byte[prefix.length + 10 + suffixLength];
        System.arraycopy(prefix, 0, out, 0, prefix.length);
        int o = prefix.length;
        out[o] = (byte) TAG_NUMBER;
        long key = doubleKey(d);
        for (int i = 0; i < 8; i++) {
            out[o + 1 + i] = (byte) (key >>> (56 - 8 * i));
        }
        out[o + 9] = (byte) REM_ZERO;
        System.arraycopy(suffix, suffixFrom, out, o + 10, suffixLength);
        return out;
    }

    /** As {@link #encodeLongEntry} for null ({@code value} null) or a boolean: the tag alone. */
    public static byte[] encodeLiteralEntry(byte[] prefix, Boolean value, byte[] suffix, int suffixFrom) {
        int suffixLength = suffix.length - suffixFrom;
        byte[] out = new byte[prefix.length + 1 + suffixLength];
        System.arraycopy(prefix, 0, out, 0, prefix.length);
        out[prefix.length] = (byte) (value == null ? TAG_NULL : value ? TAG_TRUE : TAG_FALSE);
        System.arraycopy(suffix, suffixFrom, out, prefix.length + 1, suffixLength);
        return out;
    }

    /** The encoding of a value, every byte complemented when {@code descending}. */
    public static byte[] encode(JsonNode v, boolean descending) {
        byte[] b = encode(v);
        if (descending) {
            complement(b);
        }
        return b;
    }

    /** A composite key: the concatenation of the components' encodings (each may be descending). */
    public static byte[] encodeComposite(List<JsonNode> values, boolean[] descending) {
        Buf out = new Buf(32);
        for (int i = 0; i < values.size(); i++) {
            int start = out.len;
            write(values.get(i), out);
            if (descending != null && descending[i]) {
                for (int j = start; j < out.len; j++) {
                    out.a[j] = (byte) ~out.a[j];
                }
            }
        }
        return out.toArray();
    }

    /**
     * The encoding of a string prefix for {@code STARTSWITH}: the tag and the units, without the terminator. Every
     * string that starts with {@code prefix} has an encoding that starts with these bytes, and no other value does.
     */
    public static byte[] encodeStringPrefix(String prefix) {
        Buf out = new Buf(prefix.length() + 4);
        out.put(TAG_STRING);
        writeUnits(prefix, out);
        return out.toArray();
    }

    /**
     * The smallest byte string greater than every byte string that starts with {@code prefix} (drop trailing 0xFF
     * bytes, increment the last); {@code null} when there is none (empty or all 0xFF): the range is unbounded above.
     */
    public static byte[] prefixEnd(byte[] prefix) {
        int i = prefix.length - 1;
        while (i >= 0 && (prefix[i] & 0xFF) == 0xFF) {
            i--;
        }
        if (i < 0) {
            return null;
        }
        byte[] end = Arrays.copyOf(prefix, i + 1);
        end[i]++;
        return end;
    }

    private static void write(JsonNode v, Buf out) {
        int rank = ValueOrder.typeRank(v);
        switch (rank) {
            case ValueOrder.RANK_UNDEFINED:
                out.put(TAG_UNDEFINED);
                return;
            case ValueOrder.RANK_NULL:
                out.put(TAG_NULL);
                return;
            case ValueOrder.RANK_BOOLEAN:
                out.put(v.booleanValue() ? TAG_TRUE : TAG_FALSE);
                return;
            case ValueOrder.RANK_NUMBER:
                out.put(TAG_NUMBER);
                writeNumber(v, out);
                return;
            case ValueOrder.RANK_STRING:
                out.put(TAG_STRING);
                writeUnits(v.textValue(), out);
                out.put(0x00);
                out.put(0x01);
                return;
            case ValueOrder.RANK_ARRAY:
                out.put(TAG_ARRAY);
                for (JsonNode e : v) {
                    write(e, out);
                }
                out.put(END);
                return;
            case ValueOrder.RANK_OBJECT:
                out.put(TAG_OBJECT);
                for (Map.Entry<String, JsonNode> e : ValueOrder.sortedFields(v)) {
                    out.put(TAG_STRING);
                    writeUnits(e.getKey(), out);
                    out.put(0x00);
                    out.put(0x01);
                    write(e.getValue(), out);
                }
                out.put(END);
                return;
            default: {
                // a typed value: its rank as the tag, then its own self-delimiting, ordered body
                out.put(rank);
                byte[] body = ((TypedNode) v).keyBody();
                out.put(body, 0, body.length);
                return;
            }
        }
    }

    /** A string's units and terminator (the body after {@link #TAG_STRING}), for typed values' key bodies. */
    static byte[] stringBody(String s) {
        Buf out = new Buf(s.length() + 2);
        writeUnits(s, out);
        out.put(0x00);
        out.put(0x01);
        return out.toArray();
    }

    private static void writeUnits(String s, Buf out) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == 0) {
                out.put(0x00);
                out.put(0xFF);
            } else if (c < 0x80) {
                out.put(c);
            } else if (c < 0x800) {
                out.put(0xC0 | (c >>> 6));
                out.put(0x80 | (c & 0x3F));
            } else {
                out.put(0xE0 | (c >>> 12));
                out.put(0x80 | ((c >>> 6) & 0x3F));
                out.put(0x80 | (c & 0x3F));
            }
        }
    }

    private static void writeNumber(JsonNode v, Buf out) {
        if (ValueOrder.isFloatingPrimitive(v)) {
            writeDouble(v.doubleValue(), out);
            out.put(REM_ZERO);
            return;
        }
        if (ValueOrder.isIntegralPrimitive(v)) {
            long x = v.longValue();
            if (x >= -(1L << 53) && x <= (1L << 53)) {
                writeDouble((double) x, out);
                out.put(REM_ZERO);
                return;
            }
        }
        BigDecimal x = ValueOrder.exact(v);
        double d = x.doubleValue(); // correctly rounded, half-even
        if (d == Double.POSITIVE_INFINITY) {
            writeDouble(Double.MAX_VALUE, out);
            out.put(REM_BEYOND_POSITIVE);
            writePositiveDecimal(x, out, false);
            return;
        }
        if (d == Double.NEGATIVE_INFINITY) {
            writeDouble(-Double.MAX_VALUE, out);
            out.put(REM_BEYOND_NEGATIVE);
            writePositiveDecimal(x.negate(), out, true);
            return;
        }
        writeDouble(d, out);
        BigDecimal r = x.subtract(new BigDecimal(d));
        int s = r.signum();
        if (s == 0) {
            out.put(REM_ZERO);
        } else if (s > 0) {
            out.put(REM_POSITIVE);
            writePositiveDecimal(r, out, false);
        } else {
            out.put(REM_NEGATIVE);
            writePositiveDecimal(r.negate(), out, true);
        }
    }

    private static void writeDouble(double d, Buf out) {
        long key = doubleKey(d);
        for (int shift = 56; shift >= 0; shift -= 8) {
            out.put((int) (key >>> shift) & 0xFF);
        }
    }

    /** A double's 8 key bytes as one unsigned number: NaN lowest, -0.0 as 0.0, then by value. */
    private static long doubleKey(double d) {
        if (Double.isNaN(d)) {
            return 0L;
        }
        if (d == 0.0) {
            d = 0.0; // -0.0 == 0.0
        }
        long bits = Double.doubleToRawLongBits(d);
        return bits < 0 ? ~bits : bits ^ Long.MIN_VALUE;
    }

    /** P(p), see the class comment; complemented when {@code invert}. */
    private static void writePositiveDecimal(BigDecimal p, Buf out, boolean invert) {
        int mask = invert ? 0xFF : 0x00;
        BigDecimal n = p.stripTrailingZeros();
        String digits = n.unscaledValue().toString(); // no sign, no trailing zeros, first digit != 0
        long e10 = (long) digits.length() - n.scale(); // p = 0.digits × 10^e10
        if ((e10 & 1) != 0) {
            digits = "0" + digits;
            e10++;
        }
        if ((digits.length() & 1) != 0) {
            digits = digits + "0";
        }
        long e100 = e10 / 2;
        if (e100 < Integer.MIN_VALUE || e100 > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("number exponent out of range: " + p);
        }
        int ex = (int) e100 ^ Integer.MIN_VALUE;
        out.put(((ex >>> 24) & 0xFF) ^ mask);
        out.put(((ex >>> 16) & 0xFF) ^ mask);
        out.put(((ex >>> 8) & 0xFF) ^ mask);
        out.put((ex & 0xFF) ^ mask);
        int pairs = digits.length() / 2;
        for (int i = 0; i < pairs; i++) {
            int c = (digits.charAt(2 * i) - '0') * 10 + (digits.charAt(2 * i + 1) - '0');
            int b = i == pairs - 1 ? 2 * c : 2 * c + 1;
            out.put(b ^ mask);
        }
    }

    private static void complement(byte[] b) {
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) ~b[i];
        }
    }

    // ------------------------------------------------------------------------------------------------ decoding

    /**
     * Decodes the value encoded in exactly {@code b[off, off+len)}. Numbers come back in a canonical node (IntNode /
     * LongNode for integers in the long range, DoubleNode for other doubles, DecimalNode otherwise), which
     * compares equal to, but need not be the same node class as, the encoded one (5.0 comes back as 5).
     */
    public static JsonNode decode(byte[] b, int off, int len) {
        return decode(b, off, len, false);
    }

    /** As {@link #decode(byte[], int, int)} for an encoding written with {@code descending}. */
    public static JsonNode decode(byte[] b, int off, int len, boolean descending) {
        Reader r = new Reader(b, off, descending);
        JsonNode v = r.value();
        if (r.pos != off + len) {
            throw new IllegalArgumentException("encoded value ends at " + (r.pos - off) + ", not at " + len);
        }
        return v;
    }

    /** The offset just past the encoded value that starts at {@code off} (to split composite keys). */
    public static int skip(byte[] b, int off, boolean descending) {
        Reader r = new Reader(b, off, descending);
        r.value();
        return r.pos;
    }

    private static final class Reader {
        final byte[] b;
        final int mask;
        int pos;

        Reader(byte[] b, int off, boolean descending) {
            this.b = b;
            this.pos = off;
            this.mask = descending ? 0xFF : 0x00;
        }

        int next() {
            if (pos >= b.length) {
                throw new IllegalArgumentException("truncated encoded value");
            }
            return (b[pos++] & 0xFF) ^ mask;
        }

        int peek() {
            if (pos >= b.length) {
                throw new IllegalArgumentException("truncated encoded value");
            }
            return (b[pos] & 0xFF) ^ mask;
        }

        JsonNode value() {
            int tag = next();
            switch (tag) {
                case TAG_UNDEFINED:
                    return MissingNode.getInstance();
                case TAG_NULL:
                    return NullNode.getInstance();
                case TAG_FALSE:
                    return BooleanNode.FALSE;
                case TAG_TRUE:
                    return BooleanNode.TRUE;
                case TAG_NUMBER:
                    return number();
                case TAG_STRING:
                    return TextNode.valueOf(string());
                case TAG_ARRAY: {
                    ArrayNode a = JsonNodeFactory.instance.arrayNode();
                    while (peek() != END) {
                        a.add(value());
                    }
                    pos++;
                    return a;
                }
                case TAG_OBJECT: {
                    ObjectNode o = JsonNodeFactory.instance.objectNode();
                    while (peek() != END) {
                        if (next() != TAG_STRING) {
                            throw new IllegalArgumentException("object key is not a string at " + (pos - 1));
                        }
                        String k = string();
                        o.set(k, value());
                    }
                    pos++;
                    return o;
                }
                default:
                    return typed(tag);
            }
        }

        /** The typed values' bodies (see each {@link TypedNode#keyBody}). */
        JsonNode typed(int tag) {
            switch (tag) {
                case ValueOrder.RANK_MIN_KEY:
                    return MinKeyNode.INSTANCE;
                case ValueOrder.RANK_MAX_KEY:
                    return MaxKeyNode.INSTANCE;
                case ValueOrder.RANK_BINARY: {
                    int length = KeyBytes.getInt(bytes(4), 0);
                    int subtype = next();
                    byte[] data = bytes(length);
                    return subtype == BinaryDataNode.SUBTYPE_UUID && length == 16
                            ? UuidNode.of(data) : BinaryDataNode.wrap(subtype, data);
                }
                case ValueOrder.RANK_OBJECT_ID:
                    return ObjectIdNode.of(bytes(12));
                case ValueOrder.RANK_DATE_TIME:
                    return DateTimeNode.ofTicks(KeyBytes.getLong(bytes(8), 0) ^ Long.MIN_VALUE);
                case ValueOrder.RANK_TIMESTAMP:
                    return TimestampNode.ofValue(KeyBytes.getLong(bytes(8), 0));
                case ValueOrder.RANK_REGEX: {
                    String pattern = string();
                    return RegexNode.of(pattern, string());
                }
                default:
                    throw new IllegalArgumentException("unknown type tag 0x" + Integer.toHexString(tag)
                            + " at " + (pos - 1));
            }
        }

        byte[] bytes(int n) {
            if (n < 0 || pos + n > b.length) {
                throw new IllegalArgumentException("truncated encoded value");
            }
            byte[] out = new byte[n];
            for (int i = 0; i < n; i++) {
                out[i] = (byte) next();
            }
            return out;
        }

        String string() {
            StringBuilder sb = new StringBuilder();
            while (true) {
                int c = next();
                if (c == 0x00) {
                    int e = next();
                    if (e == 0x01) {
                        return sb.toString();
                    }
                    if (e != 0xFF) {
                        throw new IllegalArgumentException("bad string escape at " + (pos - 1));
                    }
                    sb.append('\0');
                } else if (c < 0x80) {
                    sb.append((char) c);
                } else if (c < 0xE0) {
                    sb.append((char) (((c & 0x1F) << 6) | (next() & 0x3F)));
                } else {
                    int c2 = next();
                    int c3 = next();
                    sb.append((char) (((c & 0x0F) << 12) | ((c2 & 0x3F) << 6) | (c3 & 0x3F)));
                }
            }
        }

        JsonNode number() {
            long key = 0;
            for (int i = 0; i < 8; i++) {
                key = (key << 8) | next();
            }
            double d;
            if (key == 0L) {
                d = Double.NaN;
            } else {
                long bits = key < 0 ? key ^ Long.MIN_VALUE : ~key;
                d = Double.longBitsToDouble(bits);
            }
            int rem = next();
            if (rem == REM_ZERO) {
                return canonicalDouble(d);
            }
            BigDecimal r;
            if (rem == REM_POSITIVE) {
                r = positiveDecimal(false);
            } else if (rem == REM_NEGATIVE) {
                r = positiveDecimal(true).negate();
            } else if (rem == REM_BEYOND_POSITIVE) {
                return canonicalDecimal(positiveDecimal(false));
            } else if (rem == REM_BEYOND_NEGATIVE) {
                return canonicalDecimal(positiveDecimal(true).negate());
            } else {
                throw new IllegalArgumentException("bad number remainder marker at " + (pos - 1));
            }
            return canonicalDecimal(new BigDecimal(d).add(r));
        }

        BigDecimal positiveDecimal(boolean inverted) {
            int inv = inverted ? 0xFF : 0x00;
            int ex = 0;
            for (int i = 0; i < 4; i++) {
                ex = (ex << 8) | (next() ^ inv);
            }
            int e100 = ex ^ Integer.MIN_VALUE;
            StringBuilder digits = new StringBuilder();
            while (true) {
                int c = next() ^ inv;
                int centi = c >>> 1;
                digits.append((char) ('0' + centi / 10)).append((char) ('0' + centi % 10));
                if ((c & 1) == 0) {
                    break;
                }
            }
            // value = 0.digits × 100^e100 = digits × 10^(2·e100 − len)
            BigInteger unscaled = new BigInteger(digits.toString());
            long scale = (long) digits.length() - 2L * e100;
            if (scale < Integer.MIN_VALUE || scale > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("number exponent out of range");
            }
            return new BigDecimal(unscaled, (int) scale);
        }
    }

    private static JsonNode canonicalDouble(double d) {
        if (Double.isFinite(d) && d == Math.rint(d) && Math.abs(d) < 0x1p63) {
            long l = (long) d;
            return l == (int) l ? IntNode.valueOf((int) l) : LongNode.valueOf(l);
        }
        return DoubleNode.valueOf(d == 0.0 ? 0.0 : d);
    }

    private static JsonNode canonicalDecimal(BigDecimal v) {
        BigDecimal s = v.stripTrailingZeros();
        if (s.scale() <= 0 && (long) s.precision() - s.scale() <= 19) {
            BigInteger i = s.toBigIntegerExact();
            if (i.compareTo(LONG_MIN) >= 0 && i.compareTo(LONG_MAX) <= 0) {
                long l = i.longValueExact();
                return l == (int) l ? IntNode.valueOf((int) l) : LongNode.valueOf(l);
            }
        }
        return DecimalNode.valueOf(s);
    }

    // ------------------------------------------------------------------------------------------------- buffer

    private static final class Buf {
        byte[] a;
        int len;

        Buf(int cap) {
            a = new byte[cap];
        }

        void put(int b) {
            if (len == a.length) {
                a = Arrays.copyOf(a, a.length * 2);
            }
            a[len++] = (byte) b;
        }

        void put(byte[] b, int from, int length) {
            if (len + length > a.length) {
                a = Arrays.copyOf(a, Math.max(a.length * 2, len + length));
            }
            System.arraycopy(b, from, a, len, length);
            len += length;
        }

        byte[] toArray() {
            return len == a.length ? a : Arrays.copyOf(a, len);
        }
    }
}

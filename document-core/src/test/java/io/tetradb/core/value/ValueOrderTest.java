package io.tetradb.core.value;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.FloatNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ShortNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hand cases: every type boundary and the tricky numbers and strings, each checked on the comparator and on the
 * encoding (which must agree), plus decode round trips.
 */
class ValueOrderTest {

    static final ObjectMapper M = new ObjectMapper();

    static JsonNode j(String json) {
        try {
            return M.readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    static JsonNode dec(String s) {
        return DecimalNode.valueOf(new BigDecimal(s));
    }

    static JsonNode big(String s) {
        return BigIntegerNode.valueOf(new BigInteger(s));
    }

    static JsonNode d(double x) {
        return DoubleNode.valueOf(x);
    }

    static JsonNode l(long x) {
        return LongNode.valueOf(x);
    }

    static JsonNode s(String x) {
        return TextNode.valueOf(x);
    }

    static int sign(int c) {
        return Integer.signum(c);
    }

    /** Asserts a < b on both the comparator and the encoding, and antisymmetry. */
    static void assertLess(JsonNode a, JsonNode b) {
        assertEquals(-1, sign(ValueOrder.INSTANCE.compare(a, b)), () -> a + " < " + b);
        assertEquals(1, sign(ValueOrder.INSTANCE.compare(b, a)), () -> b + " > " + a);
        byte[] ea = IndexKeyEncoding.encode(a);
        byte[] eb = IndexKeyEncoding.encode(b);
        assertEquals(-1, sign(Arrays.compareUnsigned(ea, eb)), () -> "enc " + a + " < enc " + b);
        assertFalse(isPrefix(ea, eb), () -> "enc " + a + " is a prefix of enc " + b);
        assertFalse(isPrefix(eb, ea), () -> "enc " + b + " is a prefix of enc " + a);
    }

    static void assertSame(JsonNode a, JsonNode b) {
        assertEquals(0, ValueOrder.INSTANCE.compare(a, b), () -> a + " == " + b);
        assertEquals(0, ValueOrder.INSTANCE.compare(b, a), () -> b + " == " + a);
        assertArrayEquals(IndexKeyEncoding.encode(a), IndexKeyEncoding.encode(b), () -> "enc " + a + " == enc " + b);
    }

    /** Strictly ascending sequence: every pair, not just neighbours. */
    static void assertAscending(JsonNode... vs) {
        for (int i = 0; i < vs.length; i++) {
            for (int k = i + 1; k < vs.length; k++) {
                assertLess(vs[i], vs[k]);
            }
        }
    }

    static boolean isPrefix(byte[] p, byte[] x) {
        return p.length <= x.length && Arrays.equals(p, 0, p.length, x, 0, p.length);
    }

    static void assertRoundTrip(JsonNode v) {
        byte[] e = IndexKeyEncoding.encode(v);
        JsonNode back = IndexKeyEncoding.decode(e, 0, e.length);
        assertEquals(0, ValueOrder.INSTANCE.compare(v, back), () -> v + " decoded as " + back);
        assertArrayEquals(e, IndexKeyEncoding.encode(back));
        byte[] desc = IndexKeyEncoding.encode(v, true);
        assertEquals(0, ValueOrder.INSTANCE.compare(v, IndexKeyEncoding.decode(desc, 0, desc.length, true)));
    }

    @Test
    void typeOrder() {
        assertAscending(MissingNode.getInstance(), NullNode.getInstance(), BooleanNode.FALSE, BooleanNode.TRUE,
                d(Double.NaN), d(Double.NEGATIVE_INFINITY), d(-1e308), l(0), d(1e308), dec("1E+400"),
                d(Double.POSITIVE_INFINITY), s(""), s("\u0000"), s("a"), s("\uFFFF"), j("[]"), j("[null]"), j("[[]]"),
                j("{}"), j("{\"\":null}"), j("{\"a\":1}"));
        assertEquals(ValueOrder.RANK_UNDEFINED, ValueOrder.typeRank(null));
        assertEquals(0, ValueOrder.INSTANCE.compare(null, MissingNode.getInstance()));
        // the ranks leave gaps for the types of later faces
        int[] ranks = {ValueOrder.RANK_MIN_KEY, ValueOrder.RANK_UNDEFINED, ValueOrder.RANK_NULL,
                ValueOrder.RANK_BOOLEAN, ValueOrder.RANK_NUMBER, ValueOrder.RANK_STRING, ValueOrder.RANK_ARRAY,
                ValueOrder.RANK_OBJECT, ValueOrder.RANK_MAX_KEY};
        for (int i = 1; i < ranks.length; i++) {
            assertTrue(ranks[i] - ranks[i - 1] >= 8);
        }
    }

    @Test
    void unsupportedNodesAreRejected() {
        assertThrows(IllegalArgumentException.class,
                () -> ValueOrder.typeRank(com.fasterxml.jackson.databind.node.BinaryNode.valueOf(new byte[] {1})));
        assertThrows(IllegalArgumentException.class,
                () -> IndexKeyEncoding.encode(new com.fasterxml.jackson.databind.node.POJONode(new Object())));
    }

    @Test
    void integersAndDoublesAreOneNumberLine() {
        assertSame(IntNode.valueOf(5), d(5.0));
        assertSame(IntNode.valueOf(5), dec("5.00"));
        assertSame(IntNode.valueOf(5), FloatNode.valueOf(5f));
        assertSame(IntNode.valueOf(5), ShortNode.valueOf((short) 5));
        assertSame(IntNode.valueOf(5), big("5"));
        assertSame(l(5), dec("5E0"));
        assertSame(d(0.0), d(-0.0));
        assertSame(IntNode.valueOf(0), d(-0.0));
        assertSame(dec("0"), dec("-0.000"));
        assertSame(FloatNode.valueOf(0.5f), d(0.5));
        assertSame(dec("0.5"), d(0.5));
        assertLess(dec("1e308"), d(1e308)); // the double nearest 1e308 is 1.00000000000000001098e308
    }

    @Test
    void numbersBeyondTwoTo53AreExact() {
        long p53 = 1L << 53;
        assertSame(l(p53), d(0x1p53));
        assertLess(d(0x1p53), l(p53 + 1));     // as doubles both are 2^53
        assertLess(l(p53 + 1), d(0x1p53 + 2));
        assertLess(l(-p53 - 1), d(-0x1p53));
        assertAscending(l(Long.MIN_VALUE), l(Long.MIN_VALUE + 1), l(-p53 - 1), l(-p53), l(-1), l(0), l(1), l(p53),
                l(p53 + 1), l(p53 + 2), l(p53 + 3), l(Long.MAX_VALUE - 1), l(Long.MAX_VALUE), d(0x1p63),
                big("9223372036854775809"), dec("9223372036854775809.5"), d(0x1p64));
        assertSame(l(Long.MIN_VALUE), d(-0x1p63));
        assertLess(l(Long.MAX_VALUE), d(0x1p63)); // (double) Long.MAX_VALUE == 2^63, but the long is 2^63-1
        assertSame(big("9223372036854775807"), l(Long.MAX_VALUE));
        assertSame(dec("9007199254740993"), l(p53 + 1));
        assertSame(big("9007199254740993"), l(p53 + 1));
    }

    @Test
    void decimalsVersusDoubles() {
        // the double 0.1 is 0.1000000000000000055511151231257827021181583404541015625
        assertLess(dec("0.1"), d(0.1));
        assertLess(d(0.1), dec("0.10000000000000001"));
        assertSame(d(0.1), dec("0.1000000000000000055511151231257827021181583404541015625"));
        assertLess(dec("0.1000000000000000055511151231257827021181583404541015624"), d(0.1));
        assertLess(d(0.1), dec("0.1000000000000000055511151231257827021181583404541015626"));
        assertLess(d(-0.1), dec("-0.1"));
    }

    @Test
    void extremes() {
        assertAscending(d(Double.NaN), d(Double.NEGATIVE_INFINITY), dec("-1E+999999999"), dec("-1E+400"),
                d(-Double.MAX_VALUE), d(-1e308), d(-1), d(-Double.MIN_NORMAL), d(-Double.MIN_VALUE), dec("-1E-400"),
                d(0), dec("1E-999999999"), dec("1E-400"), d(Double.MIN_VALUE), d(Double.MIN_NORMAL), d(1),
                d(1e308), d(Double.MAX_VALUE), dec("1.7976931348623158E+308"), dec("1E+309"), dec("1E+400"),
                dec("1E+999999999"), d(Double.POSITIVE_INFINITY));
        assertSame(d(Double.NaN), FloatNode.valueOf(Float.NaN));
        assertSame(d(Double.NaN), d(Double.longBitsToDouble(0x7ff0000000000001L)));
        assertSame(d(Double.POSITIVE_INFINITY), FloatNode.valueOf(Float.POSITIVE_INFINITY));
        assertLess(d(Double.NaN), l(Long.MIN_VALUE));
        assertLess(d(Double.NaN), dec("-1E+999999999"));
        assertLess(dec("1E+999999999"), d(Double.POSITIVE_INFINITY));
        // the decimal just above MAX_VALUE still rounds to MAX_VALUE; the one at MAX + ulp/2 rounds to Infinity
        BigDecimal max = new BigDecimal(Double.MAX_VALUE);
        BigDecimal halfUlp = new BigDecimal(Math.ulp(Double.MAX_VALUE)).divide(BigDecimal.valueOf(2));
        assertAscending(d(Double.MAX_VALUE), DecimalNode.valueOf(max.add(BigDecimal.ONE)),
                DecimalNode.valueOf(max.add(halfUlp).subtract(BigDecimal.ONE)), DecimalNode.valueOf(max.add(halfUlp)),
                DecimalNode.valueOf(max.add(halfUlp).add(BigDecimal.ONE)), dec("1E+400"));
        assertAscending(dec("-1E+400"), DecimalNode.valueOf(max.add(halfUlp).negate()),
                DecimalNode.valueOf(max.add(BigDecimal.ONE).negate()), d(-Double.MAX_VALUE),
                DecimalNode.valueOf(max.subtract(BigDecimal.ONE).negate()));
    }

    @Test
    void strings() {
        // ordinal by UTF-16 code unit: a supplementary character (surrogates D800..DFFF) sorts below U+E000..U+FFFF
        assertAscending(s(""), s("\u0000"), s("\u0000\u0000"), s("\u0000a"), s("\u0001"), s("A"), s("Z"), s("a"),
                s("a\u0000"), s("a\u0000\u0000"), s("a\u0001"), s("aa"), s("ab"), s("b"), s("\u007F"), s("\u0080"),
                s("\u07FF"), s("\u0800"), s("\uD800"), s("\uD83D\uDE00"), s("\uDBFF\uDFFF"), s("\uDFFF"),
                s("\uE000"), s("\uFFFF"), s("\uFFFF\u0000"));
        assertTrue("\uD83D\uDE00".compareTo("\uE000") < 0);
        assertEquals(-1, ValueOrder.INSTANCE.compare(s("abc"), s("abd")));
        assertEquals(1, ValueOrder.INSTANCE.compare(s("b"), s("abc")));
    }

    @Test
    void arraysAndObjects() {
        assertAscending(j("[]"), j("[null]"), j("[false]"), j("[0]"), j("[0, 0]"), j("[0, \"a\"]"), j("[1]"),
                j("[\"\"]"), j("[[]]"), j("[[0]]"), j("[{}]"));
        assertSame(j("[1, 2.0]"), j("[1.0, 2]"));
        assertSame(j("{\"a\":1,\"b\":2}"), j("{\"b\":2.0,\"a\":1}"));
        assertAscending(j("{}"), j("{\"\":null}"), j("{\"a\":null}"), j("{\"a\":1}"), j("{\"a\":1,\"b\":0}"),
                j("{\"a\":2}"), j("{\"a\":[]}"), j("{\"a\":{}}"), j("{\"a\\u0000\":0}"), j("{\"aa\":0}"),
                j("{\"b\":null}"));
        // keys are compared before values: {"a":9} < {"b":0}
        assertLess(j("{\"a\":9}"), j("{\"b\":0}"));
        // a key that is a prefix of another key
        assertLess(j("{\"a\":\"zzz\"}"), j("{\"ab\":0}"));
    }

    @Test
    void queryEquality() {
        assertTrue(ValueOrder.equalsForQuery(IntNode.valueOf(5), d(5.0)));
        assertTrue(ValueOrder.equalsForQuery(j("{\"a\":[1,2]}"), j("{\"a\":[1.0,2]}")));
        assertFalse(ValueOrder.equalsForQuery(s("5"), IntNode.valueOf(5)));
        assertFalse(ValueOrder.equalsForQuery(MissingNode.getInstance(), MissingNode.getInstance()));
        assertFalse(ValueOrder.equalsForQuery(null, NullNode.getInstance()));
        assertTrue(ValueOrder.equalsForQuery(NullNode.getInstance(), NullNode.getInstance()));
        assertFalse(ValueOrder.equalsForQuery(l((1L << 53) + 1), d(0x1p53)));

        assertEquals(-1, ValueOrder.compareForQuery(IntNode.valueOf(1), d(1.5)));
        assertEquals(0, ValueOrder.compareForQuery(s("a"), s("a")));
        assertNull(ValueOrder.compareForQuery(IntNode.valueOf(1), s("1")));
        assertNull(ValueOrder.compareForQuery(j("[1]"), j("[2]")));
        assertNull(ValueOrder.compareForQuery(j("{}"), j("{}")));
        assertNull(ValueOrder.compareForQuery(MissingNode.getInstance(), MissingNode.getInstance()));
    }

    @Test
    void sortingAMixedList() {
        List<JsonNode> vs = new ArrayList<>(List.of(s("b"), IntNode.valueOf(2), NullNode.getInstance(),
                j("{\"x\":1}"), BooleanNode.TRUE, MissingNode.getInstance(), j("[1]"), d(1.5), s("a"),
                BooleanNode.FALSE));
        vs.sort(ValueOrder.INSTANCE);
        assertTrue(vs.get(0).isMissingNode());
        assertEquals("[null, false, true, 1.5, 2, \"a\", \"b\", [1], {\"x\":1}]", vs.subList(1, vs.size()).toString());
    }

    @Test
    void roundTrips() {
        for (JsonNode v : List.of(MissingNode.getInstance(), NullNode.getInstance(), BooleanNode.TRUE,
                BooleanNode.FALSE, IntNode.valueOf(0), d(-0.0), d(0.1), dec("0.1"), d(Double.NaN),
                d(Double.NEGATIVE_INFINITY), d(Double.POSITIVE_INFINITY), d(Double.MIN_VALUE), d(-Double.MAX_VALUE),
                l(Long.MIN_VALUE), l(Long.MAX_VALUE), l((1L << 53) + 1), l(-(1L << 53) - 1),
                big("123456789012345678901234567890"), dec("-123456789012345678901234567890.0987654321"),
                dec("1E+400"), dec("-1E+400"), dec("1E-400"), dec("1E+999999999"), dec("-1E-999999999"),
                s(""), s("\u0000"), s("a\u0000b"), s("\uD83D\uDE00"), s("\uDC00\uD800"), s("\u07FF\u0800\uFFFF"),
                j("[1, \"a\", [null, {}], {\"k\": [true]}]"), j("{\"\": {\"\\u0000\": -0.5}}"))) {
            assertRoundTrip(v);
        }
        byte[] e = IndexKeyEncoding.encode(d(5.0));
        JsonNode back = IndexKeyEncoding.decode(e, 0, e.length);
        assertTrue(back.isInt(), "5.0 decodes canonically as the integer 5");
        assertEquals(10, e.length, "a double costs tag + 8 + 1 bytes");
    }
}

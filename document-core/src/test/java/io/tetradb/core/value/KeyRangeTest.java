package io.tetradb.core.value;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Key ranges against a simulated index ({@code indexId · enc(value) · id} in a sorted map): every range predicate
 * must return exactly the items that filtering with Cosmos semantics returns.
 */
class KeyRangeTest {

    static final Comparator<byte[]> UNSIGNED = Arrays::compareUnsigned;
    static final byte[] INDEX_A = {0x01, 0x07};
    static final byte[] INDEX_B = {0x01, 0x08};
    static final char[] ALPHABET = {'\u0000', '\u0001', 'a', 'b', '\u00FF', '\uD83D', '\uDE00', '\uE000', '\uFFFF'};

    @Test
    void prefixEnd() {
        assertArrayEquals(new byte[] {1, 3}, IndexKeyEncoding.prefixEnd(new byte[] {1, 2}));
        assertArrayEquals(new byte[] {2}, IndexKeyEncoding.prefixEnd(new byte[] {1, (byte) 0xFF, (byte) 0xFF}));
        assertNull(IndexKeyEncoding.prefixEnd(new byte[] {(byte) 0xFF}));
        assertNull(IndexKeyEncoding.prefixEnd(new byte[0]));
    }

    @Test
    void startsWithIsAPrefixOfTheEncoding() {
        for (String p : List.of("", "a", "a\u0000", "\u0000", "\uD83D", "\uFFFF", "ab\u00FF")) {
            byte[] prefix = IndexKeyEncoding.encodeStringPrefix(p);
            for (String rest : List.of("", "\u0000", "x", "\uDE00", "\uFFFF\uFFFF")) {
                byte[] e = IndexKeyEncoding.encode(TextNode.valueOf(p + rest));
                assertTrue(Arrays.equals(prefix, 0, prefix.length, e, 0, prefix.length), p + rest);
                assertTrue(KeyRange.startsWith(p).contains(e));
            }
        }
        assertFalse(KeyRange.startsWith("ab").contains(IndexKeyEncoding.encode(TextNode.valueOf("a"))));
        assertFalse(KeyRange.startsWith("a").contains(IndexKeyEncoding.encode(TextNode.valueOf("b"))));
        assertFalse(KeyRange.startsWith("").contains(IndexKeyEncoding.encode(IntNode.valueOf(1))));
        assertFalse(KeyRange.startsWith("a").contains(IndexKeyEncoding.encode(JsonNodeFactory.instance.arrayNode()
                .add("a"))));
    }

    @Test
    void rangesAreConfinedToTheOperandType() {
        KeyRange gt = KeyRange.greaterThan(IntNode.valueOf(5));
        assertTrue(gt.contains(IndexKeyEncoding.encode(DoubleNode.valueOf(5.5))));
        assertFalse(gt.contains(IndexKeyEncoding.encode(IntNode.valueOf(5))));
        assertFalse(gt.contains(IndexKeyEncoding.encode(DoubleNode.valueOf(5.0))));
        assertFalse(gt.contains(IndexKeyEncoding.encode(TextNode.valueOf("6"))));
        KeyRange le = KeyRange.atMost(TextNode.valueOf("b"));
        assertTrue(le.contains(IndexKeyEncoding.encode(TextNode.valueOf("b"))));
        assertTrue(le.contains(IndexKeyEncoding.encode(TextNode.valueOf(""))));
        assertFalse(le.contains(IndexKeyEncoding.encode(IntNode.valueOf(1))));
        assertFalse(le.contains(IndexKeyEncoding.encode(NullNode.getInstance())));
        KeyRange eq = KeyRange.equalTo(IntNode.valueOf(5));
        assertTrue(eq.contains(IndexKeyEncoding.encode(DecimalNode.valueOf(new BigDecimal("5.000")))));
        assertTrue(KeyRange.between(IntNode.valueOf(1), TextNode.valueOf("z")).isEmpty());
        assertTrue(KeyRange.ofType(ValueOrder.RANK_BOOLEAN).contains(IndexKeyEncoding.encode(BooleanNode.TRUE)));
        assertFalse(KeyRange.ofType(ValueOrder.RANK_BOOLEAN).contains(IndexKeyEncoding.encode(IntNode.valueOf(0))));
    }

    @Test
    void rangeSeeksEqualFilteredScans() {
        long seed = Long.getLong("value.seed", 0x5EEDL);
        Random rnd = new Random(seed);
        List<JsonNode> items = new ArrayList<>();
        TreeMap<byte[], Integer> index = new TreeMap<>(UNSIGNED);
        for (int id = 0; id < 3000; id++) {
            JsonNode v = value(rnd);
            items.add(v);
            index.put(key(INDEX_A, v, id), id);
            index.put(key(INDEX_B, TextNode.valueOf("other"), id), id); // a neighbouring index must not leak in
        }
        int ran = 0;
        int nonEmpty = 0;
        for (int q = 0; q < 2000; q++) {
            JsonNode x = value(rnd);
            JsonNode y = value(rnd);
            int op = rnd.nextInt(7);
            if (x.isMissingNode() || (op > 0 && op < 6 && (x.isArray() || x.isObject()))) {
                continue;
            }
            KeyRange range;
            Predicate<JsonNode> filter;
            switch (op) {
                case 0:
                    range = KeyRange.equalTo(x);
                    filter = v -> ValueOrder.equalsForQuery(v, x);
                    break;
                case 1:
                    range = KeyRange.greaterThan(x);
                    filter = v -> Integer.valueOf(1).equals(ValueOrder.compareForQuery(v, x));
                    break;
                case 2:
                    range = KeyRange.atLeast(x);
                    filter = v -> ge(ValueOrder.compareForQuery(v, x));
                    break;
                case 3:
                    range = KeyRange.lessThan(x);
                    filter = v -> Integer.valueOf(-1).equals(ValueOrder.compareForQuery(v, x));
                    break;
                case 4:
                    range = KeyRange.atMost(x);
                    filter = v -> le(ValueOrder.compareForQuery(v, x));
                    break;
                case 5: {
                    JsonNode lo = ValueOrder.INSTANCE.compare(x, y) <= 0 ? x : y;
                    JsonNode hi = lo == x ? y : x;
                    if (hi.isArray() || hi.isObject() || hi.isMissingNode()) {
                        continue;
                    }
                    range = KeyRange.between(lo, hi);
                    filter = v -> ge(ValueOrder.compareForQuery(v, lo)) && le(ValueOrder.compareForQuery(v, hi));
                    break;
                }
                default: {
                    String p = x.isTextual() ? x.textValue().substring(0, rnd.nextInt(x.textValue().length() + 1))
                            : string(rnd);
                    range = KeyRange.startsWith(p);
                    filter = v -> v.isTextual() && v.textValue().startsWith(p);
                }
            }
            KeyRange scoped = range.withPrefix(INDEX_A);
            TreeSet<Integer> got = new TreeSet<>();
            Map<byte[], Integer> slice = scoped.end() == null
                    ? index.tailMap(scoped.start(), true)
                    : index.subMap(scoped.start(), true, scoped.end(), false);
            got.addAll(slice.values());
            TreeSet<Integer> want = new TreeSet<>();
            for (int id = 0; id < items.size(); id++) {
                if (filter.test(items.get(id))) {
                    want.add(id);
                }
            }
            int qq = q;
            ran++;
            nonEmpty += want.isEmpty() ? 0 : 1;
            assertEquals(want, got, () -> "seed " + seed + " query " + qq + " op " + op + " on " + x + " / " + y);
        }
    }

    @Test
    void compositeKeysWithDescendingComponents() {
        Random rnd = new Random(42);
        List<JsonNode[]> rows = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            rows.add(new JsonNode[] {value(rnd), value(rnd)});
        }
        boolean[] desc = {false, true};
        Comparator<JsonNode[]> byColumns = (a, b) -> {
            int c = ValueOrder.INSTANCE.compare(a[0], b[0]);
            return c != 0 ? c : -ValueOrder.INSTANCE.compare(a[1], b[1]);
        };
        for (int k = 0; k < 20000; k++) {
            JsonNode[] a = rows.get(rnd.nextInt(rows.size()));
            JsonNode[] b = rows.get(rnd.nextInt(rows.size()));
            byte[] ka = IndexKeyEncoding.encodeComposite(List.of(a), desc);
            byte[] kb = IndexKeyEncoding.encodeComposite(List.of(b), desc);
            assertEquals(Integer.signum(byColumns.compare(a, b)), Integer.signum(Arrays.compareUnsigned(ka, kb)),
                    () -> Arrays.toString(a) + " vs " + Arrays.toString(b));
            int split = IndexKeyEncoding.skip(ka, 0, false);
            assertEquals(0, ValueOrder.INSTANCE.compare(a[0], IndexKeyEncoding.decode(ka, 0, split)));
            assertEquals(0, ValueOrder.INSTANCE.compare(a[1],
                    IndexKeyEncoding.decode(ka, split, ka.length - split, true)));
        }
    }

    private static boolean ge(Integer c) {
        return c != null && c >= 0;
    }

    private static boolean le(Integer c) {
        return c != null && c <= 0;
    }

    private static byte[] key(byte[] indexId, JsonNode v, int id) {
        byte[] e = IndexKeyEncoding.encode(v);
        byte[] k = new byte[indexId.length + e.length + 4];
        System.arraycopy(indexId, 0, k, 0, indexId.length);
        System.arraycopy(e, 0, k, indexId.length, e.length);
        for (int i = 0; i < 4; i++) {
            k[indexId.length + e.length + i] = (byte) (id >>> (24 - 8 * i));
        }
        return k;
    }

    private static JsonNode value(Random rnd) {
        switch (rnd.nextInt(10)) {
            case 0:
                return MissingNode.getInstance();
            case 1:
                return NullNode.getInstance();
            case 2:
                return BooleanNode.valueOf(rnd.nextBoolean());
            case 3:
                return IntNode.valueOf(rnd.nextInt(21) - 10);
            case 4:
                return DoubleNode.valueOf((rnd.nextInt(41) - 20) / 4.0);
            case 5:
                return rnd.nextBoolean() ? LongNode.valueOf((1L << 53) + rnd.nextInt(5) - 2)
                        : DecimalNode.valueOf(BigDecimal.valueOf(rnd.nextInt(41) - 20, 1));
            case 6:
            case 7:
                return TextNode.valueOf(string(rnd));
            case 8:
                return JsonNodeFactory.instance.arrayNode().add(rnd.nextInt(3)).add(string(rnd));
            default:
                return JsonNodeFactory.instance.objectNode().put(string(rnd), rnd.nextInt(3));
        }
    }

    private static String string(Random rnd) {
        int n = rnd.nextInt(4);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append(ALPHABET[rnd.nextInt(ALPHABET.length)]);
        }
        return sb.toString();
    }
}

package io.tetradb.core.value;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The typed values in the one order: random values of every type (colliding pools), checked that the index key bytes
 * sort exactly as {@link ValueOrder} says, that equal values have equal keys, that keys are prefix-free and decode
 * to an equal value; and that {@link BsonOrder} is a total order that agrees with MongoDB's type order.
 */
class TypedValueOrderPropertyTest {
    static final int N = 6_000;

    @Test
    void indexKeysSortAsTheComparatorOverEveryType() {
        long seed = Long.getLong("value.seed", 0x17_7E7AL);
        Random rnd = new Random(seed);
        TypedValueGenerator g = new TypedValueGenerator(rnd);
        List<JsonNode> values = new ArrayList<>(N);
        for (int i = 0; i < N; i++) {
            values.add(g.value(0));
        }
        byte[][] enc = new byte[N][];
        for (int i = 0; i < N; i++) {
            enc[i] = IndexKeyEncoding.encode(values.get(i));
            JsonNode back = IndexKeyEncoding.decode(enc[i], 0, enc[i].length);
            if (ValueOrder.INSTANCE.compare(values.get(i), back) != 0
                    || !Arrays.equals(enc[i], IndexKeyEncoding.encode(back))) {
                fail("seed " + seed + ": " + values.get(i) + " came back as " + back);
            }
            byte[] desc = IndexKeyEncoding.encode(values.get(i), true);
            if (ValueOrder.INSTANCE.compare(values.get(i), IndexKeyEncoding.decode(desc, 0, desc.length, true)) != 0) {
                fail("seed " + seed + ": descending " + values.get(i));
            }
        }
        for (int k = 0; k < 1_500_000; k++) {
            int a = k < 1_000_000 ? (k / 1000) % N : rnd.nextInt(N);
            int b = k < 1_000_000 ? k % 1000 : rnd.nextInt(N);
            JsonNode x = values.get(a);
            JsonNode y = values.get(b);
            int c = Integer.signum(ValueOrder.INSTANCE.compare(x, y));
            int e = Integer.signum(Arrays.compareUnsigned(enc[a], enc[b]));
            if (c != e || Integer.signum(ValueOrder.INSTANCE.compare(y, x)) != -c) {
                fail("seed " + seed + ": compare(" + x + ", " + y + ") = " + c + " but bytes say " + e);
            }
            if (e != 0 && isProperPrefix(enc[a], enc[b])) {
                fail("seed " + seed + ": key of " + x + " is a prefix of that of " + y);
            }
        }
        // the BSON order is a total order too: sorting with it must give a sequence whose neighbours are ordered
        List<JsonNode> sorted = new ArrayList<>(values);
        sorted.sort(BsonOrder.INSTANCE);
        for (int k = 0; k + 2 < sorted.size(); k += 1) {
            JsonNode x = sorted.get(k);
            JsonNode y = sorted.get(k + 1);
            JsonNode z = sorted.get(k + 2);
            assertTrue(BsonOrder.INSTANCE.compare(x, y) <= 0 && BsonOrder.INSTANCE.compare(y, z) <= 0
                    && BsonOrder.INSTANCE.compare(x, z) <= 0, "BSON order not transitive at " + x + ", " + y + ", " + z);
            assertEquals(-Integer.signum(BsonOrder.INSTANCE.compare(x, y)),
                    Integer.signum(BsonOrder.INSTANCE.compare(y, x)));
        }
    }

    @Test
    void jsonTypesKeepCosmosOrderAndTypedValuesComeAfterObjects() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        List<JsonNode> ascending = List.of(MinKeyNode.INSTANCE, NullNode.getInstance(), f.booleanNode(true),
                IntNode.valueOf(5), TextNode.valueOf("a"), f.arrayNode(), f.objectNode(),
                BinaryDataNode.of(0, new byte[]{1}), ObjectIdNode.ofHex("000000000000000000000001"),
                DateTimeNode.ofEpochMillis(0), TimestampNode.of(1, 0), RegexNode.of("a", ""), MaxKeyNode.INSTANCE);
        for (int i = 0; i + 1 < ascending.size(); i++) {
            assertTrue(ValueOrder.compareValues(ascending.get(i), ascending.get(i + 1)) < 0, ascending.get(i) + " < "
                    + ascending.get(i + 1));
        }
        // numbers compare by value across every numeric type
        assertEquals(0, ValueOrder.compareValues(Decimal128Node.of(new BigDecimal("5.00")), LongNode.valueOf(5)));
        assertTrue(ValueOrder.compareValues(Decimal128Node.nan(), Decimal128Node.of(BigDecimal.ONE.negate())) < 0);
        assertArrayEquals(IndexKeyEncoding.encode(IntNode.valueOf(5)),
                IndexKeyEncoding.encode(Decimal128Node.of(new BigDecimal("5.0"))));
        // one instant at two offsets is one key; a UUID is the binary subtype 4 of its bytes
        assertArrayEquals(IndexKeyEncoding.encode(DateTimeNode.ofTicks(10)),
                IndexKeyEncoding.encode(DateTimeNode.ofTicks(10, 120)));
        UUID u = UUID.randomUUID();
        UuidNode un = UuidNode.of(u);
        assertEquals(0, ValueOrder.compareValues(un, BinaryDataNode.of(4, un.rawBytes())));
        // BSON: object before array, ObjectId before boolean, boolean before date
        List<JsonNode> bson = List.of(MinKeyNode.INSTANCE, NullNode.getInstance(), IntNode.valueOf(1),
                TextNode.valueOf("a"), f.objectNode(), f.arrayNode(), BinaryDataNode.of(0, new byte[0]),
                ObjectIdNode.ofHex("000000000000000000000001"), f.booleanNode(false), DateTimeNode.ofTicks(0),
                TimestampNode.of(0, 0), RegexNode.of("", ""), MaxKeyNode.INSTANCE);
        for (int i = 0; i + 1 < bson.size(); i++) {
            assertTrue(BsonOrder.INSTANCE.compare(bson.get(i), bson.get(i + 1)) < 0, bson.get(i) + " < " + bson.get(i + 1));
        }
        // BSON strings by code point: U+10000 (a surrogate pair) after U+FFFF; ValueOrder (UTF-16) the other way
        assertTrue(BsonOrder.INSTANCE.compare(TextNode.valueOf("\uD800\uDC00"), TextNode.valueOf("\uFFFF")) > 0);
        assertTrue(ValueOrder.compareValues(TextNode.valueOf("\uD800\uDC00"), TextNode.valueOf("\uFFFF")) < 0);
    }

    @Test
    void jsonViews() {
        assertEquals("\"1970-01-01T00:00:01.0000001Z\"", DateTimeNode.ofTicks(10_000_001).toString());
        assertEquals("\"1970-01-01T02:00:00.0000000+02:00\"", DateTimeNode.ofTicks(0, 120).toString());
        assertEquals("\"0123456789abcdef01234567\"", ObjectIdNode.ofHex("0123456789ABCDEF01234567").toString());
        assertEquals("\"AQI=\"", BinaryDataNode.of(0, new byte[]{1, 2}).toString());
        assertEquals(String.valueOf((5L << 32) | 7), TimestampNode.of(5, 7).toString());
        assertEquals("\"/a.b/im\"", RegexNode.of("a.b", "mi").toString());
        assertEquals("null", MaxKeyNode.INSTANCE.toString());
        assertEquals("1.50", Decimal128Node.of(new BigDecimal("1.50")).toString());
        assertEquals(ValueType.DECIMAL128, ValueType.of(Decimal128Node.of(BigDecimal.ONE)));
        assertEquals(ValueType.UUID, ValueType.of(UuidNode.of(new UUID(1, 2))));
        com.fasterxml.jackson.databind.node.ObjectNode doc = JsonNodeFactory.instance.objectNode();
        doc.set("when", DateTimeNode.ofEpochMillis(1000));
        doc.putArray("ids").add(ObjectIdNode.ofHex("0123456789abcdef01234567"));
        assertEquals("{\"when\":\"1970-01-01T00:00:01.0000000Z\",\"ids\":[\"0123456789abcdef01234567\"]}",
                TypedValues.jsonView(doc).toString());
    }

    private static void assertArrayEquals(byte[] a, byte[] b) {
        org.junit.jupiter.api.Assertions.assertArrayEquals(a, b);
    }

    private static boolean isProperPrefix(byte[] p, byte[] x) {
        return p.length < x.length && Arrays.equals(p, 0, p.length, x, 0, p.length)
                || x.length < p.length && Arrays.equals(x, 0, x.length, p, 0, x.length);
    }
}

package io.tetradb.core.value;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.FloatNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Random;

/**
 * Random values of every type of the core's model, drawn from small pools so that values collide within and across
 * types (5 as Int32 / Int64 / Double / Decimal128, the same instant at two offsets, a UUID and the binary of its
 * bytes). Used by the order / index key property test and the binary item round-trip test.
 */
public final class TypedValueGenerator {
    static final char[] ALPHABET = {'\u0000', 'a', 'b', 'z', '\u007F', '\u0080', '\u07FF', '\u0800', '\uD800',
            '\uDBFF', '\uDC00', '\uDFFF', '\uE000', '\uFFFF'};

    private final Random rnd;
    private final JsonNodeFactory f = JsonNodeFactory.instance;

    public TypedValueGenerator(Random rnd) {
        this.rnd = rnd;
    }

    /** A random document (an object of up to 12 fields). */
    public ObjectNode document() {
        ObjectNode o = f.objectNode();
        int n = rnd.nextInt(13);
        for (int i = 0; i < n; i++) {
            o.set(rnd.nextInt(3) == 0 ? string() : "f" + rnd.nextInt(20), value(1));
        }
        return o;
    }

    public JsonNode value(int depth) {
        int k = rnd.nextInt(depth < 3 ? 100 : 88);
        if (k < 3) {
            return NullNode.getInstance();
        }
        if (k < 6) {
            return BooleanNode.valueOf(rnd.nextBoolean());
        }
        if (k < 36) {
            return number();
        }
        if (k < 52) {
            return TextNode.valueOf(string());
        }
        if (k < 88) {
            return typed();
        }
        if (k < 94) {
            ArrayNode a = f.arrayNode();
            int n = rnd.nextInt(4);
            for (int i = 0; i < n; i++) {
                a.add(value(depth + 1));
            }
            return a;
        }
        ObjectNode o = f.objectNode();
        int n = rnd.nextInt(4);
        for (int i = 0; i < n; i++) {
            o.set(string(), value(depth + 1));
        }
        return o;
    }

    public String string() {
        int n = rnd.nextInt(5);
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            sb.append(rnd.nextInt(4) == 0 ? (char) rnd.nextInt(0x10000) : ALPHABET[rnd.nextInt(ALPHABET.length)]);
        }
        return sb.toString();
    }

    public JsonNode number() {
        long small = rnd.nextInt(11) - 5;
        switch (rnd.nextInt(12)) {
            case 0:
                return IntNode.valueOf((int) small);
            case 1:
                return LongNode.valueOf(rnd.nextBoolean() ? small : (1L << 53) + rnd.nextInt(3) - 1);
            case 2:
                return DoubleNode.valueOf(rnd.nextBoolean() ? small : small / 4.0);
            case 3: {
                double[] sp = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0, 0.1, 0x1p53};
                return DoubleNode.valueOf(sp[rnd.nextInt(sp.length)]);
            }
            case 4:
                return FloatNode.valueOf(rnd.nextBoolean() ? small : 0.1f);
            case 5:
                return BigIntegerNode.valueOf(BigInteger.valueOf(small).shiftLeft(rnd.nextInt(80)));
            case 6:
                return DecimalNode.valueOf(BigDecimal.valueOf(small * 25, rnd.nextInt(3)));
            case 7:
                return Decimal128Node.of(BigDecimal.valueOf(small * 25, rnd.nextInt(3)));
            case 8:
                return Decimal128Node.of(new BigDecimal(new BigInteger(100, rnd), rnd.nextInt(200) - 100));
            case 9: {
                int s = rnd.nextInt(3);
                return s == 0 ? Decimal128Node.nan() : s == 1 ? Decimal128Node.positiveInfinity()
                        : Decimal128Node.negativeInfinity();
            }
            case 10:
                return DoubleNode.valueOf(Double.longBitsToDouble(rnd.nextLong()));
            default:
                return LongNode.valueOf(rnd.nextLong());
        }
    }

    public JsonNode typed() {
        switch (rnd.nextInt(9)) {
            case 0: {
                long ticks = (rnd.nextInt(5) - 2) * 10_000_000_000L + rnd.nextInt(3);
                if (rnd.nextInt(4) == 0) {
                    ticks = rnd.nextLong() >> 8;
                }
                return rnd.nextBoolean() ? DateTimeNode.ofTicks(ticks)
                        : DateTimeNode.ofTicks(ticks, (rnd.nextInt(5) - 2) * 90);
            }
            case 1: {
                byte[] b = new byte[rnd.nextInt(4) == 0 ? 16 : rnd.nextInt(4)];
                fill(b);
                return BinaryDataNode.of(rnd.nextInt(3) == 0 ? BinaryDataNode.SUBTYPE_UUID : rnd.nextInt(3), b);
            }
            case 2: {
                byte[] b = new byte[16];
                fill(b);
                return UuidNode.of(b);
            }
            case 3: {
                byte[] b = new byte[12];
                fill(b);
                return ObjectIdNode.of(b);
            }
            case 4:
                return TimestampNode.of(rnd.nextInt(3) == 0 ? 0xFFFFFFFFL : rnd.nextInt(4), rnd.nextInt(3));
            case 5:
                return RegexNode.of(string().replace('\0', 'x'), rnd.nextBoolean() ? "" : "mi");
            case 6:
                return MinKeyNode.INSTANCE;
            case 7:
                return MaxKeyNode.INSTANCE;
            default:
                return DateTimeNode.ofEpochMillis(rnd.nextInt(5) * 1000L);
        }
    }

    /** Bytes from a tiny pool so equal values turn up. */
    private void fill(byte[] b) {
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (rnd.nextInt(3) == 0 ? 0xFF : rnd.nextInt(3));
        }
    }
}

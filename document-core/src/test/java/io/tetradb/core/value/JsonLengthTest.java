package io.tetradb.core.value;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link JsonLength} equals the length of Jackson's own compact text, for every kind of value. */
class JsonLengthTest {
    static final ObjectMapper M = new ObjectMapper();
    static final JsonNodeFactory F = JsonNodeFactory.instance;

    @Test
    void equalsTheLengthOfTheWrittenText() throws Exception {
        for (String json : new String[] {
                "{}", "[]", "null", "true", "false", "0", "-7", "9223372036854775807", "-9223372036854775808",
                "1.5", "-0.0", "1e300", "123456789012345678901234567890", "\"\"", "\"a\\\"b\\\\c\\n\\t\\u0001\"",
                "{\"a\":[1,2,{\"b\":null}],\"c\":\"é ü 😀\",\"d\":{\"e\":[],\"f\":{}}}"}) {
            JsonNode n = M.readTree(json);
            assertEquals(n.toString().length(), JsonLength.of(n), json);
        }
        assertEquals(F.numberNode(new BigDecimal("1.10")).toString().length(),
                JsonLength.of(F.numberNode(new BigDecimal("1.10"))));
        assertEquals(F.numberNode(BigInteger.TEN.pow(30)).toString().length(),
                JsonLength.of(F.numberNode(BigInteger.TEN.pow(30))));
        assertEquals(F.numberNode(2.5f).toString().length(), JsonLength.of(F.numberNode(2.5f)));
    }

    @Test
    void doublesOfEveryMagnitude() {
        Random r = new Random(5);
        for (int i = 0; i < 100_000; i++) {
            double d = i % 2 == 0 ? Double.longBitsToDouble(r.nextLong()) : r.nextInt(1_000_000) / 100.0;
            JsonNode n = F.numberNode(d);
            assertEquals(n.toString().length(), JsonLength.of(n), n.toString());
        }
        for (double d : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE,
                Double.MAX_VALUE, -0.0, 0.0, 1e-7, 1e7, 123456789.0}) {
            assertEquals(F.numberNode(d).toString().length(), JsonLength.of(F.numberNode(d)), String.valueOf(d));
        }
    }

    @Test
    void randomTrees() {
        Random r = new Random(42);
        for (int i = 0; i < 500; i++) {
            JsonNode n = random(r, 4);
            assertEquals(n.toString().length(), JsonLength.of(n), n.toString());
        }
    }

    private static JsonNode random(Random r, int depth) {
        switch (r.nextInt(depth == 0 ? 5 : 7)) {
            case 0: return F.numberNode(r.nextLong() >> r.nextInt(64));
            case 1: return F.numberNode(r.nextDouble() * Math.pow(10, r.nextInt(40) - 20));
            case 2: {
                StringBuilder sb = new StringBuilder();
                for (int k = r.nextInt(8); k > 0; k--) {
                    sb.append((char) (r.nextInt(4) == 0 ? r.nextInt(0x30) : r.nextInt(0x3000)));
                }
                return F.textNode(sb.toString());
            }
            case 3: return F.booleanNode(r.nextBoolean());
            case 4: return F.nullNode();
            case 5: {
                var o = F.objectNode();
                for (int k = r.nextInt(4); k > 0; k--) {
                    o.set("k" + r.nextInt(100) + (r.nextBoolean() ? "\"" : ""), random(r, depth - 1));
                }
                return o;
            }
            default: {
                var a = F.arrayNode();
                for (int k = r.nextInt(4); k > 0; k--) {
                    a.add(random(r, depth - 1));
                }
                return a;
            }
        }
    }
}

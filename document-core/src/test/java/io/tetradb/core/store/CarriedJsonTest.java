package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * An edge's carried properties written without Jackson's generator ({@link CarriedJson}) are byte for byte what the
 * store's mapper writes, and everything it does not write plainly (escapes, non-ASCII, doubles, nested values) is
 * left to the mapper.
 */
class CarriedJsonTest {
    private static final ObjectMapper STORE_MAPPER = new ItemCodec(new ObjectMapper(), 64).mapper();

    @Test
    void plainObjectsAreTheMappersBytes() throws Exception {
        Random random = new Random(18);
        int written = 0;
        for (int round = 0; round < 2_000; round++) {
            ObjectNode o = STORE_MAPPER.createObjectNode();
            for (int f = random.nextInt(5); f > 0; f--) {
                String name = text(random, round % 7 == 0);
                switch (random.nextInt(7)) {
                    case 0 -> o.put(name, random.nextInt());
                    case 1 -> o.put(name, random.nextLong());
                    case 2 -> o.put(name, random.nextBoolean());
                    case 3 -> o.putNull(name);
                    case 4 -> o.put(name, random.nextInt(3) - 1 + (random.nextBoolean() ? Integer.MIN_VALUE : 0));
                    case 5 -> o.put(name, random.nextInt(10) == 0 ? random.nextDouble() : random.nextInt(20_000));
                    default -> o.put(name, text(random, round % 5 == 0));
                }
            }
            byte[] plain = CarriedJson.of(o);
            byte[] mapper = STORE_MAPPER.writeValueAsBytes(o);
            if (plain != null) {
                assertArrayEquals(mapper, plain, o.toString());
                written++;
            }
        }
        assertEquals(true, written > 1_000, "the plain path wrote " + written + " of 2,000");
        assertNotNull(CarriedJson.of((ObjectNode) STORE_MAPPER.readTree("{\"dist\":4373}")));
        assertArrayEquals("{}".getBytes(), CarriedJson.of(STORE_MAPPER.createObjectNode()));
    }

    @Test
    void whatNeedsFormattingIsLeftToTheMapper() throws Exception {
        for (String json : new String[] {"{\"a\":1.5}", "{\"a\":\"x\\\"y\"}", "{\"a\":\"\\\\\"}", "{\"a\":\"é\"}",
                "{\"é\":1}", "{\"a\":\"\\n\"}", "{\"a\":[1]}", "{\"a\":{\"b\":1}}", "{\"a\\u0001\":1}"}) {
            assertNull(CarriedJson.of((ObjectNode) STORE_MAPPER.readTree(json)), json);
        }
    }

    /** Printable ASCII mostly; with {@code awkward}, now and then a character JSON escapes or a non-ASCII one. */
    private static String text(Random random, boolean awkward) {
        StringBuilder s = new StringBuilder();
        for (int i = random.nextInt(8); i > 0; i--) {
            int r = random.nextInt(awkward ? 10 : 9);
            s.append(r < 9 ? (char) (0x20 + random.nextInt(0x5f)) : "\"\\\n\u0001é\u2028".charAt(random.nextInt(6)));
        }
        return s.toString();
    }
}

package io.tetradb.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.item.BinaryItemWriter;
import io.tetradb.core.item.PlainJsonFields;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * graph-load3: an edge's carried properties written straight from its TB1 bytes ({@link PlainJsonFields}) are the
 * bytes the tree's path writes (the store's mapper over the kept fields), and the straight path is taken whenever
 * every kept value is plain.
 */
class CarriedPropertiesTest {
    private static final ObjectMapper MAPPER = new ItemCodec(new ObjectMapper(), 64).mapper();
    private static final List<String> NAMES = List.of("dist", "code", "a", "x y", "q\"uote", "back\\slash", "é",
            "tab\t", "pk", "label", "w", "~");
    private static final Set<String> LEFT_OUT = Set.of("pk", "label");

    @Test
    void plainFieldsAreTheTreesJsonAndEverythingElseFallsBack() throws Exception {
        Random random = new Random(18);
        int straight = 0;
        for (int round = 0; round < 5_000; round++) {
            ObjectNode item = MAPPER.createObjectNode();
            for (int n = random.nextInt(6); n > 0; n--) {
                item.set(NAMES.get(random.nextInt(NAMES.size())), value(random));
            }
            ObjectNode kept = MAPPER.createObjectNode();
            item.fields().forEachRemaining(f -> {
                if (!LEFT_OUT.contains(f.getKey())) {
                    kept.set(f.getKey(), f.getValue());
                }
            });
            int max = random.nextBoolean() ? 512 : 8 + random.nextInt(40);
            byte[] actual = PlainJsonFields.of(BinaryItemWriter.encode(item), 0, (b, from, length) ->
                    !LEFT_OUT.contains(new String(b, from, length, StandardCharsets.UTF_8)), max);
            byte[] json = kept.isEmpty() ? new byte[0] : MAPPER.writeValueAsBytes(kept);
            boolean plain = kept.isEmpty() || allPlain(kept);
            if (plain && json.length <= max) {
                assertNotNull(actual, "plain fields take the straight path: " + kept);
                straight++;
            }
            if (actual != null) {
                assertTrue(GraphAdjacency.JsonFaithful.holds(kept), "only fields JSON gives back: " + kept);
                assertTrue(actual.length <= max);
                assertArrayEquals(json, actual, () -> kept + " as " + new String(actual, StandardCharsets.UTF_8));
            }
        }
        assertTrue(straight > 1_000, "rounds on the straight path: " + straight);
    }

    @Test
    void anEdgesDistanceIsWrittenAsTheMapperWritesIt() {
        ObjectNode item = MAPPER.createObjectNode().put("id", "e1").put("dist", -4_021).put("code", "AUS")
                .put("far", 5_000_000_000L).put("open", true);
        byte[] actual = PlainJsonFields.of(BinaryItemWriter.encode(item), 0,
                (b, from, length) -> length != 2, 512);
        assertEquals("{\"dist\":-4021,\"code\":\"AUS\",\"far\":5000000000,\"open\":true}",
                new String(actual, StandardCharsets.UTF_8));
        assertEquals(0, PlainJsonFields.of(BinaryItemWriter.encode(item), 0, (b, from, length) -> false, 512).length);
    }

    private static boolean allPlain(ObjectNode kept) {
        for (var it = kept.fields(); it.hasNext(); ) {
            var f = it.next();
            JsonNode v = f.getValue();
            boolean plain = v.isInt() || v.isLong() && !v.canConvertToInt() || v.isBoolean()
                    || v.isTextual() && printable(v.textValue());
            if (!plain || !printable(f.getKey())) {
                return false;
            }
        }
        return true;
    }

    private static boolean printable(String s) {
        return s.chars().allMatch(c -> c >= 0x20 && c <= 0x7E && c != '"' && c != '\\');
    }

    private static JsonNode value(Random random) {
        return switch (random.nextInt(11)) {
            case 0, 1 -> IntNode.valueOf(random.nextInt());
            case 2 -> IntNode.valueOf(random.nextInt(20_000) - 10_000);
            case 3 -> LongNode.valueOf(random.nextBoolean() ? random.nextLong()
                    : random.nextInt(3) == 0 ? Long.MIN_VALUE : random.nextInt(1000));
            case 4 -> BooleanNode.valueOf(random.nextBoolean());
            case 5, 6 -> TextNode.valueOf(ascii(random));
            case 7 -> TextNode.valueOf(ascii(random) + "\"\\\n\u0001é\u2028".charAt(random.nextInt(6)));
            case 8 -> DoubleNode.valueOf(random.nextDouble() * 1e6);
            case 9 -> NullNode.instance;
            default -> MAPPER.createObjectNode().put("n", random.nextInt(10));
        };
    }

    private static String ascii(Random random) {
        char[] c = new char[random.nextInt(12)];
        for (int i = 0; i < c.length; i++) {
            c[i] = (char) (0x20 + random.nextInt(0x5F));
        }
        return new String(c);
    }
}

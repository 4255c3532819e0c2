package io.tetradb.core.item;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.value.TypedValueGenerator;
import org.junit.jupiter.api.Test;

import java.util.Iterator;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Random typed documents through the binary item format: decode(encode(d)) equals d exactly (same node types, same
 * field order), every top-level field and every nested path found by the field tables equals the tree's, absent
 * fields are not found, and a skip lands exactly at the end.
 */
class BinaryItemRoundTripTest {

    @Test
    void randomTypedDocumentsRoundTripAndEveryPathIsFound() {
        long seed = Long.getLong("value.seed", 0x1717L);
        TypedValueGenerator g = new TypedValueGenerator(new Random(seed));
        BinaryItemWriter writer = new BinaryItemWriter(64, 256);
        for (int i = 0; i < 20_000; i++) {
            ObjectNode doc = g.document();
            byte[] b = writer.write(doc);
            try {
                ObjectNode back = BinaryItemReader.readObject(b, 0);
                assertEquals(doc, back);
                assertEquals(fieldOrder(doc), fieldOrder(back));
                assertEquals(b.length, BinaryItemReader.skip(b, 0));
                checkPaths(b, 0, doc);
                assertEquals(-1, BinaryItemReader.find(b, 0, "no such field \u0000"));
            } catch (AssertionError | RuntimeException e) {
                fail(printable("seed " + seed + ", document " + i + ": " + doc + ": " + e), e);
            }
        }
    }

    /** Fails for {@code doc}, the {@code i}-th of the run of {@code seed}, shown cut at 2,000 chars, printable. */
    static void failFor(long seed, int i, JsonNode doc, Throwable e) {
        String shown = doc.toString();
        fail(printable("seed " + seed + ", document " + i + ": "
                + (shown.length() > 2000 ? shown.substring(0, 2000) + "…" : shown) + ": " + e), e);
    }

    /** Control characters escaped (the generated strings hold NULs, which cut reports short). */
    static String printable(String s) {
        StringBuilder sb = new StringBuilder();
        for (char c : s.toCharArray()) {
            sb.append(c < 0x20 || c >= 0x7F ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return sb.toString();
    }

    private static void checkPaths(byte[] b, int off, JsonNode v) {
        if (v.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                int at = BinaryItemReader.find(b, off, f.getKey());
                assertTrue(at > 0, "field " + f.getKey() + " not found");
                assertEquals(f.getValue(), BinaryItemReader.read(b, at));
                checkPaths(b, at, f.getValue());
            }
        } else if (v.isArray()) {
            for (int i = 0; i < v.size(); i++) {
                int at = BinaryItemReader.element(b, off, i);
                assertEquals(v.get(i), BinaryItemReader.read(b, at));
                checkPaths(b, at, v.get(i));
            }
            assertEquals(-1, BinaryItemReader.element(b, off, v.size()));
        }
    }

    private static String fieldOrder(JsonNode v) {
        StringBuilder sb = new StringBuilder();
        v.fieldNames().forEachRemaining(n -> sb.append(n).append('|'));
        return sb.toString();
    }

    @Test
    void jsonItemsRoundTripAndNestedPathsResolve() throws Exception {
        ObjectMapper m = new ObjectMapper();
        ObjectNode item = (ObjectNode) m.readTree("{\"id\":\"a1\",\"deviceId\":\"dev-7\",\"seq\":12345678901,"
                + "\"t\":21.5,\"ok\":true,\"none\":null,\"location\":{\"site\":\"s-1\",\"geo\":{\"lat\":1.5}},"
                + "\"tags\":[\"x\",{\"k\":\"v\"}],\"big\":123456789012345678901234567890,\"\u00e9t\u00e9\":\"\u2603\"}");
        byte[] b = BinaryItemWriter.encode(item);
        assertEquals(item, BinaryItemReader.read(b, 0));
        assertEquals("dev-7", BinaryItemReader.path(b, 0, "deviceId").textValue());
        assertEquals(1.5, BinaryItemReader.path(b, 0, "location", "geo", "lat").doubleValue());
        assertEquals("v", BinaryItemReader.path(b, 0, "tags", 1, "k").textValue());
        assertEquals("\u2603", BinaryItemReader.path(b, 0, "\u00e9t\u00e9").textValue());
        assertEquals(MissingNode.getInstance(), BinaryItemReader.path(b, 0, "location", "nope"));
        assertEquals(MissingNode.getInstance(), BinaryItemReader.path(b, 0, "deviceId", "x"));
    }

    @Test
    void largeObjectsUseWideOffsetsAndDeepNestingIsRefused() {
        ObjectNode big = new ObjectMapper().createObjectNode();
        for (int i = 0; i < 300; i++) {
            big.put("k" + i, "v".repeat(300));
        }
        byte[] b = BinaryItemWriter.encode(big);
        assertEquals(0x21, b[0]);
        assertEquals(big, BinaryItemReader.read(b, 0));
        assertEquals("v".repeat(300), BinaryItemReader.path(b, 0, "k299").textValue());

        ObjectNode deep = new ObjectMapper().createObjectNode();
        ObjectNode at = deep;
        for (int i = 0; i < 20; i++) {
            at = at.putObject("d");
        }
        assertThrows(IllegalArgumentException.class, () -> new BinaryItemWriter(64, 10).write(deep));
    }
}

package io.tetradb.core.item;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.value.BinaryDataNode;
import io.tetradb.core.value.DateTimeNode;
import io.tetradb.core.value.Decimal128Node;
import io.tetradb.core.value.ObjectIdNode;
import io.tetradb.core.value.RegexNode;
import io.tetradb.core.value.TimestampNode;
import io.tetradb.core.value.TypedValueGenerator;
import io.tetradb.core.value.UuidNode;
import io.tetradb.core.value.ValueType;
import org.junit.jupiter.api.Test;

import java.util.Iterator;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The event writer ({@link BinaryItemStreamWriter}) and the JSON token encoder ({@link JsonItemEncoder}) write the
 * bytes the tree writer writes for the same item: random typed documents driven as events, random JSON texts (nested
 * arrays and objects, long and non-ASCII strings, escapes, every integer size, fractions) through a parser; objects
 * of 64 KiB and more (wide tables); repeated names refused; the nesting limit kept.
 */
class BinaryItemStreamWriterTest {
    private static final ObjectMapper M = new ObjectMapper();

    @Test
    void typedDocumentsAsEventsGiveTheTreeWritersBytes() {
        long seed = Long.getLong("value.seed", 0x5717L);
        TypedValueGenerator g = new TypedValueGenerator(new Random(seed));
        BinaryItemWriter tree = new BinaryItemWriter(64, 256);
        BinaryItemStreamWriter events = new BinaryItemStreamWriter(16, 256);
        for (int i = 0; i < 20_000; i++) {
            ObjectNode doc = g.document();
            events.reset();
            try {
                drive(doc, events);
                assertArrayEquals(tree.write(doc), events.toByteArray());
            } catch (AssertionError | RuntimeException e) {
                fail(BinaryItemRoundTripTest.printable("seed " + seed + ", document " + i + ": " + doc + ": " + e), e);
            }
        }
    }

    @Test
    void jsonTextThroughTheParserGivesTheTreeWritersBytes() throws Exception {
        long seed = Long.getLong("value.seed", 0x7517L);
        Random rnd = new Random(seed);
        BinaryItemWriter tree = new BinaryItemWriter(64, 256);
        BinaryItemStreamWriter events = new BinaryItemStreamWriter(16, 256);
        for (int i = 0; i < 5_000; i++) {
            String text = object(rnd, 1).append("").toString();
            try {
                ObjectNode expected = (ObjectNode) M.readTree(text);
                int flags;
                try (JsonParser p = M.getFactory().createParser(text.getBytes(java.nio.charset.StandardCharsets.UTF_8))) {
                    p.nextToken();
                    flags = JsonItemEncoder.encode(p, events);
                }
                boolean dropped = false;
                for (String s : new String[]{"_rid", "_self", "_etag", "_attachments", "_ts"}) {
                    dropped |= expected.remove(s) != null;
                }
                assertArrayEquals(tree.write(expected), events.toByteArray());
                assertEquals(dropped, (flags & JsonItemEncoder.DROPPED_SYSTEM_PROPERTY) != 0);
            } catch (AssertionError | Exception e) {
                fail(BinaryItemRoundTripTest.printable("seed " + seed + ", text " + i + ": " + text + ": " + e), e);
            }
        }
    }

    /**
     * mongo-net: keys are sorted by an 8-byte prefix first; names sharing their first 8 bytes, shorter than 8, with
     * a NUL or bytes above 0x7F, and repeated names that differ only after the eighth byte, order and are refused as
     * the tree writer orders and refuses them.
     */
    @Test
    void keysSharingTheirFirstEightBytesSortAsTheTreeWritersKeys() {
        Random rnd = new Random(0x8B17L);
        String[] stems = {"", "a", "ab", "ab\u0000", "abcdefg", "abcdefgh", "abcdefghi", "abcdefgh\u00e9", "\u00e9",
                "\u00ff\u00ff", "zzzzzzzzzzzz", "abcdefgi"};
        BinaryItemWriter tree = new BinaryItemWriter(64, 256);
        BinaryItemStreamWriter events = new BinaryItemStreamWriter(16, 256);
        for (int i = 0; i < 2_000; i++) {
            ObjectNode doc = M.createObjectNode();
            int n = 1 + rnd.nextInt(20);
            for (int k = 0; k < n; k++) {
                String name = stems[rnd.nextInt(stems.length)] + (rnd.nextBoolean() ? "" : (char) ('a' + rnd.nextInt(3)));
                doc.put(name, k);
            }
            events.reset();
            drive(doc, events);
            assertArrayEquals(tree.write(doc), events.toByteArray(), doc.toString());
        }
        for (String twice : new String[]{"abcdefghij", "abcdefgh", "ab", ""}) {
            BinaryItemStreamWriter w = new BinaryItemStreamWriter(16, 256);
            w.startObject();
            w.name(twice + "x");
            w.int32(1);
            w.name(twice + "y");
            w.int32(2);
            w.name(twice + "x");
            w.int32(3);
            assertThrows(BinaryItemStreamWriter.DuplicateFieldException.class, w::endObject, twice);
        }
    }

    @Test
    void wideObjectsRepeatedNamesAndTheNestingLimit() throws Exception {
        ObjectNode big = M.createObjectNode();
        for (int i = 0; i < 40; i++) {
            big.put("f" + i, "x".repeat(2000)); // 80 KB of entries: u32 offsets
        }
        big.putObject("inner").put("a", 1).putArray("b").add("c");
        BinaryItemStreamWriter w = new BinaryItemStreamWriter(16, 256);
        drive(big, w);
        assertArrayEquals(BinaryItemWriter.encode(big), w.toByteArray());
        assertEquals(big, BinaryItemReader.readObject(w.toByteArray(), 0));

        try (JsonParser p = M.getFactory().createParser("{\"a\":1,\"b\":{\"x\":1,\"x\":2}}")) {
            p.nextToken();
            assertThrows(BinaryItemStreamWriter.DuplicateFieldException.class, () -> JsonItemEncoder.encode(p, w));
        }
        BinaryItemStreamWriter shallow = new BinaryItemStreamWriter(16, 3);
        try (JsonParser p = M.getFactory().createParser("{\"a\":{\"b\":{\"c\":{}}}}")) {
            p.nextToken();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> JsonItemEncoder.encode(p, shallow));
            assertEquals("the item is nested too deeply: more than 3 levels", e.getMessage());
        }
    }

    /** Random JSON text: names and strings with escapes and non-ASCII, numbers of every size, no repeated name. */
    private static StringBuilder object(Random rnd, int depth) {
        StringBuilder sb = new StringBuilder("{");
        int n = rnd.nextInt(depth == 1 ? 14 : 5);
        java.util.Set<String> names = new java.util.HashSet<>();
        for (int i = 0; i < n; i++) {
            String name = rnd.nextInt(10) == 0 ? new String[]{"_rid", "_ts", "_etag", "_self", "_attachments"}[rnd.nextInt(5)]
                    : string(rnd, 6);
            if (!names.add(name)) {
                continue;
            }
            if (sb.length() > 1) {
                sb.append(',');
            }
            sb.append(quote(name)).append(':').append(value(rnd, depth));
        }
        return sb.append('}');
    }

    private static String value(Random rnd, int depth) {
        int k = rnd.nextInt(depth < 4 ? 12 : 10);
        switch (k) {
            case 0: return "null";
            case 1: return rnd.nextBoolean() ? "true" : "false";
            case 2: return Integer.toString(rnd.nextInt());
            case 3: return Long.toString(rnd.nextLong());
            case 4: return new java.math.BigInteger(80, rnd).negate().toString();
            case 5: return Double.toString(rnd.nextDouble() * Math.pow(10, rnd.nextInt(40) - 20));
            case 6: return "1.5e" + (rnd.nextInt(700) - 350);
            case 7: case 8: return quote(string(rnd, rnd.nextInt(5) == 0 ? 300 : 8));
            case 9: return quote("");
            case 10: {
                StringBuilder sb = new StringBuilder("[");
                for (int i = rnd.nextInt(4); i > 0; i--) {
                    sb.append(value(rnd, depth + 1)).append(i > 1 ? "," : "");
                }
                return sb.append(']').toString();
            }
            default: return object(rnd, depth + 1).toString();
        }
    }

    private static final String[] UNITS = {"a", "Z", "\u00e9", "\u20ac", "\uD83D\uDE00", "\"", "\\", "\n", "\u0000", "\u0001"};

    private static String string(Random rnd, int max) {
        StringBuilder sb = new StringBuilder();
        for (int i = rnd.nextInt(max + 1); i > 0; i--) {
            sb.append(UNITS[rnd.nextInt(UNITS.length)]);
        }
        return sb.toString();
    }

    private static String quote(String s) {
        try {
            return M.writeValueAsString(s);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Drives a tree through the event writer. */
    static void drive(JsonNode v, BinaryItemStreamWriter w) {
        switch (ValueType.of(v)) {
            case NULL -> w.nullValue();
            case BOOLEAN -> w.bool(v.booleanValue());
            case INT32 -> w.int32(v.intValue());
            case INT64 -> w.int64(v.longValue());
            case DOUBLE -> w.float64(v.doubleValue());
            case FLOAT -> w.float32(v.floatValue());
            case BIG_INTEGER -> w.bigInteger(v.bigIntegerValue());
            case BIG_DECIMAL -> w.bigDecimal(v.decimalValue());
            case DECIMAL128 -> {
                if (v instanceof Decimal128Node) {
                    w.decimal128(v.decimalValue());
                } else {
                    double d = v.doubleValue();
                    w.decimal128Special(Double.isNaN(d) ? 0 : d > 0 ? 1 : 2);
                }
            }
            case STRING -> {
                String s = v.textValue();
                if (s.length() % 2 == 0) {
                    w.string(s);
                } else {
                    w.string(s.toCharArray(), 0, s.length());
                }
            }
            case ARRAY -> {
                w.startArray();
                for (JsonNode e : v) {
                    drive(e, w);
                }
                w.endArray();
            }
            case OBJECT -> {
                w.startObject();
                for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> f = it.next();
                    w.name(f.getKey());
                    drive(f.getValue(), w);
                }
                w.endObject();
            }
            case DATE_TIME -> {
                DateTimeNode d = (DateTimeNode) v;
                w.dateTime(d.ticks(), d.hasOffset() ? d.offsetMinutes() : DateTimeNode.NO_OFFSET);
            }
            case BINARY -> w.binary(((BinaryDataNode) v).subtype(), ((BinaryDataNode) v).bytes());
            case OBJECT_ID -> w.objectId(((ObjectIdNode) v).bytes());
            case UUID -> w.uuid(((UuidNode) v).uuid().getMostSignificantBits(),
                    ((UuidNode) v).uuid().getLeastSignificantBits());
            case TIMESTAMP -> w.timestamp(((TimestampNode) v).value());
            case REGEX -> w.regex(((RegexNode) v).pattern(), ((RegexNode) v).options());
            case MIN_KEY -> w.minKey();
            case MAX_KEY -> w.maxKey();
            default -> throw new AssertionError(v);
        }
    }
}

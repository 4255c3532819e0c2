package io.tetradb.core.item;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.index.CompiledIndexingPolicy;
import io.tetradb.core.value.TypedValueGenerator;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * frame-rest (issue 17): a caller's item written by {@link BinaryItemWriter#writeItem}, which leaves out its top-level
 * system properties as it meets their names, is byte for byte the item copied without them and written whole — the
 * store's bytes before the change — with the same index terms at the same offsets: system names first, last, in the
 * middle, every one of them or none, nested ones kept, field counts whose varint shrinks when they go (129 → 127),
 * objects past 64 KiB whose table widens after the shrink, and an item of system properties only.
 */
class WrittenItemSystemNamesTest {
    private static final ObjectMapper M = new ObjectMapper();
    private static final List<String> NAMES = List.copyOf(SystemNames.NAMES);
    private final BinaryItemWriter copies = new BinaryItemWriter(64, 256);
    private final BinaryItemWriter items = new BinaryItemWriter(64, 256);

    @Test
    void itemsWrittenWithoutTheirSystemNamesAreTheirCopiesWithout() throws Exception {
        long seed = Long.getLong("value.seed", new Random().nextLong());
        Random rnd = new Random(seed);
        TypedValueGenerator g = new TypedValueGenerator(rnd);
        // all paths, or /f1, the system name /_ts (never recorded at the top: it is left out) and a nested object
        CompiledIndexingPolicy[] policies = {CompiledIndexingPolicy.of(null), CompiledIndexingPolicy.of(M.readTree(
                "{\"includedPaths\":[{\"path\":\"/f1/?\"},{\"path\":\"/_ts/?\"},{\"path\":\"/n/*\"}],"
                        + "\"excludedPaths\":[{\"path\":\"/*\"}]}"))};
        int dropped = 0;
        for (int i = 0; i < 3_000; i++) {
            ObjectNode doc = document(rnd, g, i);
            CompiledIndexingPolicy policy = policies[rnd.nextInt(policies.length)];
            byte[] header = rnd.nextBoolean() ? StoredItems.FRAME_HEADER : new byte[0];
            int room = rnd.nextInt(3) * 40;
            try {
                ObjectNode user = withoutSystemNames(doc);
                dropped += doc.size() - user.size();
                ItemTermRecorder expectedTerms = new ItemTermRecorder(policy);
                byte[] expected = copies.write(header, user, expectedTerms, room);
                ItemTermRecorder terms = new ItemTermRecorder(policy);
                byte[] written = items.writeItem(header, doc, terms, room);
                assertEquals(expected.length, written.length);
                // the room's bytes are the buffer's leftovers (the trailer overwrites them): the rest is compared
                assertArrayEquals(Arrays.copyOf(expected, expected.length - room),
                        Arrays.copyOf(written, written.length - room));
                RecordedTerms.assertSameTerms(expectedTerms, terms, 0);
                // the plain entry point, after it, keeps every name
                byte[] whole = items.write(doc);
                assertArrayEquals(BinaryItemWriter.encode(doc), whole);
                for (String n : NAMES) {
                    assertEquals(doc.has(n), BinaryItemReader.find(whole, 0, n) >= 0, n);
                }
            } catch (AssertionError | RuntimeException e) {
                BinaryItemRoundTripTest.failFor(seed, i, doc, e);
            }
        }
        assertTrue(dropped > 3_000, dropped + " system properties left out");
    }

    /** A random typed document with system properties placed among its top-level fields, and nested ones. */
    private static ObjectNode document(Random rnd, TypedValueGenerator g, int i) {
        ObjectNode source = g.document();
        source.set("f1", g.value(1));
        if (i % 7 == 0) { // 127 + 2 fields: the count's varint shrinks from two bytes to one
            ObjectNode wide = M.createObjectNode();
            for (int k = 0; k < 127; k++) {
                wide.put("k" + k, k);
            }
            source = wide;
        }
        if (i % 300 == 0) { // entries past 64 KiB: the table widens after the system properties went
            source.put("big", "y".repeat(70_000));
        }
        if (rnd.nextInt(10) == 0) {
            source.putObject("n").put("_ts", 5).put("_rid", "nested").put("x", 1); // nested: kept
        }
        List<String> names = new ArrayList<>();
        source.fieldNames().forEachRemaining(names::add);
        List<String> system = new ArrayList<>(NAMES);
        java.util.Collections.shuffle(system, rnd);
        int k = i % 11 == 0 ? NAMES.size() : i % 5 == 0 ? 2 : rnd.nextInt(NAMES.size() + 1);
        for (String s : system.subList(0, k)) {
            names.add(rnd.nextInt(names.size() + 1), s);
        }
        if (i % 101 == 0) {
            names.removeIf(n -> !SystemNames.is(n)); // system properties only: an empty item
        }
        ObjectNode doc = M.createObjectNode();
        for (String n : names) {
            JsonNode v = source.get(n);
            doc.set(n, v != null ? v : n.equals("_ts") ? g.value(1) : TextNode.valueOf("sys-" + n));
        }
        return doc;
    }

    private static ObjectNode withoutSystemNames(ObjectNode doc) {
        ObjectNode user = M.createObjectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = doc.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (!SystemNames.NAMES.contains(f.getKey())) {
                user.set(f.getKey(), f.getValue());
            }
        }
        return user;
    }
}

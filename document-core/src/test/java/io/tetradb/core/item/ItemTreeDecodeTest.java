package io.tetradb.core.item;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.tetradb.core.value.TypedValueGenerator;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * core-read: the point read's tree (fields appended without lookups, the index built on the first lookup, the system
 * properties appended when no user name starts with '_') equals the general path's tree — the walker building
 * LinkedHashMap-backed nodes with {@code set}, the system properties {@code put} — node for node, in the same field
 * order, over random typed items (NaN and -0.0, big numbers, lone surrogates, deep nesting, wide objects, names
 * starting with '_' and the system properties' own names written by the user), and answers every lookup alike.
 */
class ItemTreeDecodeTest {
    private static final byte[] RID = "AAAAAQAAAAEBAAAAAAAAAA==".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SELF = "dbs/AAAAAQ==/colls/AAAAAQAAAAE=/docs/".getBytes(StandardCharsets.US_ASCII);

    @Test
    void storedItemTreesEqualTheGeneralPathsTrees() {
        long seed = Long.getLong("value.seed", 0x2171L);
        Random rnd = new Random(seed);
        TypedValueGenerator g = new TypedValueGenerator(rnd);
        BinaryItemWriter writer = new BinaryItemWriter(64, 512);
        for (int i = 0; i < 20_000; i++) {
            ObjectNode doc = document(g, rnd, i);
            byte[] stored = StoredItems.finish(writer.write(doc), i, RID, SELF, "0000-" + i, 1_763_000_000L + i);
            try {
                ObjectNode expected = general(stored);
                ObjectNode fast = StoredItems.parse(stored);
                assertSame(expected, fast);
                ObjectNode change = StoredItems.parseChange(stored);
                assertSame(expected, change);
                for (Iterator<String> it = expected.fieldNames(); it.hasNext(); ) {
                    String name = it.next();
                    assertEquals(expected.get(name), fast.get(name), name);
                }
                assertEquals(null, fast.get("no such field \u0000"));
                // still a map like any other: changed after the lookups
                expected.put("_lsn", i);
                change.put("_lsn", i);
                expected.remove("f1");
                change.remove("f1");
                assertSame(expected, change);
            } catch (AssertionError | RuntimeException e) {
                fail(BinaryItemRoundTripTest.printable("seed " + seed + ", document " + i + ": " + doc + ": " + e), e);
            }
        }
    }

    /** Readers of one unchanged tree on several threads build its index at once and all find every field. */
    @Test
    void concurrentReadersOfOneTreeFindEveryField() throws Exception {
        ObjectNode doc = JsonNodeFactory.instance.objectNode();
        for (int f = 0; f < 60; f++) {
            doc.put("field" + f, f);
        }
        byte[] stored = StoredItems.finish(BinaryItemWriter.encode(doc), 1, RID, SELF, "e", 1L);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < 300; round++) {
                ObjectNode tree = StoredItems.parse(stored);
                CountDownLatch start = new CountDownLatch(1);
                List<Future<Integer>> found = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    found.add(pool.submit(() -> {
                        start.await();
                        int n = 0;
                        for (int f = 0; f < 60; f++) {
                            if (IntNode.valueOf(f).equals(tree.get("field" + f))) {
                                n++;
                            }
                        }
                        return n;
                    }));
                }
                start.countDown();
                for (Future<Integer> n : found) {
                    assertEquals(60, n.get());
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Random typed documents, and every few: a wide one (past the scanned size), one nested 200 levels deep, one with
     * names starting with '_', one holding the system properties' names.
     */
    static ObjectNode document(TypedValueGenerator g, Random rnd, int i) {
        ObjectNode doc = g.document();
        switch (i % 10) {
            case 1 -> {
                for (int f = 0; f < 9 + rnd.nextInt(40); f++) {
                    doc.set(f % 3 == 0 ? g.string() : "w" + f, g.value(1));
                }
            }
            case 2 -> {
                ObjectNode inner = doc.putObject("deep");
                for (int d = 0; d < 200; d++) {
                    inner = d % 2 == 0 ? inner.putObject("d" + d) : inner.putArray("a").addObject();
                }
                inner.set("leaf", g.value(1));
            }
            case 3 -> doc.put("_private", g.string());
            case 4 -> {
                doc.put("_etag", "user's");
                doc.put("_ts", 12);
                doc.set("_rid", g.value(1));
            }
            case 5 -> doc.put("", "empty name");
            default -> {
            }
        }
        return doc;
    }

    /** The general path: the walker building Jackson's own nodes, the system properties put as before. */
    private static ObjectNode general(byte[] stored) {
        ObjectNode item = (ObjectNode) BinaryItemWalker.read(stored, StoredItems.HEADER, new BinaryItemWalkerTest.Nodes());
        StoredItems.Trailer t = StoredItems.trailer(stored);
        item.put("_rid", t.rid());
        item.put("_self", t.selfPrefix() + t.rid() + "/");
        item.put("_etag", "\"" + t.etag() + "\"");
        item.put("_attachments", "attachments/");
        item.put("_ts", t.ts());
        return item;
    }

    /** Equal trees, the same field order at every level, the same node classes. */
    static void assertSame(JsonNode expected, JsonNode actual) {
        assertEquals(expected, actual);
        assertEquals(shape(expected), shape(actual));
    }

    private static String shape(JsonNode v) {
        StringBuilder sb = new StringBuilder();
        shape(v, sb);
        return sb.toString();
    }

    private static void shape(JsonNode v, StringBuilder sb) {
        sb.append(v.getClass().getSimpleName());
        if (v.isObject()) {
            sb.append('{');
            for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                sb.append(f.getKey()).append(':');
                shape(f.getValue(), sb);
                sb.append(',');
            }
            sb.append('}');
        } else if (v.isArray()) {
            sb.append('[');
            for (JsonNode e : v) {
                shape(e, sb);
                sb.append(',');
            }
            sb.append(']');
        } else if (v instanceof TextNode) {
            sb.append('"').append(v.textValue()).append('"');
        }
    }
}

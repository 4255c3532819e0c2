package io.tetradb.core.item;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.value.TypedValueGenerator;
import io.tetradb.testing.TestTime;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * core-read (issue 17): the point read's lazily decoded tree ({@link StoredItems#parseLazily}) is the eager tree of
 * {@link StoredItems#parse} — equal, the same node classes and field order at every level, the same JSON text, every
 * lookup alike, its size known before any decoding — over random typed items (the generator of
 * {@code ItemTreeDecodeTest}: NaN and -0.0, big numbers, lone surrogates, 200-deep nesting, wide objects, names
 * starting with '_', the system properties' own names written by the user); it changes like any tree before and after
 * it is decoded; and readers racing on one fresh tree all see the same tree, down to the same nested node instances.
 */
class LazyItemTreeTest {
    private static final byte[] RID = "AAAAAQAAAAEBAAAAAAAAAA==".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SELF = "dbs/AAAAAQ==/colls/AAAAAQAAAAE=/docs/".getBytes(StandardCharsets.US_ASCII);
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void lazyTreesEqualEagerTrees() throws Exception {
        long seed = Long.getLong("value.seed", 0x1a27L);
        Random rnd = new Random(seed);
        TypedValueGenerator g = new TypedValueGenerator(rnd);
        BinaryItemWriter writer = new BinaryItemWriter(64, 512);
        for (int i = 0; i < 20_000; i++) {
            ObjectNode doc = ItemTreeDecodeTest.document(g, rnd, i);
            byte[] stored = StoredItems.finish(writer.write(doc), i, RID, SELF, "0000-" + i, 1_763_000_000L + i);
            try {
                ObjectNode eager = StoredItems.parse(stored);
                ObjectNode lazy = StoredItems.parseLazily(stored);
                // the size from the field table, before anything is decoded
                assertEquals(eager.size(), lazy.size());
                switch (i % 4) {
                    case 0 -> { // looked up first, then compared whole
                        for (Iterator<String> it = eager.fieldNames(); it.hasNext(); ) {
                            String name = it.next();
                            assertEquals(eager.get(name), lazy.get(name), name);
                        }
                        assertNull(lazy.get("no such field \u0000"));
                        ItemTreeDecodeTest.assertSame(eager, lazy);
                    }
                    case 1 -> assertEquals(MAPPER.writeValueAsString(eager), MAPPER.writeValueAsString(lazy));
                    case 2 -> { // changed before it was decoded
                        eager.put("_lsn", i);
                        lazy.put("_lsn", i);
                        eager.remove("f1");
                        lazy.remove("f1");
                        ItemTreeDecodeTest.assertSame(eager, lazy);
                    }
                    default -> { // equal as a copy, and both ways
                        assertEquals(lazy, eager);
                        assertEquals(eager.hashCode(), lazy.hashCode());
                        ItemTreeDecodeTest.assertSame(eager, lazy.deepCopy());
                    }
                }
            } catch (AssertionError | RuntimeException e) {
                fail(BinaryItemRoundTripTest.printable("seed " + seed + ", document " + i + ": " + doc + ": " + e), e);
            }
        }
    }

    /** The size of the item and of a nested object is read from the format; looking a field up decodes one level. */
    @Test
    void sizeNeedsNoDecodingAndALookupDecodesOneLevel() {
        ObjectNode doc = JsonNodeFactory.instance.objectNode();
        doc.put("id", "a").put("n", 1);
        doc.putObject("inner").put("x", 1).put("y", 2).putObject("deeper").put("z", 3);
        byte[] stored = StoredItems.finish(BinaryItemWriter.encode(doc), 1, RID, SELF, "e", 1L);
        ObjectNode lazy = StoredItems.parseLazily(stored);
        LazyObjectFields top = fieldsOf(lazy);
        assertEquals(8, lazy.size()); // three fields and the five system properties
        assertFalse(top.isDecoded());
        JsonNode inner = lazy.get("inner");
        assertTrue(top.isDecoded());
        LazyObjectFields innerFields = fieldsOf((ObjectNode) inner);
        assertEquals(3, inner.size());
        assertFalse(innerFields.isDecoded());
        assertEquals(3, inner.get("deeper").get("z").intValue());
        assertTrue(innerFields.isDecoded());
        assertSame(inner, lazy.get("inner"));

        // a name of the user's starting with '_': the size comes from decoding (the user's _etag is replaced)
        doc.put("_etag", "user's");
        ObjectNode underscored = StoredItems.parseLazily(StoredItems.finish(BinaryItemWriter.encode(doc), 1, RID,
                SELF, "e", 1L));
        assertEquals(8, underscored.size());
        assertEquals("\"e\"", underscored.get("_etag").textValue());
    }

    /**
     * Threads racing on one fresh tree (started together by a barrier, each visiting the whole tree in its own
     * order) all see the same content and the same node instance for every nested object and array: one decoded map
     * per object wins, whichever thread decoded it.
     */
    @Test
    void readersRacingOnOneFreshTreeSeeOneTree() throws Exception {
        Random rnd = new Random(77);
        TypedValueGenerator g = new TypedValueGenerator(rnd);
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 2_000; round++) {
                ObjectNode doc = g.document();
                ObjectNode inner = doc.putObject("nested");
                for (int f = 0; f < 12; f++) {
                    inner.putObject("o" + f).put("v", f).putArray("a").addObject().put("w", f);
                }
                byte[] stored = StoredItems.finish(BinaryItemWriter.encode(doc), round, RID, SELF, "e" + round, 1L);
                ObjectNode expected = StoredItems.parse(stored);
                ObjectNode tree = StoredItems.parseLazily(stored);
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Future<List<JsonNode>>> seen = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    boolean reversed = (t & 1) == 1;
                    boolean lookups = t >= 2;
                    seen.add(pool.submit(() -> {
                        start.await(TestTime.patience(Duration.ZERO).toSeconds(), TimeUnit.SECONDS);
                        List<JsonNode> containers = new ArrayList<>();
                        visit(tree, reversed, lookups, containers);
                        return containers;
                    }));
                }
                List<JsonNode> first = null;
                for (Future<List<JsonNode>> f : seen) {
                    List<JsonNode> containers = f.get(TestTime.patience(Duration.ZERO).toSeconds(), TimeUnit.SECONDS);
                    List<JsonNode> inOrder = new ArrayList<>(containers);
                    if (first == null) {
                        first = inOrder;
                    }
                    // every thread met the same instances (as a set: the orders differ)
                    Map<JsonNode, Boolean> ids = new IdentityHashMap<>();
                    first.forEach(n -> ids.put(n, true));
                    assertEquals(first.size(), inOrder.size(), "round " + round);
                    for (JsonNode n : inOrder) {
                        assertTrue(ids.containsKey(n), "round " + round + ": a thread saw another instance of " + n);
                    }
                }
                ItemTreeDecodeTest.assertSame(expected, tree);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Visits every value, forwards or backwards, by iteration or by lookups; collects the containers met. */
    private static void visit(JsonNode n, boolean reversed, boolean lookups, List<JsonNode> containers) {
        if (n.isObject()) {
            containers.add(n);
            List<String> names = new ArrayList<>();
            n.fieldNames().forEachRemaining(names::add);
            if (reversed) {
                java.util.Collections.reverse(names);
            }
            if (lookups) {
                for (String name : names) {
                    visit(n.get(name), reversed, lookups, containers);
                }
            } else {
                List<JsonNode> values = new ArrayList<>();
                n.elements().forEachRemaining(values::add);
                if (reversed) {
                    java.util.Collections.reverse(values);
                }
                for (JsonNode v : values) {
                    visit(v, reversed, lookups, containers);
                }
            }
        } else if (n.isArray()) {
            containers.add(n);
            for (int i = 0; i < n.size(); i++) {
                visit(n.get(reversed ? n.size() - 1 - i : i), reversed, lookups, containers);
            }
        }
    }

    private static LazyObjectFields fieldsOf(ObjectNode node) {
        try {
            var f = ObjectNode.class.getDeclaredField("_children");
            f.setAccessible(true);
            return (LazyObjectFields) f.get(node);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}

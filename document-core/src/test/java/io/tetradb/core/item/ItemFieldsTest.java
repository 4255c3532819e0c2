package io.tetradb.core.item;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The map under a decoded item's ObjectNodes behaves as the LinkedHashMap Jackson would use: random puts, replaces,
 * removes (by key and through iterators), clears, lookups and key-set bulk operations give the same contents in the
 * same order, and the same equals/hashCode, on small objects (scanned) and large ones (indexed).
 */
class ItemFieldsTest {

    @Test
    void randomOperationsMatchALinkedHashMap() {
        SplittableRandom random = new SplittableRandom(17);
        for (int trial = 0; trial < 400; trial++) {
            int names = 1 + random.nextInt(trial % 2 == 0 ? 6 : 60); // few names: scanned; many: indexed
            ItemFields mine = new ItemFields(random.nextInt(0, 30));
            Map<String, JsonNode> expected = new LinkedHashMap<>();
            for (int op = 0; op < 300; op++) {
                String key = "f" + random.nextInt(names);
                JsonNode value = IntNode.valueOf(random.nextInt(1000));
                switch (random.nextInt(12)) {
                    case 0 -> assertEquals(expected.remove(key), mine.remove(key));
                    case 1 -> {
                        Iterator<Map.Entry<String, JsonNode>> a = expected.entrySet().iterator();
                        Iterator<Map.Entry<String, JsonNode>> b = mine.entrySet().iterator();
                        while (a.hasNext()) {
                            Map.Entry<String, JsonNode> ea = a.next();
                            Map.Entry<String, JsonNode> eb = b.next();
                            assertEquals(ea, eb);
                            if (ea.getValue().intValue() % 3 == 0) {
                                a.remove();
                                b.remove();
                            } else if (ea.getValue().intValue() % 3 == 1) {
                                ea.setValue(value);
                                eb.setValue(value);
                            }
                        }
                        assertTrue(!b.hasNext());
                    }
                    case 2 -> {
                        if (random.nextInt(10) == 0) {
                            expected.clear();
                            mine.clear();
                        }
                    }
                    case 3 -> {
                        List<String> some = List.of("f" + random.nextInt(names), "f" + random.nextInt(names));
                        if (random.nextBoolean()) {
                            expected.keySet().removeAll(some);
                            mine.keySet().removeAll(some);
                        } else {
                            expected.keySet().retainAll(some);
                            mine.keySet().retainAll(some);
                        }
                    }
                    default -> assertEquals(expected.put(key, value), mine.put(key, value));
                }
                assertEquals(expected.size(), mine.size());
                assertEquals(expected.get(key), mine.get(key));
                assertEquals(expected.containsKey(key), mine.containsKey(key));
                assertEquals(new ArrayList<>(expected.entrySet()), new ArrayList<>(mine.entrySet()));
                assertEquals(expected, mine);
                assertEquals(mine, expected);
                assertEquals(expected.hashCode(), mine.hashCode());
            }
        }
    }

    @Test
    void anIteratorFailsFastWhenTheMapChangesUnderIt() {
        ItemFields m = new ItemFields(4);
        m.put("a", IntNode.valueOf(1));
        m.put("b", IntNode.valueOf(2));
        Iterator<Map.Entry<String, JsonNode>> it = m.entrySet().iterator();
        it.next();
        m.put("c", IntNode.valueOf(3));
        assertThrows(ConcurrentModificationException.class, it::next);
        assertThrows(IllegalStateException.class, () -> m.entrySet().iterator().remove());
    }

    @Test
    void aDecodedItemIsAnOrdinaryObjectNode() throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode source = (ObjectNode) mapper.readTree("{\"id\":\"a\",\"b\":{\"x\":1,\"y\":[1,{\"z\":null}]},"
                + "\"c\":\"text\",\"d\":2.5,\"e\":true,\"f\":1,\"g\":2,\"h\":3,\"i\":4,\"j\":5,\"k\":6}");
        ObjectNode read = BinaryItemReader.readObject(BinaryItemWriter.encode(source), 0);
        assertEquals(source, read);
        assertEquals(read, source);
        assertEquals(mapper.writeValueAsString(source), mapper.writeValueAsString(read));
        read.put("id", "b").remove("c");
        read.set("new", JsonNodeFactory.instance.textNode("n"));
        ((ObjectNode) read.get("b")).remove("x");
        assertEquals("{\"id\":\"b\",\"b\":{\"y\":[1,{\"z\":null}]},\"d\":2.5,\"e\":true,\"f\":1,\"g\":2,\"h\":3,"
                + "\"i\":4,\"j\":5,\"k\":6,\"new\":\"n\"}", mapper.writeValueAsString(read));
        assertEquals(read.deepCopy(), read);
        read.retain("id", "d");
        assertEquals("{\"id\":\"b\",\"d\":2.5}", mapper.writeValueAsString(read));
    }
}

package io.tetradb.core.index;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.value.IndexKeyEncoding;
import io.tetradb.core.value.ValueOrder;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Composite index policies: validation, canonical names, component values and the order of their encodings. */
class CompositeIndexTest {
    static final ObjectMapper M = new ObjectMapper();

    static CompiledIndexingPolicy policy(String compositeIndexes) throws Exception {
        return CompiledIndexingPolicy.of(M.readTree("{\"indexingMode\":\"consistent\",\"includedPaths\":[{\"path\":\"/*\"}],"
                + "\"compositeIndexes\":" + compositeIndexes + "}"));
    }

    static void refused(String compositeIndexes, String why) {
        StoreException e = assertThrows(StoreException.class, () -> policy(compositeIndexes), compositeIndexes);
        assertEquals(Status.BAD_REQUEST, e.status(), compositeIndexes);
        assertTrue(e.getMessage().contains(why), e.getMessage());
    }

    @Test
    void compilesCosmosShapeWithCanonicalNames() throws Exception {
        CompiledIndexingPolicy p = policy("[[{\"path\":\"/name\",\"order\":\"ascending\"},"
                + "{\"path\":\"/age\",\"order\":\"descending\"}],"
                + "[{\"path\":\"/location/city\"},{\"path\":\"/\\\"pub-id\\\"\",\"order\":\"DESCENDING\"},{\"path\":\"/_ts\"}]]");
        assertEquals(2, p.composites().size());
        CompositeIndex first = p.composites().get(0);
        assertEquals("composite(/name ASC,/age DESC)", first.name());
        assertEquals(List.of(List.of("name"), List.of("age")), first.paths());
        assertArrayEquals(new boolean[]{false, true}, first.descending());
        assertEquals(List.of("/name", "/age"), first.pathStrings());
        CompositeIndex second = p.composites().get(1);
        assertEquals("composite(/location/city ASC,/\"pub-id\" DESC,/_ts ASC)", second.name());
        assertEquals(List.of("/location/city", "/pub-id", "/_ts"), second.pathStrings());
        assertEquals(List.of(List.of("location", "city"), List.of("pub-id"), List.of("_ts")), second.paths());
    }

    @Test
    void namesNeverCollideWithSinglePathsOrEachOther() throws Exception {
        // a property name with a separator in it is quoted, so these two composites keep distinct names
        CompiledIndexingPolicy p = policy("[[{\"path\":\"/\\\"a ASC,\\\"/b\"},{\"path\":\"/c\"}],"
                + "[{\"path\":\"/a\"},{\"path\":\"/b\"},{\"path\":\"/c\"}],"
                + "[{\"path\":\"/\\\"a/b\\\"\"},{\"path\":\"/c\"}]]");
        List<String> names = p.composites().stream().map(CompositeIndex::name).toList();
        assertEquals(3, names.stream().distinct().count(), names.toString());
        names.forEach(n -> assertFalse(n.startsWith("/"), n));
        assertEquals(List.of("/a~1b", "/c"), p.composites().get(2).pathStrings(), "escaped as single paths are");
    }

    @Test
    void theSameCompositeTwiceIsOneIndex() throws Exception {
        CompiledIndexingPolicy p = policy("[[{\"path\":\"/a\"},{\"path\":\"/b\",\"order\":\"descending\"}],"
                + "[{\"path\":\"/a\",\"order\":\"ascending\"},{\"path\":\"/b\",\"order\":\"descending\"}],"
                + "[{\"path\":\"/a\"},{\"path\":\"/b\"}]]");
        assertEquals(2, p.composites().size());
    }

    @Test
    void refusesEachInvalidShape() {
        refused("{\"path\":\"/a\"}", "must be an array");
        refused("[{\"path\":\"/a\"}]", "must be an array of {path, order}");
        refused("[[{\"path\":\"/a\"}]]", "2 to 8 paths");
        refused("[[]]", "2 to 8 paths");
        StringBuilder nine = new StringBuilder("[[");
        for (int i = 0; i < 9; i++) {
            nine.append(i == 0 ? "" : ",").append("{\"path\":\"/p").append(i).append("\"}");
        }
        refused(nine.append("]]").toString(), "2 to 8 paths");
        refused("[[{\"path\":\"/a\"},{\"path\":\"/a\",\"order\":\"descending\"}]]", "twice");
        refused("[[{\"path\":\"/a/b\"},{\"path\":\"/\\\"a\\\"/b\"}]]", "twice");
        refused("[[{\"path\":\"/a\",\"order\":\"up\"},{\"path\":\"/b\"}]]", "ascending");
        refused("[[{\"path\":\"/a\",\"order\":1},{\"path\":\"/b\"}]]", "ascending");
        refused("[[\"/a\",{\"path\":\"/b\"}]]", "{\"path\"");
        refused("[[{\"order\":\"ascending\"},{\"path\":\"/b\"}]]", "{\"path\"");
        for (String bad : new String[]{"/a/?", "/*", "/a/*", "/tags/[]", "/tags/[]/name", "/a*", "a", "/", "/a/",
                "//a", "/\"a", "/a?b"}) {
            refused("[[{\"path\":" + M.valueToTree(bad) + "},{\"path\":\"/b\"}]]", "invalid composite index path");
        }
        // the container-level rules still apply alongside
        assertThrows(StoreException.class, () -> CompiledIndexingPolicy.of(M.readTree(
                "{\"indexingMode\":\"none\",\"compositeIndexes\":[[{\"path\":\"/a\"}]]}")),
                "a policy with indexing off is still validated");
    }

    @Test
    void indexingOffOrNoCompositesMeansNone() throws Exception {
        assertEquals(List.of(), CompiledIndexingPolicy.defaults().composites());
        assertEquals(List.of(), CompiledIndexingPolicy.of(null).composites());
        assertEquals(List.of(), CompiledIndexingPolicy.of(M.readTree("{\"indexingMode\":\"none\",\"automatic\":false,"
                + "\"compositeIndexes\":[[{\"path\":\"/a\"},{\"path\":\"/b\"}]]}")).composites());
        assertEquals(1, CompiledIndexingPolicy.of(M.readTree("{\"includedPaths\":[{\"path\":\"/x/?\"}],"
                + "\"excludedPaths\":[{\"path\":\"/*\"}],\"compositeIndexes\":[[{\"path\":\"/a\"},{\"path\":\"/b\"}]]}"))
                .composites().size(), "excluded paths do not matter for composites");
    }

    @Test
    void valuesAtPathsAsTheyAreIndexed() throws Exception {
        CompositeIndex index = policy("[[{\"path\":\"/a/b\"},{\"path\":\"/s\"},{\"path\":\"/arr\"},{\"path\":\"/_etag\"},"
                + "{\"path\":\"/o\"},{\"path\":\"/arr/x\"},{\"path\":\"/_ts\"}]]").composites().get(0);
        ObjectNode item = M.createObjectNode().put("s", "y".repeat(300)).put("_etag", "e").put("_ts", 7);
        item.putObject("a").put("b", 1.5f);
        item.putArray("arr").add("z".repeat(400)).addObject().put("x", 1);
        item.putObject("o").put("k", 2.5f).putArray("l").add("w".repeat(257));
        assertEquals(com.fasterxml.jackson.databind.node.FloatNode.valueOf(1.5f), index.valueAt(item, 0),
                "a float indexes as itself: a binary item keeps it exactly");
        assertTrue(index.valueAt(JsonTextForm.of(item), 0).isDouble(),
                "a version written as JSON text indexes its floats as the doubles they read back as");
        assertEquals(IndexTerms.MAX_STRING_CHARS, index.valueAt(item, 1).textValue().length());
        JsonNode arr = index.valueAt(item, 2);
        assertEquals(IndexTerms.MAX_STRING_CHARS, arr.get(0).textValue().length(), "strings in arrays are cut too");
        assertEquals(1, arr.get(1).get("x").asInt());
        assertTrue(item.get("arr").get(0).textValue().length() == 400, "the item is left unchanged");
        assertTrue(index.valueAt(item, 3).isMissingNode(), "_etag is never indexed");
        JsonNode o = index.valueAt(item, 4);
        assertTrue(o.get("k").isFloat());
        assertTrue(index.valueAt(JsonTextForm.of(item), 4).get("k").isDouble());
        assertEquals(IndexTerms.MAX_STRING_CHARS, o.get("l").get(0).textValue().length());
        assertTrue(index.valueAt(item, 5).isMissingNode(), "paths do not enter arrays");
        assertEquals(7, index.valueAt(item, 6).asInt());
        assertTrue(index.valueAt(M.createObjectNode(), 0).isMissingNode());
        assertTrue(index.valueAt(M.createObjectNode().put("a", "scalar"), 0).isMissingNode());
        assertTrue(index.valueAt(M.createObjectNode().putNull("a"), 0).isMissingNode());
    }

    @Test
    void versionTermsUseTheVersionTimestampAndCoverUndefined() throws Exception {
        CompiledIndexingPolicy p = policy("[[{\"path\":\"/d\"},{\"path\":\"/_ts\",\"order\":\"descending\"}],"
                + "[{\"path\":\"/x\"},{\"path\":\"/y\"}]]");
        ObjectNode stale = M.createObjectNode().put("d", "dev").put("_ts", 1);
        List<CompositeTerms.CompositeTerm> terms = CompositeTerms.ofVersion(stale, p, 99);
        assertEquals(2, terms.size(), "one term per composite, even when every component is undefined");
        assertEquals(List.of(M.readTree("\"dev\""), com.fasterxml.jackson.databind.node.LongNode.valueOf(99)),
                terms.get(0).values());
        assertTrue(terms.get(1).values().stream().allMatch(JsonNode::isMissingNode));
        byte[] enc = terms.get(0).encoded();
        int mid = IndexKeyEncoding.skip(enc, 0, false);
        assertEquals("dev", IndexKeyEncoding.decode(enc, 0, mid).textValue());
        assertEquals(99, IndexKeyEncoding.decode(enc, mid, enc.length - mid, true).asInt());
        assertEquals(List.of(), CompositeTerms.ofVersion(stale, CompiledIndexingPolicy.defaults(), 1));
    }

    /** Encoded composite keys sort like a lexicographic ValueOrder comparison, each component in its direction. */
    @Test
    void encodingsSortLikeValueOrderForEveryDirectionMix() throws Exception {
        JsonNode[] pool = {null, M.readTree("null"), M.readTree("false"), M.readTree("true"), M.readTree("-3"),
                M.readTree("0"), M.readTree("2.5"), M.readTree("10"), M.readTree("\"\""), M.readTree("\"a\""),
                M.readTree("\"ab\""), M.readTree("\"b\""), M.readTree("[]"), M.readTree("[1]"), M.readTree("[1,\"x\"]"),
                M.readTree("{}"), M.readTree("{\"k\":1}")};
        Random r = new Random(42);
        for (String orders : new String[]{"AA", "AD", "DA", "DD", "ADA", "DDA"}) {
            StringBuilder json = new StringBuilder("[[");
            for (int i = 0; i < orders.length(); i++) {
                json.append(i == 0 ? "" : ",").append("{\"path\":\"/p").append(i).append("\",\"order\":\"")
                        .append(orders.charAt(i) == 'D' ? "descending" : "ascending").append("\"}");
            }
            CompiledIndexingPolicy p = policy(json.append("]]").toString());
            CompositeIndex index = p.composites().get(0);
            List<ObjectNode> items = new ArrayList<>();
            for (int n = 0; n < 300; n++) {
                ObjectNode item = M.createObjectNode();
                for (int i = 0; i < orders.length(); i++) {
                    JsonNode v = pool[r.nextInt(pool.length)];
                    if (v != null) { // null: the property is absent, undefined
                        item.set("p" + i, v);
                    }
                }
                items.add(item);
            }
            Comparator<ObjectNode> expected = (a, b) -> {
                for (int i = 0; i < index.size(); i++) {
                    int c = ValueOrder.compareValues(index.valueAt(a, i), index.valueAt(b, i));
                    if (c != 0) {
                        return index.descending(i) ? -c : c;
                    }
                }
                return 0;
            };
            Comparator<ObjectNode> byKey = Comparator.comparing(
                    item -> CompositeTerms.ofVersion(item, p, 0).get(0).encoded(), Arrays::compareUnsigned);
            for (ObjectNode a : items) {
                for (ObjectNode b : items.subList(0, 40)) {
                    assertEquals(Integer.signum(expected.compare(a, b)), Integer.signum(byKey.compare(a, b)),
                            orders + ": " + a + " vs " + b);
                }
            }
            // and each component decodes back to the value, reading the components one after another
            for (ObjectNode item : items) {
                byte[] enc = CompositeTerms.ofVersion(item, p, 0).get(0).encoded();
                int off = 0;
                for (int i = 0; i < index.size(); i++) {
                    int end = IndexKeyEncoding.skip(enc, off, index.descending(i));
                    JsonNode v = IndexKeyEncoding.decode(enc, off, end - off, index.descending(i));
                    assertEquals(0, ValueOrder.compareValues(index.valueAt(item, i), v), item + " component " + i);
                    off = end;
                }
                assertEquals(enc.length, off);
            }
        }
    }
}

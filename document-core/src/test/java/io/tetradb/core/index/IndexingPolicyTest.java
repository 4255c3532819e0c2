package io.tetradb.core.index;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.core.StoreException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IndexingPolicyTest {
    static final ObjectMapper M = new ObjectMapper();

    static CompiledIndexingPolicy policy(String json) throws Exception {
        return CompiledIndexingPolicy.of(M.readTree(json));
    }

    static List<String> p(String... segments) {
        return List.of(segments);
    }

    /**
     * An item walk skips what {@code mayIndexUnder} rules out, so it must never rule out a prefix of an indexed path:
     * checked for random policies over random paths (and the terms of a random item equal the unpruned ones).
     */
    @Test
    void mayIndexUnderNeverRulesOutAnIndexedPath() throws Exception {
        java.util.Random random = new java.util.Random(5);
        String[] names = {"a", "b", "c", "id", "_ts", "[]"};
        for (int round = 0; round < 300; round++) {
            StringBuilder inc = new StringBuilder();
            StringBuilder exc = new StringBuilder();
            (random.nextBoolean() ? inc : exc).append("{\"path\": \"/*\"}"); // a policy names the root
            for (int i = random.nextInt(4); i >= 0; i--) {
                (random.nextBoolean() ? inc : exc).append(inc.length() > 0 || exc.length() > 0 ? "," : "")
                        .append("{\"path\": \"").append(randomPattern(random, names)).append("\"}");
            }
            String incText = inc.toString().replaceAll("^,", "");
            String excText = exc.toString().replaceAll("^,", "");
            CompiledIndexingPolicy policy = policy("{\"includedPaths\": [" + incText + "], \"excludedPaths\": ["
                    + excText + "]" + (random.nextBoolean() ? ", \"systemPathsIndexed\": false" : "") + "}");
            for (int k = 0; k < 200; k++) {
                List<String> path = new java.util.ArrayList<>();
                path.add(names[random.nextInt(names.length - 1)]); // an item's field, never an array element
                for (int d = random.nextInt(4); d > 0; d--) {
                    path.add(names[random.nextInt(names.length)]);
                }
                if (policy.indexes(path)) {
                    for (int len = 1; len <= path.size(); len++) {
                        assertTrue(policy.mayIndexUnder(path.subList(0, len)), policy + " " + path + " " + len);
                    }
                }
            }
        }
    }

    /**
     * mongo-insert: a top-level name is answered from the included patterns' first segments (one set lookup per field
     * of every write), and that answer is exact both ways: the Mongo face's narrow policy lets the walk skip every
     * other field, and a name that only starts like an included one is not taken for it.
     */
    @Test
    void mayIndexUnderATopLevelNameIsExactForANarrowPolicy() throws Exception {
        CompiledIndexingPolicy narrow = policy("{\"includedPaths\": [{\"path\": \"/\\\"_id\\\"/*\"}, "
                + "{\"path\": \"/\\\"owner\\\"/*\"}, {\"path\": \"/a/[]/b/?\"}], "
                + "\"excludedPaths\": [{\"path\": \"/*\"}]}");
        for (String in : List.of("_id", "owner", "a", "id", "_ts")) {
            assertTrue(narrow.mayIndexUnder(p(in)), in);
        }
        for (String out : List.of("own", "owner2", "Owner", "_i", "b", "[]", "_rid", "", "name", "address")) {
            assertFalse(narrow.mayIndexUnder(p(out)), out);
        }
        assertTrue(narrow.mayIndexUnder(p("a", "[]")));
        assertFalse(narrow.mayIndexUnder(p("a", "c")));
        CompiledIndexingPolicy everything = policy("{\"includedPaths\": [{\"path\": \"/*\"}]}");
        for (String any : List.of("owner", "b", "name", "")) {
            assertTrue(everything.mayIndexUnder(p(any)), any);
        }
        CompiledIndexingPolicy off = policy("{\"indexingMode\": \"none\", \"includedPaths\": [{\"path\": \"/*\"}]}");
        assertFalse(off.mayIndexUnder(p("id")));
    }

    /**
     * mongo-insert (session 18): {@code "systemPathsIndexed": false} (the Mongo face's collections) leaves {@code id}
     * and {@code _ts} to the paths like any other property — excluded by {@code /*}, indexed when a path includes
     * them — and the walk may skip them; without the property (or {@code true}) they are always indexed, as Cosmos
     * DB indexes them; any other value is 400.
     */
    @Test
    void withoutSystemPathsIdAndTsFollowThePathsLikeAnyProperty() throws Exception {
        String narrow = "\"includedPaths\": [{\"path\": \"/\\\"_id\\\"/*\"}, {\"path\": \"/owner/?\"}], "
                + "\"excludedPaths\": [{\"path\": \"/*\"}]";
        CompiledIndexingPolicy mongo = policy("{" + narrow + ", \"systemPathsIndexed\": false}");
        for (String name : List.of("id", "_ts")) {
            assertFalse(mongo.indexes(p(name)), name);
            assertFalse(mongo.mayIndexUnder(p(name)), name + ": the walk skips it");
            assertFalse(mongo.mayIndexUnder(p(name, "x")), name);
            assertTrue(policy("{" + narrow + "}").indexes(p(name)), name + " always indexed by default");
            assertTrue(policy("{" + narrow + ", \"systemPathsIndexed\": true}").indexes(p(name)), name);
        }
        assertTrue(mongo.indexes(p("_id")));
        assertTrue(mongo.indexes(p("owner")));
        assertTrue(mongo.mayIndexUnder(p("_id")));
        CompiledIndexingPolicy asked = policy("{\"includedPaths\": [{\"path\": \"/_ts/?\"}], \"excludedPaths\": "
                + "[{\"path\": \"/*\"}], \"systemPathsIndexed\": false}");
        assertTrue(asked.indexes(p("_ts")), "an included path still indexes it");
        assertFalse(asked.indexes(p("id")));
        CompiledIndexingPolicy all = policy("{\"includedPaths\": [{\"path\": \"/*\"}], \"excludedPaths\": "
                + "[{\"path\": \"/id/?\"}], \"systemPathsIndexed\": false}");
        assertFalse(all.indexes(p("id")), "an excluded path is honoured only without the system paths");
        assertTrue(all.indexes(p("_ts")));
        assertFalse(CompiledIndexingPolicy.both(mongo, policy("{" + narrow + "}")).indexes(p("_ts")),
                "mid-rebuild only what both policies index is sought");
        assertFalse(CompiledIndexingPolicy.both(policy("{" + narrow + "}"), mongo).indexes(p("id")));
        assertThrows(StoreException.class, () -> policy("{" + narrow + ", \"systemPathsIndexed\": \"no\"}"));
    }

    private static String randomPattern(java.util.Random random, String[] names) {
        StringBuilder sb = new StringBuilder();
        int depth = random.nextInt(3);
        for (int d = 0; d <= depth; d++) {
            String n = names[random.nextInt(names.length)];
            sb.append('/').append(d == 0 && n.equals("[]") ? "a" : n);
        }
        return sb.append(random.nextBoolean() ? "/*" : "/?").toString();
    }

    @Test
    void patternsParseAndMatch() {
        PathPattern all = PathPattern.parse("/*");
        assertTrue(all.matches(p("a", "b")));
        PathPattern scalar = PathPattern.parse("/a/?");
        assertTrue(scalar.matches(p("a")));
        assertFalse(scalar.matches(p("a", "b")));
        assertFalse(scalar.matches(p("a", "[]")), "/a/? is not the elements of an array a");
        assertTrue(PathPattern.parse("/a/[]/?").matches(p("a", "[]")));
        assertTrue(PathPattern.parse("/a/*").matches(p("a")));
        assertTrue(PathPattern.parse("/a/*").matches(p("a", "[]", "b")));
        assertTrue(PathPattern.parse("/\"pub-id\"/?").matches(p("pub-id")));
        assertTrue(PathPattern.parse("/\"a/b\"/c/?").matches(p("a/b", "c")));
        for (String bad : new String[]{"a/?", "/a", "/a/", "/?", "/a/*/b/?", "/\"a/?", "//?", "/\"a\"b/?"}) {
            assertThrows(StoreException.class, () -> PathPattern.parse(bad), bad);
        }
    }

    /** The precedence example of Cosmos DB's "Indexing policies" page: the more precise path wins. */
    @Test
    void morePrecisePathWins() throws Exception {
        CompiledIndexingPolicy policy = policy("{\"indexingMode\":\"consistent\",\"includedPaths\":[{\"path\":\"/*\"},"
                + "{\"path\":\"/headquarters/employees/?\"}],\"excludedPaths\":[{\"path\":\"/headquarters/*\"}]}");
        assertTrue(policy.indexes(p("name")));
        assertTrue(policy.indexes(p("headquarters", "employees")));
        assertFalse(policy.indexes(p("headquarters", "city")));
        assertFalse(policy.indexes(p("headquarters", "country", "region")));
    }

    @Test
    void excludeEverythingIncludeSome() throws Exception {
        CompiledIndexingPolicy policy = policy("{\"includedPaths\":[{\"path\":\"/deviceId/?\"},"
                + "{\"path\":\"/tags/[]/?\"}],\"excludedPaths\":[{\"path\":\"/*\"}]}");
        assertTrue(policy.indexes(p("deviceId")));
        assertTrue(policy.indexes(p("tags", "[]")));
        assertFalse(policy.indexes(p("temperature")));
        assertTrue(policy.indexes(p("id")), "id is always indexed");
        assertTrue(policy.indexes(p("_ts")), "_ts is always indexed");
    }

    @Test
    void equalPrecisionExclusionWins() throws Exception {
        CompiledIndexingPolicy policy = policy("{\"includedPaths\":[{\"path\":\"/*\"},{\"path\":\"/a/?\"}],"
                + "\"excludedPaths\":[{\"path\":\"/a/?\"}]}");
        assertFalse(policy.indexes(p("a")));
    }

    @Test
    void noneModeAndInvalidPolicies() throws Exception {
        assertFalse(policy("{\"indexingMode\":\"none\"}").enabled());
        assertFalse(policy("{\"indexingMode\":\"consistent\",\"automatic\":false,\"includedPaths\":[],"
                + "\"excludedPaths\":[]}").enabled());
        assertThrows(StoreException.class, () -> policy("{\"indexingMode\":\"eventually\"}"));
        assertThrows(StoreException.class, () -> policy("{\"includedPaths\":[{\"path\":\"/a/?\"}]}"),
                "neither /* included nor excluded");
        assertTrue(CompiledIndexingPolicy.of(null).indexes(p("anything")));
        assertFalse(CompiledIndexingPolicy.defaults().indexes(p("_etag")));
    }

    @Test
    void termsFlattenArraysLikeMultikeyIndexes() throws Exception {
        JsonNode student = M.readTree("{\"id\":\"S12345\",\"doc_type\":\"student\",\"links\":["
                + "{\"target\":\"CS101-001\",\"doc_type\":\"class\"},{\"target\":\"MATH201-002\",\"doc_type\":\"class\"}],"
                + "\"tags\":[\"a\",\"b\",\"a\",[\"nested\"]],\"empty\":[],\"o\":{\"x/y\":1,\"t~\":null},"
                + "\"_rid\":\"r\",\"_etag\":\"e\",\"_ts\":5}");
        List<IndexTerm> terms = IndexTerms.of(student, CompiledIndexingPolicy.defaults());
        String shown = terms.stream().map(t -> t.path() + "=" + t.value()).collect(Collectors.joining(" "));
        assertEquals("/id=\"S12345\" /doc_type=\"student\" /links/target=\"CS101-001\" /links/doc_type=\"class\" "
                + "/links/target=\"MATH201-002\" /tags=\"a\" /tags=\"b\" /tags=\"nested\" /o/x~1y=1 /o/t~0=null "
                + "/_ts=5", shown);
    }

    @Test
    void termsFollowThePolicy() throws Exception {
        CompiledIndexingPolicy policy = policy("{\"includedPaths\":[{\"path\":\"/links/[]/target/?\"}],"
                + "\"excludedPaths\":[{\"path\":\"/*\"}]}");
        JsonNode doc = M.readTree("{\"id\":\"x\",\"links\":[{\"target\":\"t1\",\"doc_type\":\"c\"}],\"n\":1}");
        assertEquals(List.of("/id", "/links/target"), IndexTerms.of(doc, policy).stream().map(IndexTerm::path).toList());
        assertEquals(List.of(), IndexTerms.of(doc, policy("{\"indexingMode\":\"none\"}")));
    }
}

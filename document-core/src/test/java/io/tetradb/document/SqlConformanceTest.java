package io.tetradb.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The Cosmos SQL conformance suite: every file of {@code src/test/resources/conformance/} (listed in {@link #FILES})
 * is loaded into a fresh container through the public API, and each of its cases runs as one dynamic test named
 * {@code construct — doc url}.
 *
 * <p>File shape:
 * <pre>
 * { "doc": url,                                   the page the cases come from (a case may name its own)
 *   "partitionKeyPath": "/pk",                     default "/id" (every item its own logical partition)
 *   "throughput": 40000,                           default 40000 RU/s = 4 physical partitions (cross-partition)
 *   "indexingPolicy": {...},                        optional, Cosmos DB's JSON shape (default: every path)
 *   "items": [ {...}, ... ],                       items without "id" get "1", "2", ... in file order
 *   "cases": [ { "name": construct, "query": "..." or ["line", ...], "parameters": {"@p": value},
 *                "expected": [...], "ordered": true|false (default: true iff the query has ORDER BY),
 *                "error": 400,                       instead of expected: the query must fail with this status
 *                "check": {"count": n, "regex": "...", "type": "number|string|...", "integer": true,
 *                          "min": x, "maxExclusive": y, "distinct": true},
 *                                                    instead of expected: the shape of nondeterministic results
 *                "partitionKey": value,              run single-partition (CosmosQueryRequestOptions.setPartitionKey)
 *                "pageSize": n,                      page size of the paged reading (default 2): every case is also
 *                                                    read in pages through continuation tokens, with the same results
 *                "tolerance": 1e-9,                  relative tolerance for numbers (default 1e-12)
 *                "source": "hand-checked: why",      for cases the page has no example of
 *                "knownIssue": "what is wrong" } ] } the case runs but is reported as skipped (Assumptions)
 * </pre>
 * Results are compared order-sensitively when ordered, else as multisets; numbers compare numerically; the system
 * properties ({@code _rid _self _etag _attachments _ts}) of a result object are ignored unless the expected object
 * names them.
 */
class SqlConformanceTest {
    static final List<String> FILES = List.of("select.json", "keywords.json", "from.json", "joins.json",
            "where-operators.json", "expressions.json", "order-offset-top.json", "aggregates-groupby.json",
            "subqueries.json", "self-join-subqueries.json", "parameters-partitions.json",
            "undefined-and-mixed-types.json", "string-functions.json", "math-functions.json", "type-functions.json",
            "array-functions.json", "datetime-functions.json", "misc-functions.json", "object-array.json");
    static final Set<String> SYSTEM = Set.of("_rid", "_self", "_etag", "_attachments", "_ts");
    static final ObjectMapper M = new ObjectMapper();

    @TempDir
    static Path dir;
    static CosmosClient client;
    static CosmosDatabase db;

    @BeforeAll
    static void open() {
        client = new CosmosClientBuilder().dataDirectory(dir).buildClient();
        client.createDatabase("conformance");
        db = client.getDatabase("conformance");
    }

    @AfterAll
    static void close() {
        client.close();
    }

    @TestFactory
    List<DynamicNode> conformance() throws Exception {
        java.net.URL dirUrl = SqlConformanceTest.class.getResource("/conformance/");
        if (dirUrl != null && dirUrl.getProtocol().equals("file")) {
            Set<String> present = new HashSet<>();
            try (var listing = java.nio.file.Files.list(Path.of(dirUrl.toURI()))) {
                listing.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".json")).forEach(present::add);
            }
            assertEquals(present, new HashSet<>(FILES), "every conformance file is listed in FILES");
        }
        List<DynamicNode> files = new ArrayList<>();
        for (String file : FILES) {
            JsonNode spec = load(file);
            CosmosContainer container = loadContainer(file, spec);
            String fileDoc = spec.path("doc").asText("");
            List<DynamicNode> tests = new ArrayList<>();
            Set<String> names = new HashSet<>();
            for (JsonNode c : spec.withArray("cases")) {
                String name = c.path("name").asText();
                if (!names.add(name)) {
                    throw new IllegalStateException(file + ": duplicate case name " + name);
                }
                String doc = c.path("doc").asText(fileDoc);
                String source = c.has("source") ? " [" + c.get("source").asText() + "]" : "";
                tests.add(DynamicTest.dynamicTest(name + " — " + doc + source, () -> run(container, c)));
            }
            files.add(DynamicContainer.dynamicContainer(file + " (" + tests.size() + " cases)", tests));
        }
        return files;
    }

    static JsonNode load(String file) throws IOException {
        try (InputStream in = SqlConformanceTest.class.getResourceAsStream("/conformance/" + file)) {
            if (in == null) {
                throw new IllegalStateException("missing resource conformance/" + file);
            }
            return M.readTree(in);
        }
    }

    static CosmosContainer loadContainer(String file, JsonNode spec) {
        String name = file.replace(".json", "");
        CosmosContainerProperties props = new CosmosContainerProperties(name, spec.path("partitionKeyPath").asText("/id"));
        if (spec.has("indexingPolicy")) { // e.g. the composite indexes that multi-path ORDER BY needs
            props.setIndexingPolicy(IndexingPolicy.fromJson(spec.get("indexingPolicy")));
        }
        db.createContainer(props, ThroughputProperties.createManualThroughput(spec.path("throughput").asInt(40000)));
        CosmosContainer container = db.getContainer(name);
        int n = 0;
        for (JsonNode item : spec.withArray("items")) {
            n++;
            ObjectNode copy = ((ObjectNode) item).deepCopy();
            if (!copy.has("id")) {
                copy.put("id", String.valueOf(n));
            }
            container.createItem(copy);
        }
        return container;
    }

    /** Runs one case; a case marked knownIssue is reported as skipped whatever its outcome. */
    static void run(CosmosContainer container, JsonNode c) {
        if (!c.has("knownIssue")) {
            check(container, c);
            return;
        }
        try {
            check(container, c);
        } catch (AssertionError | RuntimeException e) {
            Assumptions.assumeTrue(false, "known issue: " + c.get("knownIssue").asText() + " — " + e.getMessage());
        }
        Assumptions.assumeTrue(false, "known issue: " + c.get("knownIssue").asText()
                + " — the case passes now: remove its knownIssue marker");
    }

    static void check(CosmosContainer container, JsonNode c) {
        String query = queryText(c.get("query"));
        SqlQuerySpec spec = new SqlQuerySpec(query, parameters(c.path("parameters")));
        CosmosQueryRequestOptions options = new CosmosQueryRequestOptions();
        if (c.has("partitionKey")) {
            options.setPartitionKey(partitionKey(c.get("partitionKey")));
        }
        if (c.has("error")) {
            int expected = c.get("error").asInt();
            try {
                List<JsonNode> got = all(container, spec, options);
                fail("expected " + expected + ", got results " + got);
            } catch (CosmosException e) {
                assertEquals(expected, e.getStatusCode(), "status of " + query + ": " + e.getMessage());
            }
            return;
        }
        List<JsonNode> actual = all(container, spec, options);
        boolean ordered = c.has("ordered") ? c.get("ordered").asBoolean()
                : query.toUpperCase().contains("ORDER BY");
        if (c.has("check")) {
            checkShape(c.get("check"), actual);
        } else {
            compare((ArrayNode) c.get("expected"), actual, ordered, c.path("tolerance").asDouble(1e-12));
        }
        if (!c.has("check") || c.has("pageSize")) {
            // every case is also read in small pages through continuation tokens: the same results
            List<JsonNode> paged = new ArrayList<>();
            int pageSize = c.path("pageSize").asInt(2);
            String token = null;
            int pages = 0;
            do {
                FeedResponse<JsonNode> page = container.queryItems(spec, options, JsonNode.class)
                        .iterableByPage(token, pageSize).iterator().next();
                assertTrue(page.getResults().size() <= pageSize, "page larger than " + pageSize);
                paged.addAll(page.getResults());
                token = page.getContinuationToken();
                pages++;
                assertTrue(pages <= actual.size() + 2, "too many pages");
            } while (token != null);
            List<JsonNode> one = strip(actual);
            List<JsonNode> many = strip(paged);
            if (!ordered) {
                one.sort(Comparator.comparing(JsonNode::toString));
                many.sort(Comparator.comparing(JsonNode::toString));
            }
            assertEquals(one, many, "pages of " + pageSize + " through continuation tokens");
        }
    }

    static String queryText(JsonNode q) {
        if (q.isArray()) {
            List<String> lines = new ArrayList<>();
            q.forEach(l -> lines.add(l.asText()));
            return String.join("\n", lines);
        }
        return q.asText();
    }

    static List<SqlParameter> parameters(JsonNode params) {
        List<SqlParameter> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = params.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> p = it.next();
            out.add(new SqlParameter(p.getKey(), p.getValue()));
        }
        return out;
    }

    static PartitionKey partitionKey(JsonNode v) {
        if (v.isTextual()) {
            return new PartitionKey(v.textValue());
        }
        if (v.isBoolean()) {
            return new PartitionKey(v.booleanValue());
        }
        if (v.isNumber()) {
            return new PartitionKey(v.doubleValue());
        }
        throw new IllegalArgumentException("partitionKey " + v);
    }

    static List<JsonNode> all(CosmosContainer container, SqlQuerySpec spec, CosmosQueryRequestOptions options) {
        List<JsonNode> out = new ArrayList<>();
        for (FeedResponse<JsonNode> page : container.queryItems(spec, options, JsonNode.class).iterableByPage(100)) {
            out.addAll(page.getResults());
        }
        return out;
    }

    static void compare(ArrayNode expected, List<JsonNode> actual, boolean ordered, double tolerance) {
        String message = "expected " + expected + (ordered ? " in order" : " in any order") + " but got "
                + strip(actual);
        if (expected.size() != actual.size()) {
            throw new AssertionFailedError(message);
        }
        if (ordered) {
            for (int i = 0; i < actual.size(); i++) {
                if (!matches(expected.get(i), actual.get(i), tolerance, true)) {
                    throw new AssertionFailedError(message + " (first difference at " + i + ")");
                }
            }
            return;
        }
        List<JsonNode> left = new ArrayList<>(actual);
        for (JsonNode e : expected) {
            boolean found = false;
            for (int i = 0; i < left.size(); i++) {
                if (matches(e, left.get(i), tolerance, true)) {
                    left.remove(i);
                    found = true;
                    break;
                }
            }
            if (!found) {
                throw new AssertionFailedError(message + " (no result matches " + e + ")");
            }
        }
    }

    /** Deep equality; numbers numerically; at the top level, system properties the expectation leaves out. */
    static boolean matches(JsonNode e, JsonNode a, double tolerance, boolean top) {
        if (e.isNumber() && a.isNumber()) {
            double x = e.doubleValue();
            double y = a.doubleValue();
            return x == y || Math.abs(x - y) <= tolerance * Math.max(Math.abs(x), Math.abs(y));
        }
        if (e.isObject() && a.isObject()) {
            Set<String> keys = new HashSet<>();
            a.fieldNames().forEachRemaining(k -> {
                if (!(top && SYSTEM.contains(k) && !e.has(k))) {
                    keys.add(k);
                }
            });
            Set<String> expectedKeys = new HashSet<>();
            e.fieldNames().forEachRemaining(expectedKeys::add);
            if (!keys.equals(expectedKeys)) {
                return false;
            }
            for (String k : keys) {
                if (!matches(e.get(k), a.get(k), tolerance, false)) {
                    return false;
                }
            }
            return true;
        }
        if (e.isArray() && a.isArray()) {
            if (e.size() != a.size()) {
                return false;
            }
            for (int i = 0; i < e.size(); i++) {
                if (!matches(e.get(i), a.get(i), tolerance, false)) {
                    return false;
                }
            }
            return true;
        }
        return e.equals(a);
    }

    /** Results without their system properties, for messages. */
    static List<JsonNode> strip(List<JsonNode> results) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode r : results) {
            if (r.isObject()) {
                ObjectNode copy = ((ObjectNode) r).deepCopy();
                copy.remove(SYSTEM);
                out.add(copy);
            } else {
                out.add(r);
            }
        }
        return out;
    }

    /** The shape of nondeterministic results: how many, their JSON type, a pattern, integers, all distinct. */
    static void checkShape(JsonNode check, List<JsonNode> actual) {
        if (check.has("count")) {
            assertEquals(check.get("count").asInt(), actual.size(), "number of results: " + actual);
        }
        Set<JsonNode> seen = new HashSet<>();
        for (JsonNode r : actual) {
            if (check.has("type")) {
                assertEquals(check.get("type").asText(), r.getNodeType().name().toLowerCase(), "type of " + r);
            }
            if (check.has("regex")) {
                assertTrue(Pattern.matches(check.get("regex").asText(), r.asText()), r + " matches "
                        + check.get("regex").asText());
            }
            if (check.has("min")) {
                assertTrue(r.isNumber() && r.doubleValue() >= check.get("min").asDouble(),
                        r + " >= " + check.get("min"));
            }
            if (check.has("maxExclusive")) {
                assertTrue(r.isNumber() && r.doubleValue() < check.get("maxExclusive").asDouble(),
                        r + " < " + check.get("maxExclusive"));
            }
            if (check.path("integer").asBoolean()) {
                assertTrue(r.isIntegralNumber() || (r.isNumber() && r.doubleValue() == Math.rint(r.doubleValue())),
                        r + " is an integer");
            }
            if (check.path("distinct").asBoolean()) {
                assertTrue(seen.add(r), r + " appears twice in " + actual);
            }
        }
    }
}

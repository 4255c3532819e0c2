package io.tetradb.core.query.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.partition.EpkRange;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.query.eval.QueryExecutor;
import io.tetradb.core.query.functions.FunctionContext;
import io.tetradb.core.query.sql.SqlParser;
import io.tetradb.core.query.sql.SqlQuery;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.QueryResult;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.IndexingPolicy;
import io.tetradb.document.PartitionKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The property test: for random items and random queries, the result through the planner (index seeks when a
 * conjunct allows) equals the executor's result over every item (indexes ignored).
 */
class IndexedQueryPropertyTest {
    static final ObjectMapper M = new ObjectMapper();
    static final String LONG = "L".repeat(256);

    static JsonNode randomValue(Random r) {
        return switch (r.nextInt(10)) {
            case 0 -> M.getNodeFactory().numberNode(r.nextInt(10));
            case 1 -> M.getNodeFactory().numberNode(r.nextInt(10) + 0.5);
            case 2 -> M.getNodeFactory().textNode("s" + r.nextInt(6));
            case 3 -> M.getNodeFactory().textNode(LONG + (char) ('a' + r.nextInt(3)));
            case 4 -> M.getNodeFactory().textNode(LONG.substring(0, 200 + r.nextInt(57)));
            case 5 -> M.getNodeFactory().booleanNode(r.nextBoolean());
            case 6 -> M.getNodeFactory().nullNode();
            case 7 -> M.getNodeFactory().numberNode(-r.nextInt(3));
            case 8 -> EXACT_NUMBERS[r.nextInt(EXACT_NUMBERS.length)];
            default -> M.getNodeFactory().textNode("");
        };
    }

    /**
     * Numbers a binary item keeps exactly and a double does not hold (Float, BigDecimal, Decimal128, Int64 beyond
     * 2^53, next to the doubles nearest them): an index holding them as doubles would seek past items a full scan
     * finds. Distinct in value from each other and from the other generated values, so ORDER BY ties stay printable.
     */
    static final JsonNode[] EXACT_NUMBERS = {
            com.fasterxml.jackson.databind.node.FloatNode.valueOf(0.1f),
            M.getNodeFactory().numberNode(0.1),
            io.tetradb.core.value.Decimal128Node.of(new java.math.BigDecimal("0.3")),
            M.getNodeFactory().numberNode(0.3),
            io.tetradb.core.value.Decimal128Node.of(new java.math.BigDecimal("7.10")),
            com.fasterxml.jackson.databind.node.DecimalNode.valueOf(new java.math.BigDecimal("12345678901234567890.5")),
            M.getNodeFactory().numberNode(1.2345678901234567e19),
            com.fasterxml.jackson.databind.node.LongNode.valueOf(9_007_199_254_740_993L),
            M.getNodeFactory().numberNode(9.007199254740992e15),
            com.fasterxml.jackson.databind.node.FloatNode.valueOf(-2.7f),
    };

    static ObjectNode randomItem(Random r, String id) {
        ObjectNode n = M.createObjectNode().put("id", id).put("pk", "p" + r.nextInt(4));
        for (String f : new String[]{"n", "s", "b"}) {
            if (r.nextInt(5) > 0) {
                n.set(f, randomValue(r));
            }
        }
        ArrayNode tags = n.putArray("tags");
        for (int i = r.nextInt(4); i > 0; i--) {
            tags.add(randomValue(r));
        }
        if (r.nextBoolean()) {
            ArrayNode links = n.putArray("links");
            for (int i = r.nextInt(3); i > 0; i--) {
                links.addObject().set("target", randomValue(r));
            }
        } else if (r.nextInt(4) == 0) {
            n.putObject("links").set("target", randomValue(r)); // an object, not an array
        }
        if (r.nextBoolean()) {
            n.putObject("o").set("x", randomValue(r));
        }
        return n;
    }

    static final String[] TEMPLATES = {
        "SELECT * FROM c WHERE c.n = @a",
        "SELECT * FROM c WHERE c.n > @a",
        "SELECT * FROM c WHERE c.n >= @a AND c.n != @b",
        "SELECT * FROM c WHERE @a < c.s",
        "SELECT * FROM c WHERE c.s <= @a",
        "SELECT * FROM c WHERE c.n BETWEEN @a AND @b",
        "SELECT * FROM c WHERE c.s = @a",
        "SELECT * FROM c WHERE STARTSWITH(c.s, @a)",
        "SELECT * FROM c WHERE c.n IN (@a, @b, 's1')",
        "SELECT * FROM c WHERE ARRAY_CONTAINS(c.tags, @a)",
        "SELECT VALUE c.id FROM c JOIN l IN c.links WHERE l.target = @a",
        "SELECT * FROM c WHERE c.links.target = @a",
        "SELECT * FROM c WHERE c.o.x >= @a",
        "SELECT * FROM c WHERE c[\"b\"] = @a",
        "SELECT * FROM c WHERE c.n = @a OR c.s = @b",
        "SELECT VALUE COUNT(1) FROM c WHERE c.s > @a",
        "SELECT c.id, c.n FROM c WHERE c.n < @a ORDER BY c.n, c.id OFFSET 1 LIMIT 5",
        "SELECT * FROM c WHERE c.pk = @p",
        "SELECT * FROM c WHERE c.pk = @p AND c.n > @a",
        "SELECT * FROM c WHERE @p = c.pk AND ARRAY_CONTAINS(c.tags, @a)",
        "SELECT VALUE c.id FROM c WHERE c.pk IN (@p, 'p2') AND c.s >= @a",
        "SELECT VALUE COUNT(1) FROM c WHERE c.pk IN (@p, @a)",
        // index-ordered reads; ties in the sort key may come in any order (Cosmos leaves it open), so these
        // project the key as k and are compared by the key sequence plus the multiset of results
        "SELECT c.id, c.pk, c.n AS k FROM c WHERE c.n > @a ORDER BY c.n DESC",
        "SELECT c.id, c.pk, c.s AS k FROM c WHERE c.s >= @a ORDER BY c.s",
        "SELECT c.id, c.pk, c.n AS k FROM c WHERE c.pk = @p AND c.n <= @a ORDER BY c.n DESC",
        "SELECT c.id, c.pk, c.n AS k FROM c WHERE c.n IN (@a, @b, 3, 's1') ORDER BY c.n",
        "SELECT TOP 5 VALUE c.n FROM c WHERE c.n >= @a ORDER BY c.n",
        "SELECT VALUE c.s FROM c WHERE c.s > @a ORDER BY c.s DESC OFFSET 2 LIMIT 3",
        "SELECT c.id, l.target, c.n AS k FROM c JOIN l IN c.links WHERE c.n >= @a ORDER BY c.n",
        "SELECT DISTINCT VALUE c.n FROM c WHERE c.n > @a",
        "SELECT VALUE c.n FROM c WHERE c.pk IN (@p, 'p3') AND STARTSWITH(c.id, 'i1')",
        "SELECT * FROM c WHERE c.id IN ('i1', 'i20', @a) AND c.pk = @p",
        "SELECT c.id, c.pk, c.n AS k FROM c WHERE c.pk IN (@p, 'p2') ORDER BY c.n DESC",
        "SELECT c.id, c.pk, c.n AS k FROM c WHERE c.pk = @p ORDER BY c.n",
        "SELECT c.id, c.pk, c.n AS k FROM c ORDER BY c.n",
        "SELECT TOP 7 c.id, c.n FROM c ORDER BY c.n DESC, c.id DESC",
        "SELECT c.s, COUNT(1) AS cnt, MAX(c.n) AS hi FROM c WHERE c.n >= @a GROUP BY c.s",
    };

    @Test
    void indexedResultsEqualFullScanResults(@TempDir Path dir) {
        long seed = new Random().nextLong();
        Random r = new Random(seed);
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("db");
            // composite indexes serve the multi-key ORDER BY (which Cosmos requires) and, read backwards or after
            // equality-pinned leading components, single-key ones
            client.getDatabase("db").createContainer(new CosmosContainerProperties("all", "/pk").setIndexingPolicy(
                    new IndexingPolicy().setCompositeIndexes(List.of(
                            composite("/n", false, "/id", false), composite("/pk", false, "/n", true)))));
            // only some paths indexed: a seek on another path would miss items, so the planner must scan there
            client.getDatabase("db").createContainer(new CosmosContainerProperties("some", "/pk").setIndexingPolicy(
                    new IndexingPolicy().setIncludedPaths(List.of("/n/?", "/s/?", "/tags/[]/?"))
                            .setExcludedPaths(List.of("/*"))
                            .setCompositeIndexes(List.of(composite("/n", true, "/id", true)))));
            for (String name : new String[]{"all", "some"}) {
                var c = client.getDatabase("db").getContainer(name);
                for (int i = 0; i < 300; i++) {
                    c.upsertItem(randomItem(r, "i" + r.nextInt(200)));
                }
                for (int i = 0; i < 40; i++) {
                    ObjectNode gone = randomItem(r, "i" + r.nextInt(200));
                    try {
                        c.deleteItem(gone.get("id").asText(), new PartitionKey(gone.get("pk").asText()), null);
                    } catch (io.tetradb.document.CosmosException absent) {
                        // not there
                    }
                }
            }
            int seeks = 0;
            for (String name : new String[]{"all", "some"}) {
                ContainerStore store = client.coreStore().container("db", name);
                for (int q = 0; q < 400; q++) {
                    String text = TEMPLATES[r.nextInt(TEMPLATES.length)];
                    Map<String, JsonNode> params = new HashMap<>();
                    params.put("@a", randomValue(r));
                    params.put("@b", randomValue(r));
                    params.put("@p", r.nextInt(5) == 0 ? randomValue(r) : M.getNodeFactory().textNode("p" + r.nextInt(5)));
                    PartitionKeyValue pk = r.nextInt(4) == 0 ? PartitionKeyValue.of(M.getNodeFactory().textNode("p1")) : null;
                    SqlQuery query = SqlParser.parse(text);
                    QueryResult planned = store.query(query, pk, null, params);
                    List<JsonNode> reference = QueryExecutor.execute(query, all(store, pk), params,
                            FunctionContext.forQuery(Clock.systemUTC()));
                    String why = name + ": " + text + " " + params + " pk=" + pk + " via " + planned.access()
                            + " (seed " + seed + ")";
                    assertSameResults(reference, planned.results(), text, why);
                    // the same query read in small pages, each resumed from the previous page's token
                    int pageSize = 1 + r.nextInt(7);
                    List<JsonNode> paged = new ArrayList<>();
                    String token = null;
                    int pages = 0;
                    do {
                        var page = store.queryPage(query, params, pk, null, token, pageSize, Long.MAX_VALUE);
                        assertTrue(page.results().size() <= pageSize, why);
                        paged.addAll(page.results());
                        token = page.continuation();
                        assertTrue(++pages <= planned.results().size() + 2, "pages never end: " + why);
                    } while (token != null);
                    assertEquals(planned.results(), paged, "paged by " + pageSize + ": " + why);
                    if (planned.access().startsWith("index")) {
                        seeks++;
                        assertTrue(planned.documentsLoaded() <= count(store, pk), why);
                    }
                }
            }
            assertTrue(seeks > 200, "the planner should seek for most templates, did " + seeks);
        }
    }

    @Test
    void sargablePredicatesSeekAndOthersScan(@TempDir Path dir) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer("c", "/pk");
            var c = client.getDatabase("db").getContainer("c");
            for (int i = 0; i < 100; i++) {
                c.createItem(M.createObjectNode().put("id", "i" + i).put("pk", "p" + i % 3).put("n", i)
                        .set("links", M.createArrayNode().add(M.createObjectNode().put("target", "t" + i % 10))));
            }
            ContainerStore store = client.coreStore().container("db", "c");
            QueryResult eq = store.query(SqlParser.parse("SELECT * FROM c WHERE c.n = 42"), null, null, Map.of());
            assertEquals(1, eq.results().size());
            assertEquals(1, eq.documentsLoaded(), "one item read for one result");
            assertTrue(eq.access().startsWith("index seek on /n"), eq.access());
            QueryResult join = store.query(SqlParser.parse(
                    "SELECT VALUE c.id FROM c JOIN l IN c.links WHERE l.target = 't7'"), null, null, Map.of());
            assertEquals(10, join.results().size());
            assertEquals(10, join.documentsLoaded());
            QueryResult range = store.query(SqlParser.parse("SELECT * FROM c WHERE c.n >= 90"), null, null, Map.of());
            assertEquals(10, range.documentsLoaded());
            QueryResult or = store.query(SqlParser.parse("SELECT * FROM c WHERE c.n = 1 OR c.n = 2"), null, null, Map.of());
            assertEquals("scan, all partitions", or.access());
            assertEquals(100, or.documentsLoaded());
            assertEquals(2, or.results().size());
        }
    }

    private static List<ObjectNode> all(ContainerStore store, PartitionKeyValue pk) {
        List<ObjectNode> out = new ArrayList<>();
        if (pk != null) {
            store.scan(pk, v -> out.add(store.codec().parse(v)));
        } else {
            store.scan(EpkRange.FULL, v -> out.add(store.codec().parse(v)));
        }
        return out;
    }

    private static long count(ContainerStore store, PartitionKeyValue pk) {
        return all(store, pk).size();
    }

    /** Results in a canonical order, unless the query fixes the order itself. */
    private static List<io.tetradb.document.CompositePath> composite(String a, boolean aDesc, String b, boolean bDesc) {
        return List.of(path(a, aDesc), path(b, bDesc));
    }

    private static io.tetradb.document.CompositePath path(String p, boolean desc) {
        return new io.tetradb.document.CompositePath().setPath(p).setOrder(desc
                ? io.tetradb.document.CompositePathSortOrder.DESCENDING
                : io.tetradb.document.CompositePathSortOrder.ASCENDING);
    }

    /** Equal results; for ORDER BY queries projecting their key as k, the same key sequence and the same multiset. */
    private static void assertSameResults(List<JsonNode> expected, List<JsonNode> actual, String query, String why) {
        if (query.contains(" AS k ")) {
            List<String> e = expected.stream().map(n -> String.valueOf(n.get("k"))).toList();
            List<String> a = actual.stream().map(n -> String.valueOf(n.get("k"))).toList();
            int at = 0;
            while (at < Math.min(e.size(), a.size()) && e.get(at).equals(a.get(at))) {
                at++;
            }
            assertEquals(e, a, "key order, first difference at " + at + ": "
                    + e.subList(at, Math.min(e.size(), at + 3)) + " vs " + a.subList(at, Math.min(a.size(), at + 3))
                    + ": " + why);
            assertEquals(sorted(expected, ""), sorted(actual, ""), why);
        } else {
            assertEquals(sorted(expected, query), sorted(actual, query), why);
        }
    }

    private static List<String> sorted(List<JsonNode> results, String query) {
        List<String> out = new ArrayList<>(results.stream().map(JsonNode::toString).toList());
        if (!query.contains("ORDER BY")) {
            out.sort(null);
        }
        return out;
    }
}

package io.tetradb.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The planner and executor seen from the public API: access paths, pages, continuation tokens, metrics. */
class QueryEngineTest {
    static final ObjectMapper M = new ObjectMapper();

    private static CosmosContainer container(CosmosClient client, int items) {
        client.createDatabase("db");
        client.getDatabase("db").createContainer("c", "/pk");
        CosmosContainer c = client.getDatabase("db").getContainer("c");
        for (int i = 0; i < items; i++) {
            ObjectNode item = M.createObjectNode().put("id", "i" + i).put("pk", "p" + i % 7).put("n", i)
                    .put("grp", "g" + i % 3);
            item.putArray("tags").add("t" + i % 5).add("t" + (i + 1) % 5);
            c.createItem(item);
        }
        return c;
    }

    private static FeedResponse<JsonNode> firstPage(CosmosContainer c, String query, int size) {
        return c.queryItems(query, new CosmosQueryRequestOptions(), JsonNode.class)
                .iterableByPage(null, size).iterator().next();
    }

    private static List<JsonNode> allPages(CosmosContainer c, SqlQuerySpec query, CosmosQueryRequestOptions o, int size) {
        List<JsonNode> out = new ArrayList<>();
        for (FeedResponse<JsonNode> page : c.queryItems(query, o, JsonNode.class).iterableByPage(null, size)) {
            assertTrue(page.getResults().size() <= size);
            out.addAll(page.getResults());
        }
        return out;
    }

    @Test
    void orderByOnAConstrainedPathReadsTheIndexInOrderAndStopsAfterThePage(@TempDir Path dir) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            CosmosContainer c = container(client, 2000);
            FeedResponse<JsonNode> page = firstPage(c, "SELECT TOP 10 * FROM c WHERE c.n < 1500 ORDER BY c.n DESC", 100);
            assertEquals(10, page.getResults().size());
            for (int i = 0; i < 10; i++) {
                assertEquals(1499 - i, page.getResults().get(i).get("n").asInt());
            }
            assertTrue(page.getAccessPath().startsWith("index-ordered read on /n"), page.getAccessPath());
            assertEquals(10, page.getDocumentsLoaded(), "one document per result");
            assertEquals(10, page.getQueryMetrics().getOutputDocumentCount());
            assertTrue(page.getRequestCharge() > 0);
            assertNull(page.getContinuationToken());

            FeedResponse<JsonNode> asc = firstPage(c, "SELECT VALUE c.n FROM c WHERE c.n >= 100 ORDER BY c.n", 5);
            assertEquals(List.of(100, 101, 102, 103, 104), asc.getResults().stream().map(JsonNode::asInt).toList());
            assertNotNull(asc.getContinuationToken());
            assertTrue(asc.getDocumentsLoaded() <= 6, "loaded " + asc.getDocumentsLoaded());
        }
    }

    @Test
    void pagesOfEveryKindOfQueryAddUpToTheWholeResult(@TempDir Path dir) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            CosmosContainer c = container(client, 300);
            String[] queries = {
                "SELECT * FROM c",
                "SELECT VALUE c.n FROM c WHERE c.n >= 10 ORDER BY c.n DESC",
                "SELECT c.id, t AS tag FROM c JOIN t IN c.tags WHERE c.n < 40",
                "SELECT * FROM c WHERE ARRAY_CONTAINS(c.tags, 't1') OR c.n = 3",
                "SELECT VALUE c.id FROM c WHERE c.pk IN ('p1', 'p2') AND c.n > 100",
                "SELECT c.grp, COUNT(1) AS n FROM c GROUP BY c.grp",
                "SELECT DISTINCT VALUE c.grp FROM c",
                "SELECT VALUE c.n FROM c ORDER BY c.id OFFSET 7 LIMIT 20",
                "SELECT * FROM c WHERE c.n >= 0 OFFSET 5 LIMIT 33",
                "SELECT VALUE 1",
            };
            for (String q : queries) {
                List<JsonNode> whole = allPages(c, new SqlQuerySpec(q), new CosmosQueryRequestOptions(), 10_000);
                for (int size : new int[]{1, 3, 17}) {
                    assertEquals(whole, allPages(c, new SqlQuerySpec(q), new CosmosQueryRequestOptions(), size),
                            q + " in pages of " + size);
                }
            }
        }
    }

    @Test
    void anItemWithSeveralMatchingArrayElementsIsReturnedOnceAcrossPages(@TempDir Path dir) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            CosmosContainer c = container(client, 50);
            SqlQuerySpec q = new SqlQuerySpec("SELECT VALUE c.id FROM c WHERE ARRAY_CONTAINS(c.tags, 't1') "
                    + "OR c.n = -1");
            SqlQuerySpec seek = new SqlQuerySpec("SELECT VALUE c.id FROM c JOIN t IN c.tags WHERE t IN ('t1', 't2')");
            // items i ≡ 1 (mod 5) have t1 and t2: two entries in the seek's ranges, two JOIN rows
            List<JsonNode> rows = allPages(c, seek, new CosmosQueryRequestOptions(), 1);
            List<JsonNode> whole = allPages(c, seek, new CosmosQueryRequestOptions(), 1000);
            assertEquals(whole, rows);
            long twice = whole.stream().filter(n -> Integer.parseInt(n.asText().substring(1)) % 5 == 1).count();
            assertEquals(20, twice, "10 items with both tags, one row per matching tag");
            assertEquals(40, whole.size(), "30 items, 10 of them with both tags");
            assertEquals(20, allPages(c, q, new CosmosQueryRequestOptions(), 1).size());
        }
    }

    @Test
    void existsOverAnArrayOfObjectsIsAnIndexSeekAndReturnsEachItemOnce(@TempDir Path dir) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer("c", "/pk");
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            for (int i = 0; i < 200; i++) {
                // the graph face's layout of a multi-valued property: [{id, _value}, ...]
                ObjectNode item = M.createObjectNode().put("id", "i" + i).put("pk", "p" + i % 7);
                item.putArray("code").add(M.createObjectNode().put("id", "a").put("_value", "c" + i % 50))
                        .add(M.createObjectNode().put("id", "b").put("_value", i % 50 == 3 ? "c3" : "x" + i));
                c.createItem(item);
            }
            String q = "SELECT VALUE c.id FROM c WHERE EXISTS(SELECT VALUE p FROM p IN c[\"code\"] WHERE p._value = @v)";
            FeedResponse<JsonNode> page = c.queryItems(new SqlQuerySpec(q, List.of(new SqlParameter("@v", "c3"))),
                    new CosmosQueryRequestOptions(), JsonNode.class).iterableByPage(null, 100).iterator().next();
            assertTrue(page.getAccessPath().startsWith("index seek on /code/_value"), page.getAccessPath());
            assertEquals(List.of("i3", "i53", "i103", "i153"), page.getResults().stream().map(JsonNode::asText)
                    .sorted(java.util.Comparator.comparing(s -> Integer.parseInt(s.substring(1)))).toList(),
                    "each item once, although both its entries match");
            assertEquals(4, page.getDocumentsLoaded());
            String range = "SELECT VALUE c.id FROM c WHERE EXISTS(SELECT VALUE p FROM p IN c.code WHERE p._value >= 'x98')";
            FeedResponse<JsonNode> r = firstPage(c, range, 100);
            assertTrue(r.getAccessPath().startsWith("index seek on /code/_value"), r.getAccessPath());
            assertEquals(List.of("i98", "i99"), r.getResults().stream().map(JsonNode::asText).sorted().toList());
            // an aggregate returns a row even when no element matches: not a seek, and every item qualifies
            String count = "SELECT VALUE c.id FROM c WHERE EXISTS(SELECT VALUE COUNT(1) FROM p IN c.code WHERE p._value = 'none')";
            assertEquals(200, allPages(c, new SqlQuerySpec(count), new CosmosQueryRequestOptions(), 1000).size());
        }
    }

    @Test
    void aContinuationStaysValidAcrossASplitAndARestart(@TempDir Path dir) throws Exception {
        String orderedToken;
        String scanToken;
        List<JsonNode> orderedFirst;
        List<JsonNode> scanFirst;
        int before;
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).splitThresholdBytes(64 * 1024)
                .buildClient()) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer("c", "/pk");
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            for (int i = 0; i < 40; i++) {
                c.createItem(M.createObjectNode().put("id", "i" + i).put("pk", "p" + i).put("n", i));
            }
            before = c.getFeedRanges().size();
            FeedResponse<JsonNode> ordered = firstPage(c, "SELECT VALUE c.n FROM c WHERE c.n >= 0 ORDER BY c.n", 15);
            FeedResponse<JsonNode> scan = firstPage(c, "SELECT VALUE c.id FROM c", 15);
            orderedToken = ordered.getContinuationToken();
            scanToken = scan.getContinuationToken();
            orderedFirst = ordered.getResults();
            scanFirst = scan.getResults();
            // grow the container with items that sort after every returned one, until its partitions split
            for (int i = 0; i < 400; i++) {
                c.createItem(M.createObjectNode().put("id", "z" + i).put("pk", "q" + i).put("n", 1000 + i)
                        .put("fill", "x".repeat(900)));
            }
            client.coreStore().awaitSplits();
            assertTrue(c.getFeedRanges().size() > before, "the container split");
        }
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            List<JsonNode> ordered = new ArrayList<>(orderedFirst);
            for (FeedResponse<JsonNode> p : c.queryItems("SELECT VALUE c.n FROM c WHERE c.n >= 0 ORDER BY c.n",
                    new CosmosQueryRequestOptions(), JsonNode.class).iterableByPage(orderedToken, 100)) {
                ordered.addAll(p.getResults());
            }
            assertEquals(440, ordered.size());
            for (int i = 1; i < ordered.size(); i++) {
                assertTrue(ordered.get(i - 1).asInt() < ordered.get(i).asInt(), "in order, each once");
            }
            List<JsonNode> scanned = new ArrayList<>(scanFirst);
            for (FeedResponse<JsonNode> p : c.queryItems("SELECT VALUE c.id FROM c", new CosmosQueryRequestOptions(),
                    JsonNode.class).iterableByPage(scanToken, 100)) {
                scanned.addAll(p.getResults());
            }
            // a scan reads in key order: items written after the first page may land before its position, so the
            // continuation sees every item that existed then, each once, and some of the new ones
            assertEquals(scanned.size(), scanned.stream().distinct().count(), "no item twice");
            for (int i = 0; i < 40; i++) {
                assertTrue(scanned.contains(M.getNodeFactory().textNode("i" + i)), "i" + i);
            }
        }
    }

    @Test
    void badOrForeignContinuationTokensAreRefused(@TempDir Path dir) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            CosmosContainer c = container(client, 30);
            String token = firstPage(c, "SELECT * FROM c", 5).getContinuationToken();
            CosmosException foreign = assertThrows(CosmosException.class, () -> c.queryItems(
                    "SELECT * FROM c WHERE c.n > 3", new CosmosQueryRequestOptions(), JsonNode.class)
                    .iterableByPage(token, 5).iterator().next());
            assertEquals(400, foreign.getStatusCode());
            for (String bad : new String[]{"garbage", "eyJ2IjoyfQ", ""}) {
                CosmosException e = assertThrows(CosmosException.class, () -> c.queryItems("SELECT * FROM c",
                        new CosmosQueryRequestOptions(), JsonNode.class).iterableByPage(bad, 5).iterator().next());
                assertEquals(400, e.getStatusCode(), bad);
            }
        }
    }

    @Test
    void aggregatesFoldEveryItemWithoutKeepingThem(@TempDir Path dir) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            CosmosContainer c = container(client, 1000);
            JsonNode r = firstPage(c, "SELECT COUNT(1) AS n, SUM(c.n) AS s, MIN(c.n) AS lo, MAX(c.id) AS hi, "
                    + "AVG(c.n) AS avg FROM c", 10).getResults().get(0);
            assertEquals(1000, r.get("n").asInt());
            assertEquals(499500, r.get("s").asLong());
            assertEquals(0, r.get("lo").asInt());
            assertEquals("i999", r.get("hi").asText());
            assertEquals(499.5, r.get("avg").asDouble());
            List<JsonNode> groups = firstPage(c, "SELECT c.grp, COUNT(1) AS n FROM c WHERE c.n < 10 "
                    + "GROUP BY c.grp", 10).getResults();
            assertEquals("[{\"grp\":\"g0\",\"n\":4}, {\"grp\":\"g1\",\"n\":3}, {\"grp\":\"g2\",\"n\":3}]",
                    groups.toString());
        }
    }

    @Test
    void aHierarchicalKeyPrefixReadsOnlyItsEpkRange(@TempDir Path dir) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer(new CosmosContainerProperties("h",
                    new PartitionKeyDefinition().setPaths(List.of("/tenant", "/user"))));
            CosmosContainer c = client.getDatabase("db").getContainer("h");
            for (int i = 0; i < 200; i++) {
                c.createItem(M.createObjectNode().put("id", "i" + i).put("tenant", "t" + i % 4).put("user", "u" + i % 10)
                        .put("n", i));
            }
            FeedResponse<JsonNode> byFilter = c.queryItems("SELECT VALUE c.n FROM c WHERE c.tenant = 't1' AND c.n >= 0",
                    new CosmosQueryRequestOptions(), JsonNode.class).iterableByPage(null, 1000).iterator().next();
            assertEquals(50, byFilter.getResults().size());
            assertTrue(byFilter.getAccessPath().contains("feed range"), byFilter.getAccessPath());
            FeedResponse<JsonNode> scan = c.queryItems("SELECT VALUE c.n FROM c WHERE c.tenant = 't1'",
                    new CosmosQueryRequestOptions(), JsonNode.class).iterableByPage(null, 1000).iterator().next();
            assertEquals(50, scan.getDocumentsLoaded(), "only the prefix's items are read");
            CosmosQueryRequestOptions prefix = new CosmosQueryRequestOptions()
                    .setPartitionKey(new PartitionKeyBuilder().add("t2").build());
            List<JsonNode> viaOption = allPages(c, new SqlQuerySpec("SELECT VALUE c.tenant FROM c"), prefix, 7);
            assertEquals(50, viaOption.size());
            assertTrue(viaOption.stream().allMatch(n -> n.asText().equals("t2")));
        }
    }

    @Test
    void idEqualityInKnownPartitionsIsAPointLookupAndAnIdPrefixAKeyRange(@TempDir Path dir) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            CosmosContainer c = container(client, 700);
            FeedResponse<JsonNode> one = c.queryItems("SELECT * FROM c WHERE c.id = 'i15'",
                    new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey("p1")), JsonNode.class)
                    .iterableByPage(null, 10).iterator().next();
            assertEquals(1, one.getResults().size());
            assertEquals(1, one.getDocumentsLoaded());
            assertTrue(one.getAccessPath().startsWith("primary key lookup"), one.getAccessPath());
            FeedResponse<JsonNode> prefix = firstPage(c,
                    "SELECT VALUE c.id FROM c WHERE c.pk = 'p2' AND STARTSWITH(c.id, 'i10')", 100);
            // i10..i109 and i1000+: those with i % 7 == 2 in p2
            long expected = java.util.stream.IntStream.range(0, 700).filter(i -> i % 7 == 2)
                    .mapToObj(i -> "i" + i).filter(id -> id.startsWith("i10")).count();
            assertEquals(expected, prefix.getResults().size());
            assertEquals(expected, prefix.getDocumentsLoaded());
            assertTrue(prefix.getAccessPath().startsWith("primary key range"), prefix.getAccessPath());
        }
    }

    @Test
    void indexMetricsNameTheIndexUsedAndTheCompositeThatWouldHelp(@TempDir Path dir) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            CosmosContainer c = container(client, 100);
            CosmosQueryRequestOptions o = new CosmosQueryRequestOptions().setIndexMetricsEnabled(true);
            String used = c.queryItems("SELECT * FROM c WHERE c.n = 5", o, JsonNode.class).iterableByPage(null, 10)
                    .iterator().next().getIndexMetrics();
            assertTrue(used.contains("Utilized Single Indexes\n    Index Spec: /n/?"), used);
            String potential = c.queryItems("SELECT * FROM c WHERE c.grp = 'g1' ORDER BY c.n", o, JsonNode.class)
                    .iterableByPage(null, 10).iterator().next().getIndexMetrics();
            assertTrue(potential.contains("Potential Composite Indexes\n    Index Spec: /grp ASC, /n ASC"), potential);
            assertNull(firstPage(c, "SELECT * FROM c WHERE c.n = 5", 10).getIndexMetrics(), "off by default");
        }
    }

    @Test
    void orderByItemsFollowCosmosRules(@TempDir Path dir) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer(new CosmosContainerProperties("c", "/pk").setIndexingPolicy(
                    new IndexingPolicy().setExcludedPaths(List.of("/secret/?", "/\"_etag\"/?"))));
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            c.createItem(M.createObjectNode().put("id", "1").put("pk", "a").put("n", 1).put("secret", 2));
            String[][] cases = {
                {"SELECT * FROM c ORDER BY c.secret", "The index path corresponding to the specified order-by item is excluded"},
                {"SELECT * FROM c ORDER BY c.n + 1", "ORDER BY item expression could not be mapped to a document path"},
                {"SELECT t FROM c JOIN t IN c.tags ORDER BY t", "Order-by over correlated collections is not supported"},
                {"SELECT * FROM c ORDER BY c.n, c.id", "does not have a corresponding composite index"},
            };
            for (String[] q : cases) {
                CosmosException e = assertThrows(CosmosException.class, () -> firstPage(c, q[0], 10), q[0]);
                assertEquals(400, e.getStatusCode(), q[0]);
                assertTrue(e.getMessage().contains(q[1]), e.getMessage());
            }
            assertEquals(1, firstPage(c, "SELECT * FROM c ORDER BY c.n DESC", 10).getResults().size());
        }
    }
}

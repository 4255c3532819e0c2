package io.tetradb.cosmos;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CompositePath;
import com.azure.cosmos.models.CompositePathSortOrder;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.IncludedPath;
import com.azure.cosmos.models.IndexingPolicy;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every query shape the SDK's pipelines handle, computed once by the core behind the pass-through plan, read page by
 * page through continuations: 40 items over 4 logical partitions, read cross-partition.
 */
class QueriesTest extends ServerFixture {
    CosmosContainer c;

    @BeforeAll
    void data() {
        sdk.createDatabaseIfNotExists("queries");
        CosmosContainerProperties props = new CosmosContainerProperties("q", "/cat");
        IndexingPolicy policy = new IndexingPolicy();
        policy.setIncludedPaths(List.of(new IncludedPath("/*")));
        CompositePath cat = new CompositePath();
        cat.setPath("/cat");
        cat.setOrder(CompositePathSortOrder.ASCENDING);
        CompositePath n = new CompositePath();
        n.setPath("/n");
        n.setOrder(CompositePathSortOrder.DESCENDING);
        policy.setCompositeIndexes(List.of(List.of(cat, n)));
        props.setIndexingPolicy(policy);
        sdk.getDatabase("queries").createContainerIfNotExists(props);
        c = sdk.getDatabase("queries").getContainer("q");
        for (int i = 0; i < 40; i++) {
            c.createItem(Json.object().put("id", String.format("q%02d", i)).put("cat", "c" + (i % 4)).put("n", i)
                    .put("name", "name" + i));
        }
    }

    private <T> List<T> all(String sql, Class<T> type) {
        return c.queryItems(sql, new CosmosQueryRequestOptions(), type).stream().toList();
    }

    private List<Integer> numbers(String sql, int pageSize, int[] pages) {
        List<Integer> out = new ArrayList<>();
        for (FeedResponse<Integer> page : c.queryItems(sql, new CosmosQueryRequestOptions(), Integer.class)
                .iterableByPage(pageSize)) {
            pages[0]++;
            assertTrue(page.getResults().size() <= pageSize);
            out.addAll(page.getResults());
        }
        return out;
    }

    @Test
    void parametersAndIn() {
        SqlQuerySpec spec = new SqlQuerySpec("SELECT VALUE c.n FROM c WHERE c.n >= @lo AND c.n < @hi ORDER BY c.n",
                List.of(new SqlParameter("@lo", 10), new SqlParameter("@hi", 13)));
        assertEquals(List.of(10, 11, 12), c.queryItems(spec, new CosmosQueryRequestOptions(), Integer.class)
                .stream().toList());
        assertEquals(20, all("SELECT * FROM c WHERE c.cat IN ('c1', 'c2')", ObjectNode.class).size());
    }

    @Test
    void orderByOnOnePathReadPageByPage() {
        int[] pages = {0};
        List<Integer> desc = numbers("SELECT VALUE c.n FROM c ORDER BY c.n DESC", 7, pages);
        assertEquals(IntStream.range(0, 40).map(i -> 39 - i).boxed().toList(), desc);
        assertTrue(pages[0] >= 6, "pages " + pages[0]);
        List<ObjectNode> rows = all("SELECT c.id, c.n FROM c ORDER BY c.n", ObjectNode.class);
        assertEquals("q00", rows.get(0).get("id").asText());
        assertEquals(40, rows.size());
    }

    @Test
    void orderByOnTwoPathsWithACompositeIndex() {
        List<ObjectNode> rows = all("SELECT c.cat, c.n FROM c ORDER BY c.cat ASC, c.n DESC", ObjectNode.class);
        assertEquals(40, rows.size());
        assertEquals("c0", rows.get(0).get("cat").asText());
        assertEquals(36, rows.get(0).get("n").asInt());
        assertEquals("c3", rows.get(39).get("cat").asText());
        assertEquals(3, rows.get(39).get("n").asInt());
    }

    @Test
    void topAndOffsetLimit() {
        assertEquals(List.of(0, 1, 2, 3, 4), all("SELECT TOP 5 VALUE c.n FROM c ORDER BY c.n", Integer.class));
        assertEquals(List.of(10, 11, 12, 13, 14),
                all("SELECT VALUE c.n FROM c ORDER BY c.n OFFSET 10 LIMIT 5", Integer.class));
        int[] pages = {0};
        assertEquals(IntStream.range(20, 32).boxed().toList(),
                numbers("SELECT VALUE c.n FROM c ORDER BY c.n OFFSET 20 LIMIT 12", 5, pages));
    }

    @Test
    void distinctGroupByAndAggregates() {
        assertEquals(List.of("c0", "c1", "c2", "c3"),
                all("SELECT DISTINCT VALUE c.cat FROM c ORDER BY c.cat", String.class));
        List<ObjectNode> groups = all("SELECT c.cat, COUNT(1) AS cnt, SUM(c.n) AS total, MAX(c.n) AS hi FROM c "
                + "GROUP BY c.cat", ObjectNode.class);
        assertEquals(4, groups.size());
        Map<String, JsonNode> byCat = groups.stream().collect(Collectors.toMap(g -> g.get("cat").asText(), g -> g));
        assertEquals(10, byCat.get("c1").get("cnt").asInt());
        assertEquals(IntStream.range(0, 40).filter(i -> i % 4 == 1).sum(), byCat.get("c1").get("total").asInt());
        assertEquals(39, byCat.get("c3").get("hi").asInt());
        assertEquals(List.of(40), all("SELECT VALUE COUNT(1) FROM c", Integer.class));
        assertEquals(List.of(19.5), all("SELECT VALUE AVG(c.n) FROM c", Double.class));
        assertEquals(List.of(39), all("SELECT VALUE MAX(c.n) FROM c", Integer.class));
        ObjectNode multi = all("SELECT COUNT(1) AS cnt, MIN(c.n) AS lo FROM c", ObjectNode.class).get(0);
        assertEquals(40, multi.get("cnt").asInt());
        assertEquals(0, multi.get("lo").asInt());
    }

    @Test
    void selectValueOfStringsAndObjects() {
        assertEquals("name7", all("SELECT VALUE c.name FROM c WHERE c.n = 7", String.class).get(0));
        ObjectNode o = all("SELECT VALUE {\"k\": c.id} FROM c WHERE c.n = 7", ObjectNode.class).get(0);
        assertEquals("q07", o.get("k").asText());
    }

    @Test
    void continuationResumesInAnotherIterator() {
        CosmosQueryRequestOptions o = new CosmosQueryRequestOptions();
        String sql = "SELECT VALUE c.n FROM c ORDER BY c.n";
        FeedResponse<Integer> first = c.queryItems(sql, o, Integer.class).iterableByPage(10).iterator().next();
        assertEquals(IntStream.range(0, 10).boxed().toList(), first.getResults());
        String token = first.getContinuationToken();
        assertNotNull(token);
        FeedResponse<Integer> second = c.queryItems(sql, o, Integer.class).iterableByPage(token, 10).iterator().next();
        assertEquals(IntStream.range(10, 20).boxed().toList(), second.getResults());
        assertTrue(second.getRequestCharge() > 0);
    }

    @Test
    void queryMetricsWhenAsked() {
        CosmosQueryRequestOptions o = new CosmosQueryRequestOptions().setQueryMetricsEnabled(true);
        FeedResponse<ObjectNode> page = c.queryItems("SELECT * FROM c WHERE c.n < 5", o, ObjectNode.class)
                .iterableByPage().iterator().next();
        assertEquals(5, page.getResults().size());
        String metrics = page.getResponseHeaders().get("x-ms-documentdb-query-metrics");
        assertNotNull(metrics);
        assertTrue(metrics.contains("outputDocumentCount=5;"), metrics);
        assertNotNull(page.getResponseHeaders().get("x-ms-tetradb-query-access"));
        // the SDK parsed it into the page's diagnostics without complaint
        assertTrue(page.getCosmosDiagnostics().toString().contains("retrievedDocumentCount"),
                page.getCosmosDiagnostics().toString());
    }

    @Test
    void singlePartitionQueries() {
        CosmosQueryRequestOptions o = new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey("c2"));
        List<Integer> ns = c.queryItems("SELECT VALUE c.n FROM c ORDER BY c.n DESC", o, Integer.class).stream()
                .toList();
        assertEquals(List.of(38, 34, 30, 26, 22, 18, 14, 10, 6, 2), ns);
        FeedResponse<ObjectNode> page = c.queryItems("SELECT * FROM c WHERE c.n = 2", o, ObjectNode.class)
                .iterableByPage().iterator().next();
        assertEquals(1, page.getResults().size());
        assertNull(page.getContinuationToken());
    }

    @Test
    void aSyntaxErrorIs400() {
        CosmosException e = assertThrows(CosmosException.class,
                () -> all("SELEC * FROM c", ObjectNode.class));
        assertEquals(400, e.getStatusCode());
    }
}

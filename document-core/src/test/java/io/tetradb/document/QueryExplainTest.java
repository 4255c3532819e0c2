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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code CosmosQueryRequestOptions.setExplain(true)}: the plan, the partitions touched, the index of each predicate. */
class QueryExplainTest {
    static final ObjectMapper M = new ObjectMapper();

    @Test
    void explainShowsPlanPartitionsAndTheIndexOfEachPredicate(@TempDir Path dir) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer("books", "/pub");
            CosmosContainer books = client.getDatabase("db").getContainer("books");
            for (int i = 0; i < 300; i++) {
                books.createItem(M.createObjectNode().put("id", "b" + i).put("pub", i % 3 == 0 ? "mspress" : "other")
                        .put("year", 1990 + i % 30).put("title", "Book " + i));
            }
            String sql = "SELECT * FROM c WHERE c.pub = 'mspress' AND c.year = 2001 AND CONTAINS(c.title, '1')";
            CosmosQueryRequestOptions options = new CosmosQueryRequestOptions().setExplain(true);
            FeedResponse<ObjectNode> page = books.queryItems(sql, options, ObjectNode.class)
                    .iterableByPage(null, 100).iterator().next();
            ObjectNode explain = page.getExplain();

            assertTrue(explain.get("plan").asText().contains("Filter"), explain.toString());
            assertEquals("1 logical partition(s)", explain.get("partitions").get("scope").asText());
            assertEquals(1, explain.get("partitions").get("logicalPartitions").size());
            assertTrue(explain.get("partitions").get("logicalPartitions").get(0).asText().contains("mspress"));
            assertEquals(page.getAccessPath(), explain.get("accessPath").asText() + ", 1 logical partition(s)");

            List<String> indexes = new ArrayList<>();
            List<String> uses = new ArrayList<>();
            for (JsonNode p : explain.get("predicates")) {
                indexes.add(p.get("index").isNull() ? null : p.get("index").asText());
                uses.add(p.get("use").asText());
            }
            assertEquals(3, indexes.size(), explain.toString());
            assertEquals("/pub", indexes.get(0));
            assertEquals("/year", indexes.get(1));
            assertNull(indexes.get(2), "CONTAINS has no index");
            // the more selective /year (10 items) is the seek; /pub (100 items) is checked on what it finds
            assertEquals("index seek", uses.get(1), explain.toString());
            assertTrue(uses.get(0).startsWith("filter"), explain.toString());
            assertTrue(uses.get(2).startsWith("filter"), explain.toString());

            FeedResponse<ObjectNode> plain = books.queryItems(sql, new CosmosQueryRequestOptions(), ObjectNode.class)
                    .iterableByPage(null, 100).iterator().next();
            assertNull(plain.getExplain(), "explain only when asked for");
            assertEquals(page.getResults(), plain.getResults(), "explain does not change the results");
        }
    }
}

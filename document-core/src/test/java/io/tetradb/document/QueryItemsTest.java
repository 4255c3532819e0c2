package io.tetradb.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** queryItems end to end: the seed scenarios, parameters, partition scoping, paging, errors. */
class QueryItemsTest {
    static final ObjectMapper M = new ObjectMapper();
    @TempDir
    Path dir;
    CosmosClient client;
    CosmosContainer books;

    @BeforeEach
    void load() throws Exception {
        client = new CosmosClientBuilder().dataDirectory(dir).buildClient();
        client.createDatabase("db");
        client.getDatabase("db").createContainer(new CosmosContainerProperties("books", "/pub-id"),
                ThroughputProperties.createManualThroughput(20000));
        books = client.getDatabase("db").getContainer("books");
        PersistenceAndExamplesTest.Scenario s = PersistenceAndExamplesTest.SCENARIOS.stream()
                .filter(x -> x.file().equals("publisher-books.jsonl")).findFirst().orElseThrow();
        for (ObjectNode item : PersistenceAndExamplesTest.load(s)) {
            books.createItem(item);
        }
    }

    @AfterEach
    void close() {
        client.close();
    }

    private static List<String> ids(Iterable<ObjectNode> items) {
        List<String> out = new ArrayList<>();
        items.forEach(i -> out.add(i.get("id").asText()));
        return out;
    }

    @Test
    void booksOfOnePublisherInOnePartitionAndAcrossAll() {
        String q = "SELECT * FROM c WHERE c[\"pub-id\"] = 'mspress' AND NOT IS_DEFINED(c.type) ORDER BY c.id";
        assertEquals(List.of("1", "100", "1000", "2"),
                ids(books.queryItems(q, new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey("mspress")),
                        ObjectNode.class)));
        assertEquals(List.of("1", "100", "1000", "2"), ids(books.queryItems(q, null, ObjectNode.class)));
        FeedResponse<ObjectNode> seek = books.queryItems("SELECT * FROM c WHERE c.name = 'DocumentDB 101'", null,
                ObjectNode.class).iterableByPage().iterator().next();
        assertEquals(1, seek.getResults().size());
        assertEquals(1, seek.getDocumentsLoaded());
        assertTrue(seek.getAccessPath().startsWith("index seek on /name"), seek.getAccessPath());
        // the book without a publisher lives in the "none" partition
        assertEquals(List.of("3"), ids(books.queryItems("SELECT * FROM c", new CosmosQueryRequestOptions()
                .setPartitionKey(PartitionKey.NONE), ObjectNode.class)));
    }

    @Test
    void parametersProjectionsAndAggregates() {
        SqlQuerySpec spec = new SqlQuerySpec("SELECT VALUE c.name FROM c WHERE c.id IN (@a, @b) ORDER BY c.name",
                new SqlParameter("@a", "1"), new SqlParameter("@b", "2"));
        List<String> names = new ArrayList<>();
        books.queryItems(spec, null, String.class).forEach(names::add);
        assertEquals(List.of("DocumentDB 101", "DocumentDB for RDBMS Users"), names);
        JsonNode count = books.queryItems("SELECT VALUE COUNT(1) FROM c", null, JsonNode.class).iterator().next();
        assertEquals(6, count.asInt());
    }

    @Test
    void pagesCarryContinuationTokensThatResumeWhereTheyStopped() {
        String q = "SELECT c.id FROM c ORDER BY c.id";
        List<String> all = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            FeedResponse<ObjectNode> page = books.queryItems(q, null, ObjectNode.class)
                    .iterableByPage(token, 4).iterator().next();
            page.getResults().forEach(r -> all.add(r.get("id").asText()));
            assertTrue(page.getRequestCharge() >= 2);
            token = page.getContinuationToken();
            pages++;
        } while (token != null);
        assertEquals(2, pages);
        assertEquals(List.of("1", "100", "1000", "2", "3", "mspress"), all);
        FeedResponse<ObjectNode> last = books.queryItems(q, null, ObjectNode.class).iterableByPage(100)
                .iterator().next();
        assertNull(last.getContinuationToken());
    }

    @Test
    void errorsAreCosmosShaped() {
        CosmosException syntax = assertThrows(CosmosException.class,
                () -> books.queryItems("SELECT * FORM c", null, ObjectNode.class));
        assertEquals(400, syntax.getStatusCode());
        assertTrue(syntax.getMessage().contains("FORM"), syntax.getMessage());
        assertEquals(413, assertThrows(CosmosException.class, () -> books.queryItems(
                "SELECT * FROM c WHERE c.x = '" + "x".repeat(600_000) + "'", null, ObjectNode.class)).getStatusCode());
        assertEquals(400, assertThrows(CosmosException.class, () -> books.queryItems("SELECT * FROM c", null,
                ObjectNode.class).iterableByPage("not-a-token", 10).iterator().next()).getStatusCode());
        assertEquals(400, assertThrows(CosmosException.class, () -> books.queryItems(
                "SELECT NOSUCHFUNCTION(c.id) FROM c", null, ObjectNode.class).iterator().hasNext()).getStatusCode());
    }

    @Test
    void aPageHoldsAboutFourMegabytesAtMost() {
        String big = "b".repeat(900_000);
        for (int i = 0; i < 7; i++) {
            books.createItem(M.createObjectNode().put("id", "big" + i).put("pub-id", "bulk").put("blob", big));
        }
        List<Integer> sizes = new ArrayList<>();
        books.queryItems("SELECT * FROM c WHERE c[\"pub-id\"] = 'bulk'", null, ObjectNode.class)
                .iterableByPage(100).forEach(p -> sizes.add(p.getResults().size()));
        assertEquals(List.of(5, 2), sizes, "five 0.9 MB items reach the 4 MB cap, the rest come on the next page");
    }

    /** The seed scenarios' queries run single-partition or fan-out as their partition keys allow, with the index. */
    @Test
    void seedScenariosRouteAndSeek() throws Exception {
        CosmosDatabase db = client.getDatabase("db");
        for (String file : new String[]{"portfolio-referenced.jsonl", "blog-bucketed.jsonl",
                "students-classes-single-collection.jsonl"}) {
            PersistenceAndExamplesTest.Scenario s = PersistenceAndExamplesTest.SCENARIOS.stream()
                    .filter(x -> x.file().equals(file)).findFirst().orElseThrow();
            db.createContainer(s.container(), s.partitionKeyPath());
            for (ObjectNode item : PersistenceAndExamplesTest.load(s)) {
                db.getContainer(s.container()).createItem(item);
            }
        }
        FeedResponse<ObjectNode> books1 = page(books, "SELECT * FROM c WHERE c[\"pub-id\"] = 'mspress' AND c.name = 'DocumentDB 101'");
        assertEquals(1, books1.getResults().size());
        // the name is more selective than the publisher, so the planner seeks on it (and still routes to 1 partition)
        assertEquals("index seek on /name (= c.name = 'DocumentDB 101'), 1 logical partition(s)", books1.getAccessPath());
        assertEquals(1, books1.getDocumentsLoaded());
        FeedResponse<ObjectNode> stocks = page(db.getContainer("portfolio"), "SELECT * FROM c WHERE c.id IN ('s1', 's2')");
        assertEquals(2, stocks.getResults().size());
        assertTrue(stocks.getAccessPath().endsWith("2 logical partition(s)"), stocks.getAccessPath());
        assertEquals(2, stocks.getDocumentsLoaded());
        FeedResponse<ObjectNode> comments = page(db.getContainer("posts"),
                "SELECT VALUE c FROM c WHERE c.postId = '1' AND c.type = 'comments' AND c.bucket = 2");
        assertEquals(1, comments.getResults().size());
        assertTrue(comments.getAccessPath().endsWith("1 logical partition(s)"), comments.getAccessPath());
        FeedResponse<ObjectNode> links = page(db.getContainer("students_classes"),
                "SELECT VALUE c FROM c JOIN l IN c.links WHERE l.target = 'S12345'");
        assertTrue(links.getAccessPath().startsWith("index seek on /links/target"), links.getAccessPath());
        assertTrue(links.getAccessPath().endsWith("all partitions"), links.getAccessPath());
        assertEquals(links.getDocumentsLoaded(), links.getResults().size(), "the index finds exactly the matches");
        assertTrue(links.getResults().size() >= 1);
    }

    private static FeedResponse<ObjectNode> page(CosmosContainer c, String q) {
        return c.queryItems(q, null, ObjectNode.class).iterableByPage().iterator().next();
    }
}

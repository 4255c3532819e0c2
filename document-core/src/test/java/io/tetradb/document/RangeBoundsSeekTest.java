package io.tetradb.document;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Two range conjuncts on one path seek both bounds at once, and keep Cosmos SQL's answers. */
class RangeBoundsSeekTest {
    static final ObjectMapper M = new ObjectMapper();

    @Test
    void bothBoundsOfARangeAreOneSeek(@TempDir Path dir) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer("c", "/pk");
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            for (int i = 0; i < 2000; i++) {
                c.createItem(M.createObjectNode().put("id", "i" + i).put("pk", "p" + i % 7).put("n", i));
            }
            // values that a careless merge would get wrong: an array, a string, a missing n
            ArrayNode arr = M.createArrayNode().add(1000).add(1505);
            c.createItem(M.createObjectNode().put("id", "array").put("pk", "p0").set("n", arr));
            c.createItem(M.createObjectNode().put("id", "string").put("pk", "p0").put("n", "1505"));
            c.createItem(M.createObjectNode().put("id", "none").put("pk", "p0"));

            FeedResponse<ObjectNode> r = page(c, "SELECT * FROM c WHERE c.n >= 1500 AND c.n < 1510");
            assertEquals(10, r.getResults().size());
            // the ten, and the array whose element 1505 is indexed under /n (read, then rejected: SQL compares no array)
            assertEquals(11, r.getDocumentsLoaded(), r.getAccessPath());
            assertTrue(r.getAccessPath().contains("c.n >= 1500 AND range c.n < 1510"), r.getAccessPath());

            assertEquals(List.of(), page(c, "SELECT * FROM c WHERE c.n > 1600 AND c.n < 1500").getResults());
            assertEquals(List.of(), page(c, "SELECT * FROM c WHERE c.n >= 1500 AND c.n < 'z'").getResults(),
                    "a number and a string bound: no value is both");
            assertEquals(1, page(c, "SELECT * FROM c WHERE c.n > '1' AND c.n < '2'").getResults().size());
            FeedResponse<ObjectNode> three = page(c, "SELECT * FROM c WHERE c.n >= 10 AND c.n <= 12 AND c.n != 11");
            assertEquals(2, three.getResults().size());
            assertEquals(3, three.getDocumentsLoaded(), three.getAccessPath()); // 10, 11 and 12 are in the range
        }
    }

    /**
     * A face's multikey range hints ({@code SEEK_HINT}, always true when evaluated) on one path seek both bounds only
     * while no item ever had an array under the path: MongoDB's {@code {m: {$gte: 1500, $lte: 1509}}} matches
     * {@code {m: [0, 9999]}}, whose entries lie in neither bound's intersection. The mark survives a restart.
     */
    @Test
    void seekHintBoundsMergeOnlyOnPathsThatNeverHeldAnArray(@TempDir Path dir) {
        String hinted = "SELECT * FROM c WHERE SEEK_HINT(c.m >= 1500) AND SEEK_HINT(c.m <= 1509) AND c.pk = 'p'";
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer("c", "/pk");
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            for (int i = 0; i < 2000; i++) {
                c.createItem(M.createObjectNode().put("id", "i" + i).put("pk", "p").put("m", i)
                        .set("tags", M.createArrayNode().add(i)));
            }
            FeedResponse<ObjectNode> r = page(c, hinted);
            assertEquals(10, r.getResults().size());
            assertEquals(10, r.getDocumentsLoaded(), r.getAccessPath());

            // /tags is multikey from the first item on: one bound only (the hint is true for every item it reads)
            FeedResponse<ObjectNode> tags = page(c,
                    "SELECT * FROM c WHERE SEEK_HINT(c.tags >= 1990) AND SEEK_HINT(c.tags <= 1995) AND c.pk = 'p'");
            assertTrue(tags.getDocumentsLoaded() >= 10, tags.getAccessPath());
            assertEquals(tags.getDocumentsLoaded(), tags.getResults().size(), "SEEK_HINT is true when evaluated");

            c.createItem(M.createObjectNode().put("id", "wide").put("pk", "p").set("m",
                    M.createArrayNode().add(0).add(9999)));
            FeedResponse<ObjectNode> after = page(c, hinted);
            assertTrue(after.getResults().stream().anyMatch(n -> n.get("id").asText().equals("wide")),
                    "the array item must be a candidate once /m is multikey: " + after.getAccessPath());
        }
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            FeedResponse<ObjectNode> reopened = page(c, hinted);
            assertTrue(reopened.getResults().stream().anyMatch(n -> n.get("id").asText().equals("wide")),
                    "the multikey mark is stored: " + reopened.getAccessPath());
        }
    }

    private static FeedResponse<ObjectNode> page(CosmosContainer c, String sql) {
        return c.queryItems(sql, null, ObjectNode.class).iterableByPage(null, 1000).iterator().next();
    }
}

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

    private static FeedResponse<ObjectNode> page(CosmosContainer c, String sql) {
        return c.queryItems(sql, null, ObjectNode.class).iterableByPage(null, 1000).iterator().next();
    }
}

package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosQueryRequestOptions;
import io.tetradb.document.PartitionKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ParsedItemCacheTest {
    private static final ObjectMapper M = new ObjectMapper();
    private static final String SEEK = "SELECT * FROM c WHERE c.owner = 'ann'";

    private static List<ObjectNode> seek(CosmosContainer c) {
        return c.queryItems(SEEK, new CosmosQueryRequestOptions(), ObjectNode.class).stream().toList();
    }

    @Test
    void aSeekSeesEveryWriteAndCallersCannotChangeWhatOthersGet(@TempDir Path dir) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer("c", "/pk");
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            ObjectNode item = M.createObjectNode().put("id", "a").put("pk", "p").put("owner", "ann").put("n", 1);
            item.putObject("nested").putArray("list").add(1);
            c.createItem(item);

            List<ObjectNode> first = seek(c);
            first.get(0).put("n", 99);
            ((ObjectNode) first.get(0).get("nested")).putArray("list").add(42);
            List<ObjectNode> second = seek(c);
            assertNotSame(first.get(0), second.get(0));
            assertEquals(1, second.get(0).get("n").asInt(), "a caller's change does not reach the next reader");
            assertEquals("[1]", second.get(0).get("nested").get("list").toString());

            c.upsertItem(M.createObjectNode().put("id", "a").put("pk", "p").put("owner", "ann").put("n", 2));
            assertEquals(2, seek(c).get(0).get("n").asInt(), "a new version is parsed again");
            c.deleteItem("a", new PartitionKey("p"), null);
            assertTrue(seek(c).isEmpty());
            c.createItem(M.createObjectNode().put("id", "a").put("pk", "p").put("owner", "ann").put("n", 3));
            assertEquals(3, seek(c).get(0).get("n").asInt(), "re-created with the same id: not the old parse");
        }
    }

    @Test
    void copiesAreDeepAndEqual() {
        ObjectNode n = M.createObjectNode().put("s", "x").put("d", 1.5);
        n.putObject("o").putArray("a").addObject().put("k", true);
        ObjectNode copy = ParsedItemCache.copy(n);
        assertEquals(n, copy);
        ((ObjectNode) copy.get("o").get("a").get(0)).put("k", false);
        assertEquals(true, n.get("o").get("a").get(0).get("k").asBoolean());
    }
}

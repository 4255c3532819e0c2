package io.tetradb.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.value.DateTimeNode;
import io.tetradb.core.value.ObjectIdNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The embedded change feed gives items as the embedded API's point reads and queries do: trees with their typed
 * values (a DateTime, an ObjectId, an Int64 beyond 2^53), not their JSON views — in both feed modes.
 */
class ChangeFeedTypedItemsTest {
    private static final ObjectMapper M = new ObjectMapper();
    @TempDir
    Path dir;

    private static ObjectNode typedItem(String id, int v) {
        ObjectNode item = M.createObjectNode().put("id", id).put("pk", "p1").put("v", v)
                .put("big", (1L << 53) + 1);
        item.set("when", DateTimeNode.ofTicks(17_000_000_000_000_123L));
        item.set("oid", ObjectIdNode.ofHex("5f0000000000000000000001"));
        return item;
    }

    @Test
    void latestVersionItemsAreThePointReadsTypedTrees() {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabaseIfNotExists("db");
            client.getDatabase("db").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"));
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            c.createItem(typedItem("a", 1));
            List<JsonNode> changes = new ArrayList<>();
            c.queryChangeFeed(CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(FeedRange.forFullRange()),
                    JsonNode.class).forEach(changes::add);
            assertEquals(1, changes.size());
            ObjectNode change = (ObjectNode) changes.get(0);
            assertTrue(change.get("when") instanceof DateTimeNode, change.toString());
            assertTrue(change.get("oid") instanceof ObjectIdNode, change.toString());
            assertTrue(change.get("big") instanceof LongNode, change.toString());
            ObjectNode read = c.readItem("a", new PartitionKey("p1"), ObjectNode.class).getItem();
            assertTrue(change.get("_lsn").asLong() > 0);
            change.remove("_lsn");
            assertEquals(read, change, "the point read's tree");
        }
    }

    @Test
    void allVersionsImagesAreTypedTrees() {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabaseIfNotExists("db");
            client.getDatabase("db").createContainer(new CosmosContainerProperties("avad", "/pk")
                    .setChangeFeedPolicy(ChangeFeedPolicy.createAllVersionsAndDeletesPolicy(Duration.ofMinutes(10))));
            CosmosContainer a = client.getDatabase("db").getContainer("avad");
            String token = null;
            for (FeedResponse<JsonNode> page : a.queryChangeFeed(CosmosChangeFeedRequestOptions
                    .createForProcessingFromNow(FeedRange.forFullRange()).allVersionsAndDeletes(), JsonNode.class)
                    .iterableByPage()) {
                token = page.getContinuationToken();
            }
            a.createItem(typedItem("x", 1));
            a.upsertItem(typedItem("x", 2));
            List<JsonNode> changes = new ArrayList<>();
            a.queryChangeFeed(CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(token), JsonNode.class)
                    .forEach(changes::add);
            assertEquals(2, changes.size());
            JsonNode replace = changes.get(1);
            assertTrue(replace.at("/current/when") instanceof DateTimeNode, replace.toString());
            assertTrue(replace.at("/previous/oid") instanceof ObjectIdNode, replace.toString());
            assertEquals(2, replace.at("/current/v").asInt());
            assertEquals(1, replace.at("/previous/v").asInt());
            assertEquals(replace.at("/metadata/lsn").asLong(), replace.at("/current/_lsn").asLong());
        }
    }
}

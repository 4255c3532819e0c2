package io.tetradb.cosmos;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SmokeTest extends ServerFixture {
    @Test
    void createReadQuery() {
        sdk.createDatabaseIfNotExists("smoke");
        CosmosDatabase db = sdk.getDatabase("smoke");
        db.createContainerIfNotExists(new CosmosContainerProperties("c1", "/pk"));
        CosmosContainer c = db.getContainer("c1");
        ObjectNode item = Json.object().put("id", "1").put("pk", "a").put("name", "alice");
        c.createItem(item);
        ObjectNode read = c.readItem("1", new PartitionKey("a"), ObjectNode.class).getItem();
        assertEquals("alice", read.get("name").asText());
        List<String> names = c.queryItems("SELECT VALUE c.name FROM c", new CosmosQueryRequestOptions(),
                String.class).stream().toList();
        assertEquals(List.of("alice"), names);
    }
}

package io.tetradb.cosmos;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The REST face keeps no data of its own: what the SDK writes, the core's document API reads (ETag included), and
 * what the document API writes, the SDK reads and queries.
 */
class CoreInteropTest extends ServerFixture {
    @Test
    void sdkAndCoreApiSeeTheSameItems() {
        sdk.createDatabaseIfNotExists("interop");
        sdk.getDatabase("interop").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"));
        CosmosContainer c = sdk.getDatabase("interop").getContainer("c");
        String etag = c.createItem(Json.object().put("id", "rest").put("pk", "p").put("from", "sdk")).getETag();

        io.tetradb.document.CosmosContainer embedded = core.getDatabase("interop").getContainer("c");
        var viaCore = embedded.readItem("rest", new io.tetradb.document.PartitionKey("p"), ObjectNode.class);
        assertEquals("sdk", viaCore.getItem().get("from").asText());
        assertEquals(etag, viaCore.getItem().get("_etag").asText());

        embedded.createItem(Json.object().put("id", "core").put("pk", "p").put("from", "core"));
        assertEquals("core", c.readItem("core", new PartitionKey("p"), ObjectNode.class).getItem().get("from")
                .asText());
        assertEquals(List.of("core", "rest"), c.queryItems("SELECT VALUE c.id FROM c ORDER BY c.id", null,
                String.class).stream().toList());

        // a container made through the document API is a container to the SDK too
        core.getDatabase("interop").createContainer("embedded", "/tenant");
        assertTrue(sdk.getDatabase("interop").readAllContainers().stream().anyMatch(x -> x.getId().equals("embedded")));
        assertEquals(List.of("/tenant"), sdk.getDatabase("interop").getContainer("embedded").read().getProperties()
                .getPartitionKeyDefinition().getPaths());
    }
}

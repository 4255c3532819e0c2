package io.tetradb.cosmos;

import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosPermissionProperties;
import com.azure.cosmos.models.CosmosUserProperties;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PermissionMode;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code CosmosClientBuilder.permissions(...)} in azure-cosmos 4.81.0 (Azure/azure-sdk-for-java#26050), checked with
 * the real SDK: the SDK keys its token map by the form of each permission's {@code resource} link and then looks up
 * RID-based requests (its partition key range reads) and name-based ones (items) in that one map, so a permission
 * list with one entry per resource fails inside the SDK whichever form the server answers ("Resource token not
 * found", nothing sent). This fails if a later SDK fixes it (then README's advice changes). The same permission given
 * in both forms works, which shows the server side serves the token on both kinds of path.
 */
class PermissionFeedSdkTest extends ServerFixture {

    @Test
    void thePermissionsBuilderFailsInsideTheSdkWhateverTheLinkForm() throws Exception {
        CosmosAsyncClient admin = new CosmosClientBuilder().endpoint(endpoint()).key(KEY).gatewayMode()
                .buildAsyncClient();
        String db = unique("feed");
        sdk.createDatabase(db);
        sdk.getDatabase(db).createContainer("orders", "/pk");
        sdk.getDatabase(db).getContainer("orders").createItem(Json.object().put("id", "o1").put("pk", "a"));
        sdk.getDatabase(db).createUser(new CosmosUserProperties().setId("alice"));
        CosmosPermissionProperties byName = admin.getDatabase(db).getUser("alice").upsertPermission(
                new CosmosPermissionProperties().setId("r").setPermissionMode(PermissionMode.READ)
                        .setContainerName("orders"), null).block().getProperties();
        admin.close();
        assertEquals("orders", byName.getContainerName());

        // the same permission with its RID-based link (the SDK's own JSON constructor: no public way to make one)
        RawClient raw = new RawClient(endpoint(), KEY);
        String ridLink = "dbs/" + raw.send("GET", "/dbs/" + db, null).json().get("_rid").asText() + "/colls/"
                + raw.send("GET", "/dbs/" + db + "/colls/orders", null).json().get("_rid").asText() + "/";
        ObjectNode json = (ObjectNode) raw.send("GET", "/dbs/" + db + "/users/alice/permissions/r", null).json();
        json.put("resource", ridLink);
        var fromJson = CosmosPermissionProperties.class.getDeclaredConstructor(ObjectNode.class);
        fromJson.setAccessible(true);
        CosmosPermissionProperties byRid = fromJson.newInstance(json);

        for (CosmosPermissionProperties only : List.of(byName, byRid)) {
            try (CosmosClient c = new CosmosClientBuilder().endpoint(endpoint()).permissions(List.of(only))
                    .gatewayMode().buildClient()) {
                CosmosException e = assertThrows(CosmosException.class, () -> c.getDatabase(db)
                        .getContainer("orders").readItem("o1", new PartitionKey("a"), JsonNode.class));
                assertEquals(401, e.getStatusCode());
                assertTrue(e.getMessage().contains("Resource token not found"), e.getMessage());
                assertTrue(e.getResponseHeaders().isEmpty(), "failed before sending: " + e.getResponseHeaders());
            }
        }
        try (CosmosClient c = new CosmosClientBuilder().endpoint(endpoint()).permissions(List.of(byName, byRid))
                .gatewayMode().buildClient()) {
            assertEquals("a", c.getDatabase(db).getContainer("orders").readItem("o1", new PartitionKey("a"),
                    JsonNode.class).getItem().get("pk").asText());
        }
    }
}

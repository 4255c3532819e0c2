package io.tetradb.cosmos;

import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosAsyncUser;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.ContainerChildResourceType;
import com.azure.cosmos.models.CosmosPermissionProperties;
import com.azure.cosmos.models.CosmosUserProperties;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PermissionMode;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cosmos DB's "one permission per resource for a user" (409 Conflict, REST reference: Permissions, Create a
 * Permission) through azure-cosmos 4.81.0 and the REST API: a second permission of the same user on the same link and
 * partition key is refused on create, upsert and replace, also when its link names the container by RID, and nothing
 * is stored; another partition key, another resource under the container, another user, or the same permission
 * replaced in place are allowed; after a delete the resource takes a new permission.
 */
class OnePermissionPerResourceTest extends ServerFixture {
    CosmosAsyncClient admin;
    String db;
    CosmosAsyncUser dora;
    RawClient raw;

    @BeforeAll
    void seed() {
        admin = new CosmosClientBuilder().endpoint(endpoint()).key(KEY).gatewayMode().buildAsyncClient();
        raw = new RawClient(endpoint(), KEY);
        db = unique("one-per-resource");
        sdk.createDatabase(db);
        CosmosDatabase d = sdk.getDatabase(db);
        d.createContainer("orders", "/pk");
        d.getContainer("orders").createItem(Json.object().put("id", "o1").put("pk", "a"));
        d.createUser(new CosmosUserProperties().setId("dora"));
        d.createUser(new CosmosUserProperties().setId("eli"));
        dora = admin.getDatabase(db).getUser("dora");
    }

    @AfterAll
    void closeAdmin() {
        admin.close();
    }

    static CosmosPermissionProperties on(String id, PermissionMode mode) {
        return new CosmosPermissionProperties().setId(id).setPermissionMode(mode).setContainerName("orders");
    }

    static void assertConflict(Executable call) {
        CosmosException e = assertThrows(CosmosException.class, call);
        assertEquals(409, e.getStatusCode(), e.getMessage());
        assertTrue(e.getMessage().contains("one permission per resource"), e.getMessage());
    }

    List<String> permissionIds(CosmosAsyncUser user) {
        return user.readAllPermissions().collectList().block().stream().map(CosmosPermissionProperties::getId)
                .sorted().toList();
    }

    @Test
    void aSecondPermissionOnTheSameResourceIs409AndAnythingElseIsAllowed() throws Exception {
        assertEquals(201, dora.createPermission(on("read-orders", PermissionMode.READ), null).block()
                .getStatusCode());
        // create, upsert of a new id: the resource already has dora's permission
        assertConflict(() -> dora.createPermission(on("all-orders", PermissionMode.ALL), null).block());
        assertConflict(() -> dora.upsertPermission(on("all-orders", PermissionMode.ALL), null).block());
        // the same container by its RIDs
        String ridLink = "dbs/" + raw.send("GET", "/dbs/" + db, null).json().get("_rid").asText() + "/colls/"
                + raw.send("GET", "/dbs/" + db + "/colls/orders", null).json().get("_rid").asText() + "/";
        RawClient.Answer byRid = raw.send("POST", "/dbs/" + db + "/users/dora/permissions", "{\"id\":\"by-rid\","
                + "\"permissionMode\":\"All\",\"resource\":\"" + ridLink + "\"}");
        assertEquals(409, byRid.status(), byRid.text());
        assertEquals("Conflict", byRid.json().get("code").asText());
        assertEquals(List.of("read-orders"), permissionIds(dora), "nothing stored by the refusals");

        // the permission itself may be replaced and upserted in place
        CosmosPermissionProperties current = dora.getPermission("read-orders").read(null).block().getProperties();
        assertEquals(PermissionMode.ALL, dora.getPermission("read-orders").replace(
                current.setPermissionMode(PermissionMode.ALL), null).block().getProperties().getPermissionMode());
        assertEquals(200, dora.upsertPermission(on("read-orders", PermissionMode.READ), null).block()
                .getStatusCode());

        // another partition key of the container, an item under it, another user: other resources
        assertEquals(201, dora.createPermission(on("orders-a", PermissionMode.ALL)
                .setResourcePartitionKey(new PartitionKey("a")), null).block().getStatusCode());
        assertConflict(() -> dora.createPermission(on("orders-a-again", PermissionMode.READ)
                .setResourcePartitionKey(new PartitionKey("a")), null).block());
        assertEquals(201, dora.createPermission(on("orders-b", PermissionMode.READ)
                .setResourcePartitionKey(new PartitionKey("b")), null).block().getStatusCode());
        assertEquals(201, dora.createPermission(on("o1", PermissionMode.READ)
                .setResourcePath(ContainerChildResourceType.ITEM, "o1"), null).block().getStatusCode());
        assertConflict(() -> dora.createPermission(on("o1-again", PermissionMode.ALL)
                .setResourcePath(ContainerChildResourceType.ITEM, "o1"), null).block());
        assertEquals(201, admin.getDatabase(db).getUser("eli").createPermission(on("read-orders",
                PermissionMode.READ), null).block().getStatusCode());

        // replacing one permission onto another's resource is the same conflict
        CosmosPermissionProperties b = dora.getPermission("orders-b").read(null).block().getProperties();
        assertConflict(() -> dora.getPermission("orders-b").replace(b.setResourcePartitionKey(new PartitionKey("a")),
                null).block());
        assertEquals(List.of("o1", "orders-a", "orders-b", "read-orders"), permissionIds(dora));

        // the token of the permission that stayed still works; after a delete the resource takes a new one
        String token = dora.getPermission("orders-b").read(null).block().getProperties().getToken();
        RawClient anonymous = new RawClient(endpoint(), null);
        RawClient.Answer stillThere = anonymous.send("GET", "/dbs/" + db + "/colls/orders/docs/o1", null,
                Map.of("x-ms-documentdb-partitionkey", "[\"a\"]", "authorization",
                        java.net.URLEncoder.encode(token, java.nio.charset.StandardCharsets.UTF_8)));
        assertEquals(403, stillThere.status(), "partition b's token does not read partition a");
        dora.getPermission("read-orders").delete(null).block();
        assertEquals(201, dora.createPermission(on("all-orders", PermissionMode.ALL), null).block()
                .getStatusCode());
        assertEquals("o1", sdk.getDatabase(db).getContainer("orders").readItem("o1", new PartitionKey("a"),
                JsonNode.class).getItem().get("id").asText());
    }
}

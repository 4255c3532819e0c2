package io.tetradb.cosmos;

import com.azure.cosmos.ConsistencyLevel;
import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.ContainerChildResourceType;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosPermissionProperties;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.CosmosStoredProcedureProperties;
import com.azure.cosmos.models.CosmosStoredProcedureRequestOptions;
import com.azure.cosmos.models.CosmosUserDefinedFunctionProperties;
import com.azure.cosmos.models.CosmosUserProperties;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PermissionMode;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Permissions on a whole database, on one stored procedure, trigger or UDF, and on a conflict (Cosmos DB's permission
 * resources besides containers and items), through azure-cosmos 4.81.0 {@code resourceToken(...)} clients: a
 * permission covers its link and what lies under it, in its mode, and nothing else (403).
 */
class PermissionScopesTest extends ServerFixture {
    CosmosAsyncClient admin;
    String db;
    String otherDb;
    RawClient raw;
    final List<CosmosClient> tokenClients = new ArrayList<>();

    @BeforeAll
    void seed() {
        admin = new CosmosClientBuilder().endpoint(endpoint()).key(KEY).gatewayMode().buildAsyncClient();
        raw = new RawClient(endpoint(), KEY);
        db = unique("scopes");
        otherDb = unique("elsewhere");
        sdk.createDatabase(db);
        sdk.createDatabase(otherDb);
        CosmosDatabase d = sdk.getDatabase(db);
        d.createContainer("orders", "/pk");
        d.createContainer("invoices", "/pk");
        sdk.getDatabase(otherDb).createContainer("orders", "/pk");
        d.getContainer("orders").createItem(item("o1", "a"));
        d.getContainer("invoices").createItem(item("i1", "a"));
        sdk.getDatabase(otherDb).getContainer("orders").createItem(item("x1", "a"));
        var scripts = d.getContainer("orders").getScripts();
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("stamp",
                "function stamp(id) { var c = getContext().getCollection(); "
                        + "c.createDocument(c.getSelfLink(), {id: id, pk: 'a', stamped: true}, function (e) { if (e) throw e; }); "
                        + "getContext().getResponse().setBody('ok'); }"));
        scripts.createStoredProcedure(new CosmosStoredProcedureProperties("other",
                "function other() { getContext().getResponse().setBody(2); }"));
        scripts.createUserDefinedFunction(new CosmosUserDefinedFunctionProperties("double",
                "function double(x) { return x * 2; }"));
        d.createUser(new CosmosUserProperties().setId("alice"));
    }

    @AfterAll
    void closeClients() {
        tokenClients.forEach(CosmosClient::close);
        admin.close();
    }

    static ObjectNode item(String id, String pk) {
        return Json.object().put("id", id).put("pk", pk).put("n", 1);
    }

    /** A permission of alice through the REST API (azure-cosmos has no database permission); answers its token. */
    String rawToken(String id, String mode, String resource) throws Exception {
        dropOtherPermissions(id);
        RawClient.Answer a = raw.send("POST", "/dbs/" + db + "/users/alice/permissions", "{\"id\":\"" + id
                + "\",\"permissionMode\":\"" + mode + "\",\"resource\":\"" + resource + "\"}",
                Map.of("x-ms-documentdb-is-upsert", "true"));
        assertTrue(a.status() == 201 || a.status() == 200, a.text());
        assertEquals(resource, a.json().get("resource").asText());
        return a.json().get("_token").asText();
    }

    /** Cosmos DB allows a user one permission per resource (409): these tests give alice one at a time. */
    void dropOtherPermissions(String keep) {
        try { // through REST: the SDK's permission list cannot parse a database permission
            String permissions = "/dbs/" + db + "/users/alice/permissions";
            for (JsonNode other : raw.send("GET", permissions, null).json().get("Permissions")) {
                String id = other.get("id").asText();
                if (!id.equals(keep)) {
                    assertEquals(204, raw.send("DELETE", permissions + "/" + id, null).status());
                }
            }
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    String token(CosmosPermissionProperties p) {
        dropOtherPermissions(p.getId());
        return admin.getDatabase(db).getUser("alice").upsertPermission(p, null).block().getProperties().getToken();
    }

    CosmosClient tokenClient(String token) {
        CosmosClient c = new CosmosClientBuilder().endpoint(endpoint()).resourceToken(token).gatewayMode()
                .consistencyLevel(ConsistencyLevel.SESSION).buildClient();
        tokenClients.add(c);
        return c;
    }

    static void assertStatus(int status, Executable call) {
        CosmosException e = assertThrows(CosmosException.class, call);
        assertEquals(status, e.getStatusCode(), e.getMessage());
    }

    @Test
    void aDatabaseReadPermissionReadsEveryContainerOfItsDatabase() throws Exception {
        CosmosClient c = tokenClient(rawToken("db-read", "Read", "dbs/" + db));
        CosmosDatabase d = c.getDatabase(db);
        assertEquals(db, d.read().getProperties().getId());
        assertEquals("a", d.getContainer("orders").readItem("o1", new PartitionKey("a"), JsonNode.class).getItem()
                .get("pk").asText());
        assertEquals(1, d.getContainer("invoices").queryItems("SELECT * FROM c", new CosmosQueryRequestOptions(),
                JsonNode.class).stream().count());
        assertTrue(d.readAllContainers().stream().anyMatch(p -> p.getId().equals("invoices")));
        assertStatus(403, () -> d.getContainer("orders").createItem(item("o9", "a")));
        assertStatus(403, () -> d.createContainer("new", "/pk"));
        assertStatus(403, () -> d.readAllUsers().stream().count());
        assertStatus(403, () -> c.getDatabase(otherDb).getContainer("orders").readItem("x1", new PartitionKey("a"),
                JsonNode.class));
        assertStatus(403, () -> c.readAllDatabases().stream().count());
    }

    @Test
    void aDatabaseAllPermissionWritesInsideItsDatabaseOnly() throws Exception {
        CosmosClient c = tokenClient(rawToken("db-all", "All", "dbs/" + db + "/"));
        CosmosDatabase d = c.getDatabase(db);
        d.getContainer("orders").createItem(item("w1", "b"));
        d.getContainer("invoices").upsertItem(item("w2", "b"));
        d.createContainer(new CosmosContainerProperties("made-by-token", "/pk"));
        d.getContainer("made-by-token").createItem(item("m1", "a"));
        assertEquals(1, sdk.getDatabase(db).getContainer("made-by-token").readItem("m1", new PartitionKey("a"),
                JsonNode.class).getStatusCode() / 200);
        d.getContainer("made-by-token").delete();
        assertStatus(403, () -> c.getDatabase(otherDb).getContainer("orders").createItem(item("x2", "a")));
        assertStatus(403, () -> d.createUser(new CosmosUserProperties().setId("mallory")));
        assertStatus(403, () -> c.createDatabase(unique("nope")));
        assertStatus(403, () -> d.readThroughput());
        // a partition key belongs to a container, not to a database
        RawClient.Answer keyed = raw.send("POST", "/dbs/" + db + "/users/alice/permissions", "{\"id\":\"db-key\","
                + "\"permissionMode\":\"Read\",\"resource\":\"dbs/" + db + "\",\"resourcePartitionKey\":[\"a\"]}");
        assertEquals(400, keyed.status(), keyed.text());
    }

    @Test
    void aStoredProcedurePermissionCoversThatProcedureOnly() {
        CosmosPermissionProperties read = new CosmosPermissionProperties().setId("sp-read")
                .setPermissionMode(PermissionMode.READ).setContainerName("orders")
                .setResourcePath(ContainerChildResourceType.STORED_PROCEDURE, "stamp");
        CosmosClient reader = tokenClient(token(read));
        CosmosContainer orders = reader.getDatabase(db).getContainer("orders");
        var options = new CosmosStoredProcedureRequestOptions().setPartitionKey(new PartitionKey("a"));
        assertTrue(orders.getScripts().getStoredProcedure("stamp").read().getProperties().getBody().contains("stamped"));
        assertStatus(403, () -> orders.getScripts().getStoredProcedure("stamp").execute(List.of("s0"), options));
        assertStatus(403, () -> orders.getScripts().getStoredProcedure("other").read());
        assertStatus(403, () -> orders.readItem("o1", new PartitionKey("a"), JsonNode.class));

        CosmosPermissionProperties all = new CosmosPermissionProperties().setId("sp-all")
                .setPermissionMode(PermissionMode.ALL).setContainerName("orders")
                .setResourcePath(ContainerChildResourceType.STORED_PROCEDURE, "stamp");
        CosmosClient runner = tokenClient(token(all));
        CosmosContainer runnerOrders = runner.getDatabase(db).getContainer("orders");
        assertEquals("\"ok\"", runnerOrders.getScripts().getStoredProcedure("stamp").execute(List.of("s1"), options)
                .getResponseAsString());
        assertTrue(sdk.getDatabase(db).getContainer("orders").readItem("s1", new PartitionKey("a"), JsonNode.class)
                .getItem().get("stamped").asBoolean());
        assertStatus(403, () -> runnerOrders.getScripts().getStoredProcedure("other").execute(List.of(), options));
        assertStatus(403, () -> runnerOrders.createItem(item("o8", "a")));
        assertStatus(403, () -> runnerOrders.getScripts().createStoredProcedure(
                new CosmosStoredProcedureProperties("mine", "function mine() {}")));
        // replaced through its RID-based _self, as the SDK does
        var props = runnerOrders.getScripts().getStoredProcedure("stamp").read().getProperties();
        runnerOrders.getScripts().getStoredProcedure("stamp").replace(props.setBody(props.getBody() + " "));
    }

    @Test
    void aUdfPermissionReadsThatUdf() {
        CosmosClient c = tokenClient(token(new CosmosPermissionProperties().setId("udf-read")
                .setPermissionMode(PermissionMode.READ).setContainerName("orders")
                .setResourcePath(ContainerChildResourceType.USER_DEFINED_FUNCTION, "double")));
        var scripts = c.getDatabase(db).getContainer("orders").getScripts();
        assertEquals("double", scripts.getUserDefinedFunction("double").read().getProperties().getId());
        assertStatus(403, () -> scripts.getStoredProcedure("stamp").read());
    }

    @Test
    void aConflictPermissionIsAcceptedAndCoversThatConflict() throws Exception {
        String token = rawToken("conflict", "Read", "dbs/" + db + "/colls/orders/conflicts/c1");
        RawClient asToken = new RawClient(endpoint(), null);
        Map<String, String> auth = Map.of("authorization", java.net.URLEncoder.encode(token,
                java.nio.charset.StandardCharsets.UTF_8));
        // single writer: no conflict ever exists, so the one it covers is not found, and nothing else is reachable
        assertEquals(404, asToken.send("GET", "/dbs/" + db + "/colls/orders/conflicts/c1", null, auth).status());
        assertEquals(403, asToken.send("GET", "/dbs/" + db + "/colls/orders/conflicts", null, auth).status());
        assertEquals(403, asToken.send("GET", "/dbs/" + db + "/colls/orders/docs/o1", null,
                Map.of("authorization", auth.get("authorization"), "x-ms-documentdb-partitionkey", "[\"a\"]")).status());
        assertEquals(400, raw.send("POST", "/dbs/" + db + "/users/alice/permissions", "{\"id\":\"bad\","
                + "\"permissionMode\":\"Read\",\"resource\":\"dbs/" + db + "/colls/orders/attachments/a\"}").status());
    }
}

package io.tetradb.cosmos;

import com.azure.cosmos.ConsistencyLevel;
import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.ContainerChildResourceType;
import com.azure.cosmos.models.CosmosPermissionProperties;
import com.azure.cosmos.models.CosmosPermissionRequestOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.CosmosUserProperties;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PermissionMode;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.ttl.ManualClock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.net.InetAddress;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Users, permissions and resource tokens through azure-cosmos 4.81.0: the master key manages them, the read-only
 * key cannot; a client built with {@code resourceToken(...)} reads and writes exactly what its permission covers
 * (container or item, Read or All, partition key) and gets Cosmos DB's 403 elsewhere; a tampered, revoked, expired
 * or foreign-key token is 401.
 */
class ResourceTokensTest extends ServerFixture {
    static final String READ_ONLY_KEY = AuthTest.READ_ONLY_KEY;
    final ManualClock manual = new ManualClock();
    CosmosAsyncClient admin;
    String db;
    final List<CosmosClient> tokenClients = new ArrayList<>();

    @Override
    Clock clock() {
        return manual;
    }

    @Override
    CosmosRestOptions options() {
        return CosmosRestOptions.defaults().withReadOnlyKey(READ_ONLY_KEY);
    }

    @BeforeAll
    void seed() {
        admin = new CosmosClientBuilder().endpoint(endpoint()).key(KEY).gatewayMode().buildAsyncClient();
        db = unique("tokens");
        sdk.createDatabase(db);
        CosmosDatabase d = sdk.getDatabase(db);
        d.createContainer("orders", "/pk");
        d.createContainer("other", "/pk");
        d.getContainer("orders").createItem(item("o1", "a"));
        d.getContainer("orders").createItem(item("o2", "b"));
        d.getContainer("other").createItem(item("x1", "a"));
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

    CosmosPermissionProperties permission(String id, PermissionMode mode, String container) {
        return new CosmosPermissionProperties().setId(id).setPermissionMode(mode).setContainerName(container);
    }

    /**
     * Creates (or upserts) a permission of alice with the master key and answers its resource token. Alice's other
     * permissions go first: Cosmos DB allows a user one permission per resource (409), and these tests give alice one
     * permission at a time.
     */
    String token(CosmosPermissionProperties p) {
        var alice = admin.getDatabase(db).getUser("alice");
        for (CosmosPermissionProperties other : alice.readAllPermissions().collectList().block()) {
            if (!other.getId().equals(p.getId())) {
                alice.getPermission(other.getId()).delete(null).block();
            }
        }
        return alice.upsertPermission(p, new CosmosPermissionRequestOptions()).block().getProperties().getToken();
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

    CosmosContainer orders(CosmosClient c) {
        return c.getDatabase(db).getContainer("orders");
    }

    int count(CosmosContainer c, String sql, CosmosQueryRequestOptions options) {
        return (int) c.queryItems(sql, options, JsonNode.class).stream().count();
    }

    @Test
    void theMasterKeyManagesUsersAndPermissions() {
        CosmosDatabase d = sdk.getDatabase(db);
        d.createUser(new CosmosUserProperties().setId("bob"));
        assertEquals("bob", d.getUser("bob").read().getProperties().getId());
        assertStatus(409, () -> d.createUser(new CosmosUserProperties().setId("bob")));
        assertTrue(d.readAllUsers().stream().anyMatch(u -> u.getId().equals("bob")));
        assertEquals(1, d.queryUsers("SELECT * FROM u WHERE u.id = 'bob'").stream().count());
        assertEquals(201, d.upsertUser(new CosmosUserProperties().setId("carl")).getStatusCode());
        assertEquals(200, d.upsertUser(new CosmosUserProperties().setId("carl")).getStatusCode());
        d.getUser("carl").delete();

        var bob = admin.getDatabase(db).getUser("bob");
        CosmosPermissionProperties created = bob.createPermission(permission("read-orders", PermissionMode.READ,
                "orders"), null).block().getProperties();
        assertEquals(PermissionMode.READ, created.getPermissionMode());
        assertEquals("orders", created.getContainerName());
        assertTrue(created.getToken().startsWith("type=resource&ver=1.0&sig="), created.getToken());
        assertStatus(409, () -> bob.createPermission(permission("read-orders", PermissionMode.READ, "orders"), null)
                .block());
        List<CosmosPermissionProperties> all = bob.readAllPermissions().collectList().block();
        assertEquals(1, all.size());
        assertFalse(all.get(0).getToken().isEmpty());
        // reading mints a new token for the same permission
        String read = bob.getPermission("read-orders").read(null).block().getProperties().getToken();
        assertTrue(read.startsWith("type=resource&"));

        // the SDK replaces through the permission's RID-based _self, so it replaces what it read
        CosmosPermissionProperties current = bob.getPermission("read-orders").read(null).block().getProperties();
        CosmosPermissionProperties replaced = bob.getPermission("read-orders").replace(
                current.setPermissionMode(PermissionMode.ALL), null).block().getProperties();
        assertEquals(PermissionMode.ALL, replaced.getPermissionMode());
        RawClient raw = new RawClient(endpoint(), KEY);
        String perms = "/dbs/" + db + "/users/bob/permissions";
        try {
            assertEquals(404, raw.send("POST", perms, "{\"id\":\"p\",\"permissionMode\":\"Read\","
                    + "\"resource\":\"dbs/" + db + "/colls/missing\"}").status());
            assertEquals(400, raw.send("POST", perms, "{\"id\":\"p\",\"permissionMode\":\"Write\","
                    + "\"resource\":\"dbs/" + db + "/colls/orders\"}").status());
            assertEquals(400, raw.send("POST", perms, "{\"id\":\"p\",\"permissionMode\":\"Read\","
                    + "\"resource\":\"dbs/" + db + "/colls/orders/pkranges/0\"}").status());
        } catch (Exception e) {
            throw new AssertionError(e);
        }

        bob.getPermission("read-orders").delete(null).block();
        assertStatus(404, () -> bob.getPermission("read-orders").read(null).block());
        d.getUser("bob").delete();
        assertStatus(404, () -> d.getUser("bob").read());
    }

    @Test
    void theReadOnlyKeyCannotCreateUsersOrPermissions() {
        token(permission("ro-check", PermissionMode.READ, "orders"));
        CosmosClient readOnly = client(READ_ONLY_KEY);
        tokenClients.add(readOnly);
        assertStatus(401, () -> readOnly.getDatabase(db).createUser(new CosmosUserProperties().setId("mallory")));
        assertTrue(readOnly.getDatabase(db).readAllUsers().stream().anyMatch(u -> u.getId().equals("alice")));
        CosmosAsyncClient asyncReadOnly = new CosmosClientBuilder().endpoint(endpoint()).key(READ_ONLY_KEY)
                .gatewayMode().buildAsyncClient();
        try {
            var alice = asyncReadOnly.getDatabase(db).getUser("alice");
            assertStatus(401, () -> alice.createPermission(permission("ro", PermissionMode.ALL, "orders"), null)
                    .block());
            // reading a permission would hand out its token: refused to the read-only key too
            assertStatus(401, () -> alice.getPermission("ro-check").read(null).block());
        } finally {
            asyncReadOnly.close();
        }
    }

    @Test
    void aReadTokenReadsItsContainerAndNothingElse() {
        CosmosClient c = tokenClient(token(permission("read-orders", PermissionMode.READ, "orders")));
        CosmosContainer orders = orders(c);
        assertEquals("a", orders.readItem("o1", new PartitionKey("a"), JsonNode.class).getItem().get("pk").asText());
        assertEquals(2, count(orders, "SELECT * FROM c", new CosmosQueryRequestOptions()));
        assertEquals(2, orders.readAllItems(new PartitionKey("a"), JsonNode.class).stream().count()
                + orders.readAllItems(new PartitionKey("b"), JsonNode.class).stream().count());
        assertStatus(403, () -> orders.createItem(item("o3", "a")));
        assertStatus(403, () -> orders.upsertItem(item("o1", "a")));
        assertStatus(403, () -> orders.deleteItem("o1", new PartitionKey("a"), null));
        assertStatus(403, () -> c.getDatabase(db).getContainer("other").readItem("x1", new PartitionKey("a"),
                JsonNode.class));
        // never databases, users, permissions or offers
        assertStatus(403, () -> c.createDatabase(unique("nope")));
        assertStatus(403, () -> c.getDatabase(db).createUser(new CosmosUserProperties().setId("eve")));
        assertStatus(403, () -> c.getDatabase(db).readAllUsers().stream().count());
        assertStatus(403, () -> orders.readThroughput());
        assertStatus(403, () -> c.getDatabase(db).delete());
    }

    @Test
    void anAllTokenWritesItsContainerOnly() {
        CosmosClient c = tokenClient(token(permission("all-orders", PermissionMode.ALL, "orders")));
        CosmosContainer orders = orders(c);
        assertEquals(201, orders.createItem(item("w1", "a")).getStatusCode());
        assertEquals(200, orders.replaceItem(item("w1", "a").put("n", 2), "w1", new PartitionKey("a"), null)
                .getStatusCode());
        assertEquals(204, orders.deleteItem("w1", new PartitionKey("a"), null).getStatusCode());
        assertStatus(403, () -> c.getDatabase(db).getContainer("other").createItem(item("w2", "a")));
        assertStatus(404, () -> sdk.getDatabase(db).getContainer("other").readItem("w2", new PartitionKey("a"),
                JsonNode.class));
    }

    @Test
    void aPartitionKeyTokenStaysInItsPartition() {
        CosmosClient c = tokenClient(token(permission("orders-a", PermissionMode.ALL, "orders")
                .setResourcePartitionKey(new PartitionKey("a"))));
        CosmosContainer orders = orders(c);
        assertEquals("o1", orders.readItem("o1", new PartitionKey("a"), JsonNode.class).getItem().get("id").asText());
        assertStatus(403, () -> orders.readItem("o2", new PartitionKey("b"), JsonNode.class));
        assertEquals(1, count(orders, "SELECT * FROM c", new CosmosQueryRequestOptions()
                .setPartitionKey(new PartitionKey("a"))));
        assertStatus(403, () -> count(orders, "SELECT * FROM c", new CosmosQueryRequestOptions()));
        assertEquals(201, orders.createItem(item("pa", "a")).getStatusCode());
        assertStatus(403, () -> orders.createItem(item("pb", "b")));
    }

    @Test
    void scriptsAndBatchesFollowTheModeAndThePartition() {
        sdk.getDatabase(db).getContainer("orders").getScripts().createStoredProcedure(
                new com.azure.cosmos.models.CosmosStoredProcedureProperties("one",
                        "function one() { getContext().getResponse().setBody(1); }"));
        var options = new com.azure.cosmos.models.CosmosStoredProcedureRequestOptions()
                .setPartitionKey(new PartitionKey("a"));
        CosmosClient reader = tokenClient(token(permission("read-scripts", PermissionMode.READ, "orders")));
        assertEquals("one", orders(reader).getScripts().getStoredProcedure("one").read().getProperties().getId());
        // executing may write: an All token's business, as the read-only key's rule
        assertStatus(403, () -> orders(reader).getScripts().getStoredProcedure("one").execute(List.of(), options));
        CosmosClient writer = tokenClient(token(permission("all-a-scripts", PermissionMode.ALL, "orders")
                .setResourcePartitionKey(new PartitionKey("a"))));
        assertEquals("1", orders(writer).getScripts().getStoredProcedure("one").execute(List.of(), options)
                .getResponseAsString());
        var inA = com.azure.cosmos.models.CosmosBatch.createCosmosBatch(new PartitionKey("a"));
        inA.createItemOperation(item("ba", "a"));
        assertEquals(200, orders(writer).executeCosmosBatch(inA).getStatusCode());
        var inB = com.azure.cosmos.models.CosmosBatch.createCosmosBatch(new PartitionKey("b"));
        inB.createItemOperation(item("bb", "b"));
        assertStatus(403, () -> orders(writer).executeCosmosBatch(inB));
        assertStatus(404, () -> sdk.getDatabase(db).getContainer("orders").readItem("bb", new PartitionKey("b"),
                JsonNode.class));
    }

    @Test
    void anItemTokenReadsThatItemOnly() {
        CosmosClient c = tokenClient(token(permission("o1-only", PermissionMode.READ, "orders")
                .setResourcePath(ContainerChildResourceType.ITEM, "o1")));
        CosmosContainer orders = orders(c);
        assertEquals("o1", orders.readItem("o1", new PartitionKey("a"), JsonNode.class).getItem().get("id").asText());
        assertStatus(403, () -> orders.readItem("o2", new PartitionKey("b"), JsonNode.class));
        assertStatus(403, () -> count(orders, "SELECT * FROM c", new CosmosQueryRequestOptions()));
    }

    @Test
    void tamperedRevokedAndForeignTokensAre401() throws Exception {
        String token = token(permission("raw-read", PermissionMode.READ, "orders"));
        RawClient raw = new RawClient(endpoint(), null);
        String path = "/dbs/" + db + "/colls/orders/docs/o1";
        Map<String, String> pk = Map.of("x-ms-documentdb-partitionkey", "[\"a\"]");
        assertEquals(200, raw.send("GET", path, null, with(pk, token)).status());

        // flip one character of the claims: the mac no longer matches
        int at = ResourceTokens.PREFIX.length() + 5;
        String tampered = token.substring(0, at) + (token.charAt(at) == 'A' ? 'B' : 'A') + token.substring(at + 1);
        RawClient.Answer bad = raw.send("GET", path, null, with(pk, tampered));
        assertEquals(401, bad.status());
        assertEquals("Unauthorized", bad.json().get("code").asText());
        assertTrue(bad.json().get("message").asText().contains("can't serve the request"), bad.text());

        // a server with another master key does not accept it (the secret derives from the key)
        CosmosHttpServer rekeyed = CosmosHttpServer.start(InetAddress.getLoopbackAddress(), 0, core,
                CosmosRestOptions.defaults().withMasterKey(READ_ONLY_KEY));
        try {
            RawClient other = new RawClient("http://localhost:" + rekeyed.address().getPort(), null);
            assertEquals(401, other.send("GET", path, null, with(pk, token)).status());
        } finally {
            rekeyed.close();
        }

        // replacing the permission revokes the tokens handed out before; deleting it revokes the new one
        String fresh = token(permission("raw-read", PermissionMode.READ, "orders"));
        assertEquals(401, raw.send("GET", path, null, with(pk, token)).status());
        assertEquals(200, raw.send("GET", path, null, with(pk, fresh)).status());
        admin.getDatabase(db).getUser("alice").getPermission("raw-read").delete(null).block();
        assertEquals(401, raw.send("GET", path, null, with(pk, fresh)).status());
    }

    @Test
    void anExpiredTokenIs401AndTheExpiryIsBounded() throws Exception {
        String token = token(permission("short", PermissionMode.READ, "orders"));
        CosmosClient c = tokenClient(token);
        assertEquals("o1", orders(c).readItem("o1", new PartitionKey("a"), JsonNode.class).getItem().get("id")
                .asText());
        manual.advance(Duration.ofSeconds(ResourceTokens.DEFAULT_SECONDS + 1));
        CosmosException expired = assertThrows(CosmosException.class,
                () -> orders(c).readItem("o1", new PartitionKey("a"), JsonNode.class));
        assertEquals(401, expired.getStatusCode());
        assertTrue(expired.getMessage().contains("not valid at the current time"), expired.getMessage());

        // x-ms-documentdb-expiry-seconds: 600 s to 5 h, as Cosmos DB
        RawClient raw = new RawClient(endpoint(), KEY);
        String path = "/dbs/" + db + "/users/alice/permissions/short";
        assertEquals(200, raw.send("GET", path, null, Map.of(ResourceTokens.EXPIRY_HEADER, "18000")).status());
        assertEquals(400, raw.send("GET", path, null, Map.of(ResourceTokens.EXPIRY_HEADER, "18001")).status());
        assertEquals(400, raw.send("GET", path, null, Map.of(ResourceTokens.EXPIRY_HEADER, "599")).status());
        String shortLived = raw.send("GET", path, null, Map.of(ResourceTokens.EXPIRY_HEADER, "600")).json()
                .get("_token").asText();
        RawClient anonymous = new RawClient(endpoint(), null);
        Map<String, String> pk = Map.of("x-ms-documentdb-partitionkey", "[\"a\"]");
        String item = "/dbs/" + db + "/colls/orders/docs/o1";
        assertEquals(200, anonymous.send("GET", item, null, with(pk, shortLived)).status());
        manual.advance(Duration.ofSeconds(601));
        assertEquals(401, anonymous.send("GET", item, null, with(pk, shortLived)).status());
        assertNotEquals(token, shortLived);
    }

    static Map<String, String> with(Map<String, String> headers, String token) {
        Map<String, String> out = new java.util.HashMap<>(headers);
        out.put("authorization", URLEncoder.encode(token, StandardCharsets.UTF_8));
        return out;
    }
}

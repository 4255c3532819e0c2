package io.tetradb.server.config;

import com.azure.cosmos.ConsistencyLevel;
import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosPermissionProperties;
import com.azure.cosmos.models.CosmosPermissionRequestOptions;
import com.azure.cosmos.models.CosmosUserProperties;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PermissionMode;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.cosmos.CosmosKeys;
import io.tetradb.cosmos.CosmosRestOptions;
import io.tetradb.server.Endpoint;
import io.tetradb.server.ServerConfig;
import io.tetradb.server.TetraDbServer;
import io.tetradb.testing.TestTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Cosmos master key rotation without a restart, as Cosmos DB's "regenerate primary key": the server reads its key
 * pair from {@code tetradb.yaml}; the file is rewritten with a new pair, the running server picks it up, and
 * azure-cosmos finds the old read-write and read-only keys refused with 401, the new ones accepted, and a resource
 * token minted under the old key refused with 401 (its signature derives from the master key) while the permission
 * read again gives a token that works.
 */
class CosmosKeyRotationTest {
    private static final Duration PICKUP = TestTime.patience(Duration.ofSeconds(30)); // the watcher polls each second
    private final List<CosmosClient> clients = new ArrayList<>();

    @Test
    void aRotatedKeyPairIsInForceWhileTheServerRuns(@TempDir Path dir) throws Exception {
        String oldKey = newKey();
        String oldReadOnly = newKey();
        String newKey = newKey();
        String newReadOnly = newKey();
        Path file = dir.resolve(SecurityConfig.FILE_NAME);
        writeAtomically(file, keys(oldKey, oldReadOnly));
        SecurityConfig security = SecurityConfig.load(file, true, Map.of());
        ServerConfig config = ServerConfig.ephemeral(dir).withCosmosPort(0).withSecurity(security)
                .withCosmosKeys(security.cosmosKey(), security.cosmosReadOnlyKey()); // as `tetradb start` does
        try (TetraDbServer server = new TetraDbServer(config).start()) {
            String endpoint = "http://" + Endpoint.hostPort(server.endpoint("cosmos").address());
            Function<String, CosmosClient> withKey = key -> track(new CosmosClientBuilder().endpoint(endpoint)
                    .key(key).gatewayMode().consistencyLevel(ConsistencyLevel.SESSION).buildClient());
            CosmosClient owner = withKey.apply(oldKey);
            owner.createDatabase("shop");
            owner.getDatabase("shop").createContainer("orders", "/pk");
            orders(owner).createItem(item("o1"));
            owner.getDatabase("shop").createUser(new CosmosUserProperties().setId("alice"));
            CosmosPermissionProperties readOrders = new CosmosPermissionProperties().setId("read-orders")
                    .setPermissionMode(PermissionMode.READ).setContainerName("orders");
            String oldToken = permissionToken(endpoint, oldKey, readOrders);
            CosmosClient tokenClient = withToken(endpoint, oldToken);
            assertEquals("o1", read(tokenClient).get("id").asText());
            assertEquals("o1", read(withKey.apply(oldReadOnly)).get("id").asText());

            writeAtomically(file, keys(newKey, newReadOnly)); // as an editor or a mounted secret replaces it
            awaitAccepted(() -> read(withKey.apply(newKey)));

            assertStatus(401, () -> read(withKey.apply(oldKey)));
            assertStatus(401, () -> read(withKey.apply(oldReadOnly)));
            assertEquals("o1", read(withKey.apply(newReadOnly)).get("id").asText());
            assertStatus(401, () -> orders(withKey.apply(newReadOnly)).createItem(item("o2")));
            CosmosClient rotated = withKey.apply(newKey);
            orders(rotated).createItem(item("o2"));
            assertStatus(401, () -> read(tokenClient)); // a token minted with the old key
            assertStatus(401, () -> read(withToken(endpoint, oldToken)));
            String newToken = permissionToken(endpoint, newKey, readOrders);
            assertEquals("o1", read(withToken(endpoint, newToken)).get("id").asText(), "the permission read again");
            assertEquals(newKey, server.cosmosKeys().masterKey());
        } finally {
            clients.forEach(CosmosClient::close);
        }
    }

    @Test
    void aBrokenOrEmptiedFileKeepsOrResetsTheKeysAsItSaysAndNothingShowsThem(@TempDir Path dir) throws Exception {
        String key = newKey();
        String readOnly = newKey();
        Path file = dir.resolve(SecurityConfig.FILE_NAME);
        writeAtomically(file, keys(key, readOnly));
        CosmosKeys keys = CosmosKeys.of(key, readOnly);
        try (CosmosKeysWatcher watcher = CosmosKeysWatcher.watch(file, keys, true)) {
            Files.writeString(file, "cosmos:\n  key: [\n"); // half-written
            watcher.check();
            assertEquals(key, keys.masterKey(), "the keys in force stay");
            writeAtomically(file, keys("not base64 at all!", readOnly));
            watcher.check();
            assertEquals(key, keys.masterKey());
            assertEquals(readOnly, keys.readOnlyKey());
            writeAtomically(file, "tables: {}\n"); // no Cosmos keys any more: the emulator's on loopback
            watcher.check();
            assertEquals(CosmosRestOptions.EMULATOR_KEY, keys.masterKey());
            assertEquals(null, keys.readOnlyKey());
        }
        // beyond loopback the emulator's public key never comes back: a deleted file keeps the keys in force
        writeAtomically(file, keys(key, readOnly));
        CosmosKeys locked = CosmosKeys.of(key, readOnly);
        try (CosmosKeysWatcher watcher = CosmosKeysWatcher.watch(file, locked, false)) {
            Files.delete(file);
            watcher.check();
            assertEquals(key, locked.masterKey());
            writeAtomically(file, keys(CosmosRestOptions.EMULATOR_KEY, null));
            watcher.check();
            assertEquals(key, locked.masterKey());
        }
        assertFalse(locked.toString().contains(key) || locked.toString().contains(readOnly), locked.toString());
    }

    private CosmosClient track(CosmosClient c) {
        clients.add(c);
        return c;
    }

    /** The permission's resource token as the master key's holder gets it (upserted: Cosmos mints one per read). */
    private static String permissionToken(String endpoint, String key, CosmosPermissionProperties permission) {
        try (CosmosAsyncClient admin = new CosmosClientBuilder().endpoint(endpoint).key(key).gatewayMode()
                .buildAsyncClient()) {
            return admin.getDatabase("shop").getUser("alice")
                    .upsertPermission(permission, new CosmosPermissionRequestOptions()).block().getProperties()
                    .getToken();
        }
    }

    private CosmosClient withToken(String endpoint, String token) {
        return track(new CosmosClientBuilder().endpoint(endpoint).resourceToken(token).gatewayMode()
                .consistencyLevel(ConsistencyLevel.SESSION).buildClient());
    }

    private static CosmosContainer orders(CosmosClient c) {
        return c.getDatabase("shop").getContainer("orders");
    }

    private static JsonNode read(CosmosClient c) {
        return orders(c).readItem("o1", new PartitionKey("a"), JsonNode.class).getItem();
    }

    private static JsonNode item(String id) {
        return new ObjectMapper().createObjectNode().put("id", id).put("pk", "a");
    }

    /**
     * The status azure-cosmos met: a refused key already fails the client's start (its account read), where the
     * SDK wraps the CosmosException in a RuntimeException.
     */
    private static int status(org.junit.jupiter.api.function.Executable call) {
        try {
            call.execute();
            return 0;
        } catch (Throwable t) {
            for (Throwable c = t; c != null; c = c.getCause()) {
                if (c instanceof CosmosException e) {
                    return e.getStatusCode();
                }
            }
            throw new AssertionError("not a Cosmos DB error", t);
        }
    }

    private static void assertStatus(int expected, org.junit.jupiter.api.function.Executable call) {
        assertEquals(expected, status(call));
    }

    private static void awaitAccepted(org.junit.jupiter.api.function.Executable call) throws InterruptedException {
        Instant deadline = Instant.now().plus(PICKUP);
        int last;
        while ((last = status(call)) == 401 && Instant.now().isBefore(deadline)) {
            Thread.sleep(100); // the watcher polls the file once a second
        }
        assertEquals(0, last, "the new key was not accepted within " + PICKUP);
    }

    private static String keys(String key, String readOnly) {
        return "cosmos:\n  key: " + key + "\n" + (readOnly == null ? "" : "  readOnlyKey: " + readOnly + "\n");
    }

    private static void writeAtomically(Path file, String text) throws Exception {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, text);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static String newKey() {
        byte[] k = new byte[64];
        new SecureRandom().nextBytes(k);
        return Base64.getEncoder().encodeToString(k);
    }
}

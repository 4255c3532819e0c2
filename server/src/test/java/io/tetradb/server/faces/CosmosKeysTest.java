package io.tetradb.server.faces;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.server.Endpoint;
import io.tetradb.server.ServerConfig;
import io.tetradb.server.TetraDbServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The server's Cosmos keys (--cosmos-key, --cosmos-read-only-key) through the azure-cosmos SDK. */
class CosmosKeysTest {
    private static final String KEY = Base64.getEncoder().encodeToString(
            "a key of this deployment, not the emulator's".getBytes(StandardCharsets.UTF_8));
    private static final String READ_ONLY_KEY = Base64.getEncoder().encodeToString(
            "a key that only reads".getBytes(StandardCharsets.UTF_8));

    @Test
    void theConfiguredKeysReplaceTheEmulatorsAndTheReadOnlyKeyOnlyReads(@TempDir Path dir) {
        ServerConfig config = ServerConfig.ephemeral(dir).withCosmosPort(0).withCosmosKeys(KEY, READ_ONLY_KEY);
        try (TetraDbServer server = new TetraDbServer(config).start()) {
            String endpoint = "http://" + Endpoint.hostPort(server.endpoint("cosmos").address());
            try (CosmosClient writer = client(endpoint, KEY)) {
                writer.createDatabaseIfNotExists("crm");
                writer.getDatabase("crm").createContainerIfNotExists(new CosmosContainerProperties("leads", "/region"));
                writer.getDatabase("crm").getContainer("leads").createItem(Map.of("id", "l1", "region", "EU"));
            }
            try (CosmosClient reader = client(endpoint, READ_ONLY_KEY)) {
                assertEquals("EU", reader.getDatabase("crm").getContainer("leads")
                        .readItem("l1", new com.azure.cosmos.models.PartitionKey("EU"), ObjectNode.class).getItem()
                        .get("region").asText());
                CosmosException refused = assertThrows(CosmosException.class, () -> reader.getDatabase("crm")
                        .getContainer("leads").createItem(Map.of("id", "l2", "region", "EU")));
                assertEquals(401, refused.getStatusCode()); // as Cosmos DB answers a write with a read-only key
            }
            // the emulator's key no longer opens it: the SDK's first request (the account) is refused with 401
            RuntimeException emulatorKey = assertThrows(RuntimeException.class,
                    () -> client(endpoint, AllFacesTest.EMULATOR_KEY));
            CosmosException refusal = assertInstanceOf(CosmosException.class, emulatorKey.getCause(),
                    String.valueOf(emulatorKey.getCause()));
            assertEquals(401, refusal.getStatusCode());
        }
    }

    private static CosmosClient client(String endpoint, String key) {
        return new CosmosClientBuilder().endpoint(endpoint).key(key).gatewayMode().buildClient();
    }
}

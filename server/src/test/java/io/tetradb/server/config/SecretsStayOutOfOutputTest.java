package io.tetradb.server.config;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosException;
import com.azure.data.tables.TableClientBuilder;
import io.tetradb.server.TetraDbCommand;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The real CLI as a child JVM, with credentials from all three places: {@code DATA/tetradb.yaml}, the environment
 * and an option. The option wins over the environment, the environment over the file (checked through the Cosmos
 * SDK: the winning key opens, the losing one is 401); the Tables account comes from the file. No secret appears in
 * anything the process prints or logs (start, a key rotation re-read, stop) nor in {@code /health}.
 */
@Timeout(240)
class SecretsStayOutOfOutputTest {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void killLeftovers() {
        started.forEach(Process::destroyForcibly);
    }

    @Test
    void keysFromFileEnvironmentAndOptionsAreUsedAndNeverPrinted(@TempDir Path dir) throws Exception {
        String fileCosmosKey = newKey();
        String envCosmosKey = newKey();
        String fileReadOnlyKey = newKey();
        String optionReadOnlyKey = newKey();
        String tableKey = newKey();
        String rotatedTableKey = newKey();
        Path data = dir.resolve("data");
        Files.createDirectories(data);
        Path file = data.resolve(SecurityConfig.FILE_NAME);
        Files.writeString(file, yaml(fileCosmosKey, fileReadOnlyKey, tableKey));
        Path log = dir.resolve("tetradb.log");

        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), TetraDbCommand.class.getName(),
                "start", "--data-dir", data.toString(), "--cosmos-port", "0", "--gremlin-port", "0",
                "--mongo-port", "0", "--table-port", "0", "--cosmos-read-only-key", optionReadOnlyKey));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put(SecurityConfig.ENV_COSMOS_KEY, envCosmosKey);
        Process process = pb.start();
        started.add(process);
        awaitLog(log, "TetraDB started");
        String cosmos = line(log, "cosmos ").replace("https://", "http://").replace("cosmos ", "").strip();
        String tables = line(log, "table ").replace("table ", "").strip();

        HttpResponse<String> health = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(cosmos + "health")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, health.statusCode());

        // precedence: the environment's key over the file's; the option's read-only key over the file's
        readAccount(cosmos, envCosmosKey);
        readAccount(cosmos, optionReadOnlyKey);
        assertEquals(401, status(assertThrows(RuntimeException.class, () -> readAccount(cosmos, fileCosmosKey))));
        assertEquals(401, status(assertThrows(RuntimeException.class, () -> readAccount(cosmos, fileReadOnlyKey))));
        String account = tables.substring(tables.lastIndexOf('/') + 1);
        assertEquals("shop", account, "the printed Tables URL names the configured account");
        new TableClientBuilder().endpoint(tables).tableName("people")
                .credential(new AzureNamedKeyCredential("shop", tableKey)).buildClient().createTable();

        Files.writeString(file, yaml(fileCosmosKey, fileReadOnlyKey, rotatedTableKey)); // logged as re-read
        awaitLog(log, "Tables accounts re-read");

        process.destroy(); // SIGTERM
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue());
        String output = Files.readString(log);
        assertTrue(output.contains("TetraDB stopped"), output);
        for (String secret : List.of(fileCosmosKey, envCosmosKey, fileReadOnlyKey, optionReadOnlyKey, tableKey,
                rotatedTableKey)) {
            assertFalse(output.contains(secret), "a key in the process's output");
            assertFalse(output.contains(secret.substring(0, 16)), "part of a key in the process's output");
            assertFalse(health.body().contains(secret.substring(0, 16)), "a key in /health");
        }
    }

    private static String yaml(String cosmosKey, String readOnlyKey, String tableKey) {
        return "cosmos:\n  key: " + cosmosKey + "\n  readOnlyKey: " + readOnlyKey + "\n"
                + "tables:\n  accounts:\n    - name: shop\n      key1: " + tableKey + "\n";
    }

    private static void readAccount(String endpoint, String key) {
        try (CosmosClient client = new CosmosClientBuilder().endpoint(endpoint).key(key).gatewayMode()
                .buildClient()) {
            client.readAllDatabases().stream().count();
        }
    }

    /** The status of the Cosmos refusal (the SDK wraps the account read's 401 when it builds the client). */
    private static int status(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof CosmosException c) {
                return c.getStatusCode();
            }
        }
        throw new AssertionError("not a Cosmos refusal", e);
    }

    private static void awaitLog(Path log, String text) throws Exception {
        Instant deadline = Instant.now().plus(WAIT);
        while (!Files.readString(log).contains(text)) {
            if (Instant.now().isAfter(deadline)) {
                fail("'" + text + "' not printed within " + WAIT + ":\n" + Files.readString(log));
            }
            Thread.sleep(100);
        }
    }

    private static String line(Path log, String prefix) throws Exception {
        Optional<String> found = Files.readAllLines(log).stream().filter(l -> l.startsWith(prefix)).findFirst();
        return found.orElseThrow(() -> new AssertionError("no line starting with " + prefix));
    }

    private static String newKey() {
        byte[] k = new byte[64];
        new SecureRandom().nextBytes(k);
        return Base64.getEncoder().encodeToString(k);
    }
}

package io.tetradb.server.config;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableServiceException;
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
import java.util.Base64;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Key rotation without a restart, as an Azure storage account's "regenerate key1": the server reads its Tables
 * accounts from {@code tetradb.yaml}; the file is rewritten with a new key1 (key2 kept, so clients move over), the
 * running server picks it up, and the Azure Tables Java SDK finds the old key1 refused with 403 and the Tables
 * error body, the new key1 and key2 accepted.
 */
class TablesKeyRotationTest {
    private static final Duration PICKUP = TestTime.patience(Duration.ofSeconds(30)); // the watcher polls each second

    @Test
    void aKeyReplacedInTheFileIsRefusedWhileTheServerRuns(@TempDir Path dir) throws Exception {
        String oldKey1 = newKey();
        String key2 = newKey();
        String newKey1 = newKey();
        Path file = dir.resolve(SecurityConfig.FILE_NAME);
        writeAtomically(file, accounts(oldKey1, key2));
        ServerConfig config = ServerConfig.ephemeral(dir).withTablePort(0)
                .withSecurity(SecurityConfig.load(file, true, Map.of()));
        try (TetraDbServer server = new TetraDbServer(config).start()) {
            String endpoint = "http://" + Endpoint.hostPort(server.endpoint("table").address()) + "/shop";
            table(endpoint, oldKey1).createTable();
            table(endpoint, oldKey1).upsertEntity(new TableEntity("Smith", "Ben").addProperty("Age", 42));
            assertEquals(42, table(endpoint, key2).getEntity("Smith", "Ben").getProperty("Age"));

            writeAtomically(file, accounts(newKey1, key2)); // as an editor or a mounted secret replaces it
            awaitAccepted(table(endpoint, newKey1));

            TableServiceException refused = assertThrows(TableServiceException.class,
                    () -> table(endpoint, oldKey1).getEntity("Smith", "Ben"));
            assertEquals(403, refused.getResponse().getStatusCode());
            assertEquals("AuthenticationFailed", refused.getValue().getErrorCode().toString(),
                    "the Tables error body's code");
            assertEquals(42, table(endpoint, key2).getEntity("Smith", "Ben").getProperty("Age"));

        }
    }

    @Test
    void aBrokenEmptiedOrDeletedFileKeepsOrResetsTheKeysAsItSays(@TempDir Path dir) throws Exception {
        String key1 = newKey();
        Path file = dir.resolve(SecurityConfig.FILE_NAME);
        writeAtomically(file, accounts(key1, newKey()));
        io.tetradb.table.http.AccountKeys keys = io.tetradb.table.http.AccountKeys.of(
                SecurityConfig.readTableAccounts(file));
        try (TableAccountsWatcher watcher = TableAccountsWatcher.watch(file, keys)) {
            Files.writeString(file, "tables:\n  accounts:\n    - name: shop\n      key1: [\n"); // half-written
            watcher.check();
            assertEquals("AccountKeys[shop]", keys.toString(), "the keys in force stay");
            writeAtomically(file, "cosmos: {}\n"); // no Tables accounts any more: Azurite's account again
            watcher.check();
            assertEquals("AccountKeys[devstoreaccount1]", keys.toString());
        }
        // beyond loopback Azurite's public key never comes back: a deleted file keeps the keys in force
        writeAtomically(file, accounts(key1, newKey()));
        io.tetradb.table.http.AccountKeys locked = io.tetradb.table.http.AccountKeys.of(
                SecurityConfig.readTableAccounts(file));
        try (TableAccountsWatcher watcher = TableAccountsWatcher.watch(file, locked, false)) {
            Files.delete(file);
            watcher.check();
            assertEquals("AccountKeys[shop]", locked.toString());
            writeAtomically(file, "tables:\n  accounts:\n    - name: devstoreaccount1\n      key1: "
                    + io.tetradb.table.http.AccountKeys.DEV_KEY + "\n");
            watcher.check();
            assertEquals("AccountKeys[shop]", locked.toString());
        }
    }

    private static void awaitAccepted(TableClient client) throws InterruptedException {
        Instant deadline = Instant.now().plus(PICKUP);
        while (true) {
            try {
                assertEquals(42, client.getEntity("Smith", "Ben").getProperty("Age"));
                return;
            } catch (TableServiceException e) {
                if (e.getResponse().getStatusCode() != 403 || Instant.now().isAfter(deadline)) {
                    fail("the new key was not accepted within " + PICKUP, e);
                }
                Thread.sleep(100); // the watcher polls the file once a second
            }
        }
    }

    private static String accounts(String key1, String key2) {
        return "tables:\n  accounts:\n    - name: shop\n      key1: " + key1 + "\n      key2: " + key2 + "\n";
    }

    private static void writeAtomically(Path file, String text) throws Exception {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, text);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static TableClient table(String endpoint, String key) {
        return new TableClientBuilder().endpoint(endpoint).tableName("people")
                .credential(new AzureNamedKeyCredential("shop", key)).buildClient();
    }

    private static String newKey() {
        byte[] k = new byte[64];
        new SecureRandom().nextBytes(k);
        return Base64.getEncoder().encodeToString(k);
    }
}

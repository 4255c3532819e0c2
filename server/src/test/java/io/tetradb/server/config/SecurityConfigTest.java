package io.tetradb.server.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** tetradb.yaml read with Jackson's YAML module, the environment on top, and no secret in any message. */
class SecurityConfigTest {
    static final String COSMOS_KEY = "Y29zbW9zLWtleS1mcm9tLXRoZS1maWxl";
    static final String READ_ONLY_KEY = "cmVhZC1vbmx5LWtleQ==";
    static final String TABLE_KEY_1 = "dGFibGUta2V5LW9uZQ==";
    static final String TABLE_KEY_2 = "dGFibGUta2V5LXR3bw==";

    @Test
    void theFileGivesEveryFaceItsCredentials(@TempDir Path dir) throws Exception {
        Path file = write(dir, """
                cosmos:
                  key: %s
                  readOnlyKey: %s
                tables:
                  accounts:
                    - name: shop
                      key1: %s
                      key2: %s
                    - name: other
                      key1: %s
                gremlin:
                  auth: true
                tls:
                  certificate: certs/server.pem
                  key: certs/server.key
                """.formatted(COSMOS_KEY, READ_ONLY_KEY, TABLE_KEY_1, TABLE_KEY_2, TABLE_KEY_2));
        SecurityConfig c = SecurityConfig.load(file, true, Map.of());
        assertEquals(COSMOS_KEY, c.cosmosKey());
        assertEquals(READ_ONLY_KEY, c.cosmosReadOnlyKey());
        assertEquals(Map.of("shop", List.of(TABLE_KEY_1, TABLE_KEY_2), "other", List.of(TABLE_KEY_2)),
                c.tableAccounts());
        assertEquals(true, c.gremlinAuth());
        assertEquals(dir.resolve("certs/server.pem"), c.tlsCertificate(), "relative to the file");
        assertEquals(dir.resolve("certs/server.key"), c.tlsKey());
        assertEquals(file, c.tablesFile(), "the Tables keys are re-read from the file");
        String shown = c.toString();
        for (String secret : List.of(COSMOS_KEY, READ_ONLY_KEY, TABLE_KEY_1, TABLE_KEY_2)) {
            assertFalse(shown.contains(secret), shown);
        }
    }

    @Test
    void theEnvironmentOverridesTheFile(@TempDir Path dir) throws Exception {
        Path file = write(dir, "cosmos:\n  key: " + COSMOS_KEY + "\ntables:\n  accounts:\n    - name: shop\n"
                + "      key1: " + TABLE_KEY_1 + "\ngremlin:\n  auth: true\n");
        SecurityConfig c = SecurityConfig.load(file, true, Map.of(
                "TETRADB_COSMOS_KEY", READ_ONLY_KEY,
                "TETRADB_TABLES_ACCOUNTS", "ci:" + TABLE_KEY_2 + "," + TABLE_KEY_1 + ";more:" + TABLE_KEY_1,
                "TETRADB_GREMLIN_AUTH", "false"));
        assertEquals(READ_ONLY_KEY, c.cosmosKey());
        assertEquals(Map.of("ci", List.of(TABLE_KEY_2, TABLE_KEY_1), "more", List.of(TABLE_KEY_1)),
                c.tableAccounts());
        assertNull(c.tablesFile(), "keys from the environment are not the file's to rotate");
        assertEquals(false, c.gremlinAuth());
    }

    @Test
    void noFileMeansTheDevelopmentDefaultsUnlessAFileWasAskedFor(@TempDir Path dir) {
        SecurityConfig c = SecurityConfig.load(dir.resolve("tetradb.yaml"), false, Map.of());
        assertNull(c.cosmosKey());
        assertNull(c.tableAccounts());
        assertNull(c.gremlinAuth());
        assertEquals(dir.resolve("tetradb.yaml"), c.tablesFile(), "a file created later is picked up");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SecurityConfig.load(dir.resolve("missing.yaml"), true, Map.of()));
        assertTrue(e.getMessage().contains("missing.yaml"), e.getMessage());
    }

    @Test
    void mistakesAreNamedWithoutTheValues(@TempDir Path dir) throws Exception {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> SecurityConfig.load(
                write(dir, "cosmos:\n  readonlykey: " + COSMOS_KEY + "\n"), true, Map.of()));
        assertTrue(unknown.getMessage().contains("readonlykey") && !unknown.getMessage().contains(COSMOS_KEY),
                unknown.getMessage());
        IllegalArgumentException broken = assertThrows(IllegalArgumentException.class, () -> SecurityConfig.load(
                write(dir, "cosmos:\n  key: [" + COSMOS_KEY + "\n"), true, Map.of()));
        assertTrue(broken.getMessage().contains("line") && !broken.getMessage().contains(COSMOS_KEY),
                broken.getMessage());
        IllegalArgumentException wrongType = assertThrows(IllegalArgumentException.class, () -> SecurityConfig.load(
                write(dir, "cosmos:\n  key:\n    - " + COSMOS_KEY + "\n"), true, Map.of()));
        assertFalse(wrongType.getMessage().contains(COSMOS_KEY), wrongType.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SecurityConfig.load(
                write(dir, "tables:\n  accounts:\n    - name: shop\n"), true, Map.of()));
        assertThrows(IllegalArgumentException.class, () -> SecurityConfig.load(
                write(dir, "tls:\n  certificate: a.pem\n"), true, Map.of()), "a certificate needs its key");
        assertThrows(IllegalArgumentException.class, () -> SecurityConfig.load(null, false,
                Map.of("TETRADB_TABLES_ACCOUNTS", "no-colon")));
    }

    private static Path write(Path dir, String yaml) throws Exception {
        Path file = dir.resolve("tetradb.yaml");
        Files.writeString(file, yaml);
        return file;
    }
}

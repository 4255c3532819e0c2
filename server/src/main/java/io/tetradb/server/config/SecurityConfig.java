package io.tetradb.server.config;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The credentials and TLS settings of one server, from {@code tetradb.yaml} (see {@link TetraDbYaml}) with the
 * environment's overrides on top (containers and CI set secrets there):
 * <table>
 * <tr><td>{@code TETRADB_COSMOS_KEY}, {@code TETRADB_COSMOS_READ_ONLY_KEY}</td><td>the Cosmos key pair</td></tr>
 * <tr><td>{@code TETRADB_TABLES_ACCOUNTS}</td><td>{@code name:key1[,key2][;name:key1[,key2]]…} (base64 has no
 * {@code : , ;})</td></tr>
 * <tr><td>{@code TETRADB_GREMLIN_AUTH}</td><td>{@code true} or {@code false}</td></tr>
 * <tr><td>{@code TETRADB_TLS_CERTIFICATE}, {@code TETRADB_TLS_KEY}</td><td>PEM files</td></tr>
 * </table>
 * Command-line options win over both (the caller applies them). A null value is "not configured": the face keeps
 * its development default (the emulator's and Azurite's well-known keys, Gremlin without auth, the generated
 * certificate). {@link #toString()} names what is configured, never a secret.
 *
 * @param cosmosKey         the Cosmos master key, or null
 * @param cosmosReadOnlyKey the Cosmos read-only key, or null
 * @param tableAccounts     Tables accounts (name → one or two base64 keys), or null for Azurite's account
 * @param gremlinAuth       whether Gremlin Server requires credentials, or null
 * @param tlsCertificate    a PEM certificate chain for every face's TLS, or null for the generated one
 * @param tlsKey            its private key (PEM), given with the certificate
 * @param tablesFile        the file the Tables accounts are re-read from when it changes (key rotation), or null
 *                          when they are not the file's to change (the environment sets them, or there is no file)
 * @param cosmosKeysFile    the file the Cosmos key pair is re-read from when it changes (key rotation), or null when
 *                          the environment sets the keys
 */
public record SecurityConfig(String cosmosKey, String cosmosReadOnlyKey, Map<String, List<String>> tableAccounts,
                             Boolean gremlinAuth, Path tlsCertificate, Path tlsKey, Path tablesFile,
                             Path cosmosKeysFile) {
    /** The file a data directory's server reads when no {@code --config} is given. */
    public static final String FILE_NAME = "tetradb.yaml";

    public static final String ENV_COSMOS_KEY = "TETRADB_COSMOS_KEY";
    public static final String ENV_COSMOS_READ_ONLY_KEY = "TETRADB_COSMOS_READ_ONLY_KEY";
    public static final String ENV_TABLES_ACCOUNTS = "TETRADB_TABLES_ACCOUNTS";
    public static final String ENV_GREMLIN_AUTH = "TETRADB_GREMLIN_AUTH";
    public static final String ENV_TLS_CERTIFICATE = "TETRADB_TLS_CERTIFICATE";
    public static final String ENV_TLS_KEY = "TETRADB_TLS_KEY";

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    public SecurityConfig {
        if ((tlsCertificate == null) != (tlsKey == null)) {
            throw new IllegalArgumentException("a TLS certificate needs its key and a key its certificate");
        }
        tableAccounts = tableAccounts == null ? null
                : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(tableAccounts)); // in the file's order
    }

    /** Without a file to re-read the Cosmos keys from. */
    public SecurityConfig(String cosmosKey, String cosmosReadOnlyKey, Map<String, List<String>> tableAccounts,
                          Boolean gremlinAuth, Path tlsCertificate, Path tlsKey, Path tablesFile) {
        this(cosmosKey, cosmosReadOnlyKey, tableAccounts, gremlinAuth, tlsCertificate, tlsKey, tablesFile, null);
    }

    /** Nothing configured: every face on its development defaults. */
    public static SecurityConfig none() {
        return new SecurityConfig(null, null, null, null, null, null, null);
    }

    /**
     * Reads {@code file} (when it exists; a missing file is an error only if {@code required}) and applies
     * {@code environment}'s overrides. Errors name the file and the place, never a value.
     */
    public static SecurityConfig load(Path file, boolean required, Map<String, String> environment) {
        TetraDbYaml yaml = null;
        if (file != null && Files.exists(file)) {
            yaml = read(file);
            warnIfOthersMayRead(file);
        } else if (required) {
            throw new IllegalArgumentException("the configuration file " + file + " does not exist");
        }
        String cosmosKey = env(environment, ENV_COSMOS_KEY);
        String readOnlyKey = env(environment, ENV_COSMOS_READ_ONLY_KEY);
        // keys the environment sets are fixed for the process; the file's are re-read when it changes
        Path cosmosKeysFile = cosmosKey == null && readOnlyKey == null ? file : null;
        if (yaml != null && yaml.cosmos() != null) {
            cosmosKey = cosmosKey != null ? cosmosKey : blankToNull(yaml.cosmos().key());
            readOnlyKey = readOnlyKey != null ? readOnlyKey : blankToNull(yaml.cosmos().readOnlyKey());
        }
        Map<String, List<String>> accounts;
        Path tablesFile = null;
        String tablesEnv = env(environment, ENV_TABLES_ACCOUNTS);
        if (tablesEnv != null) {
            accounts = parseAccounts(tablesEnv);
        } else {
            accounts = yaml == null ? null : accounts(yaml, file);
            tablesFile = file;
        }
        Boolean gremlinAuth = null;
        String authEnv = env(environment, ENV_GREMLIN_AUTH);
        if (authEnv != null) {
            gremlinAuth = switch (authEnv.toLowerCase(Locale.ROOT)) {
                case "true" -> true;
                case "false" -> false;
                default -> throw new IllegalArgumentException(ENV_GREMLIN_AUTH + " is true or false");
            };
        } else if (yaml != null && yaml.gremlin() != null) {
            gremlinAuth = yaml.gremlin().auth();
        }
        Path certificate = null;
        Path key = null;
        if (yaml != null && yaml.tls() != null) {
            Path base = file.toAbsolutePath().getParent();
            certificate = yaml.tls().certificate() == null ? null : base.resolve(yaml.tls().certificate());
            key = yaml.tls().key() == null ? null : base.resolve(yaml.tls().key());
        }
        String certEnv = env(environment, ENV_TLS_CERTIFICATE);
        String keyEnv = env(environment, ENV_TLS_KEY);
        if (certEnv != null || keyEnv != null) {
            certificate = certEnv == null ? null : Path.of(certEnv);
            key = keyEnv == null ? null : Path.of(keyEnv);
        }
        return new SecurityConfig(cosmosKey, readOnlyKey, accounts, gremlinAuth, certificate, key, tablesFile,
                cosmosKeysFile);
    }

    /**
     * The Cosmos key pair {@code file} holds now ({@code [key, readOnlyKey]}, either null when not set), for a re-read
     * after a change; both null when the file is gone. Errors name the file and place, never a value.
     */
    public static String[] readCosmosKeys(Path file) {
        if (!Files.exists(file)) {
            return new String[2];
        }
        TetraDbYaml yaml = read(file);
        if (yaml.cosmos() == null) {
            return new String[2];
        }
        return new String[] {blankToNull(yaml.cosmos().key()), blankToNull(yaml.cosmos().readOnlyKey())};
    }

    /** The Tables accounts {@code file} holds now (null: none configured), for a re-read after a change. */
    public static Map<String, List<String>> readTableAccounts(Path file) {
        return Files.exists(file) ? accounts(read(file), file) : null;
    }

    /** The keys must be in the file as they are (HMAC needs them), so say when other users can read it, as ssh does. */
    private static void warnIfOthersMayRead(Path file) {
        try {
            java.util.Set<java.nio.file.attribute.PosixFilePermission> p = Files.getPosixFilePermissions(file);
            if (p.contains(java.nio.file.attribute.PosixFilePermission.OTHERS_READ)
                    || p.contains(java.nio.file.attribute.PosixFilePermission.GROUP_READ)) {
                org.slf4j.LoggerFactory.getLogger(SecurityConfig.class).warn(
                        "{} holds keys and other users may read it (chmod 600 {})", file, file);
            }
        } catch (IOException | UnsupportedOperationException e) {
            // not POSIX (Windows): the directory's own permissions apply
        }
    }

    private static TetraDbYaml read(Path file) {
        try {
            TetraDbYaml yaml = YAML.readValue(file.toFile(), TetraDbYaml.class);
            return yaml == null ? new TetraDbYaml(null, null, null, null) : yaml;
        } catch (UnrecognizedPropertyException e) {
            throw new IllegalArgumentException(file + ": unknown setting '" + e.getPropertyName() + "' at line "
                    + e.getLocation().getLineNr() + " (known: " + e.getKnownPropertyIds() + ")");
        } catch (JacksonException e) {
            // the parser's own message may quote the offending value, which may be a secret: only the place
            String where = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr();
            throw new IllegalArgumentException(file + ": not a valid " + FILE_NAME + where);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getClass().getSimpleName());
        }
    }

    private static Map<String, List<String>> accounts(TetraDbYaml yaml, Path file) {
        if (yaml.tables() == null || yaml.tables().accounts() == null || yaml.tables().accounts().isEmpty()) {
            return null;
        }
        Map<String, List<String>> accounts = new LinkedHashMap<>();
        for (TetraDbYaml.Account a : yaml.tables().accounts()) {
            if (a == null || a.name() == null || a.key1() == null) {
                throw new IllegalArgumentException(file + ": every Tables account needs a name and key1");
            }
            List<String> keys = new ArrayList<>();
            keys.add(a.key1().strip());
            if (a.key2() != null && !a.key2().isBlank()) {
                keys.add(a.key2().strip());
            }
            if (accounts.put(a.name(), keys) != null) {
                throw new IllegalArgumentException(file + ": the Tables account " + a.name() + " is given twice");
            }
        }
        return accounts;
    }

    /** {@code name:key1[,key2];…} */
    static Map<String, List<String>> parseAccounts(String text) {
        Map<String, List<String>> accounts = new LinkedHashMap<>();
        for (String entry : text.split(";")) {
            if (entry.isBlank()) {
                continue;
            }
            int colon = entry.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException(ENV_TABLES_ACCOUNTS + " is name:key1[,key2][;name:key1[,key2]]…");
            }
            List<String> keys = new ArrayList<>();
            for (String k : entry.substring(colon + 1).split(",")) {
                if (!k.isBlank()) {
                    keys.add(k.strip());
                }
            }
            accounts.put(entry.substring(0, colon).strip(), keys);
        }
        if (accounts.isEmpty()) {
            throw new IllegalArgumentException(ENV_TABLES_ACCOUNTS + " names no account");
        }
        return accounts;
    }

    private static String env(Map<String, String> environment, String name) {
        return blankToNull(environment.get(name));
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    @Override
    public String toString() {
        return "SecurityConfig[cosmosKey=" + (cosmosKey != null ? "set" : "default") + ", cosmosReadOnlyKey="
                + (cosmosReadOnlyKey != null ? "set" : "none") + ", tableAccounts="
                + (tableAccounts == null ? "default" : tableAccounts.keySet()) + ", gremlinAuth=" + gremlinAuth
                + ", tlsCertificate=" + tlsCertificate + ", tablesFile=" + tablesFile + ", cosmosKeysFile=" + cosmosKeysFile
                + "]";
    }
}

package io.tetradb.server.config;

import io.tetradb.cosmos.CosmosKeys;
import io.tetradb.cosmos.CosmosRestOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;

/**
 * Cosmos master key rotation without a restart, as {@link TableAccountsWatcher} does for the Tables keys: polls
 * {@code tetradb.yaml} once a second and, when its bytes change, puts its {@code cosmos.key}/{@code readOnlyKey} in
 * force in the running server's {@link CosmosKeys} (the REST face, the admin routes and Gremlin's key logins read
 * them per request). A file that does not read, or a key that is not base64, keeps the keys in force and is logged
 * without any value. Without a key in the file the emulator's comes back on a loopback-bound server only.
 */
public final class CosmosKeysWatcher extends ConfigFileWatcher {
    private static final Logger LOG = LoggerFactory.getLogger(CosmosKeysWatcher.class);

    private final CosmosKeys keys;
    private final boolean developmentKeyAllowed;

    private CosmosKeysWatcher(Path file, CosmosKeys keys, boolean developmentKeyAllowed) {
        super(file);
        this.keys = keys;
        this.developmentKeyAllowed = developmentKeyAllowed;
    }

    /**
     * Watches {@code file} for a new Cosmos key pair, applying it to {@code keys}; unless {@code developmentKeyAllowed}
     * (a server bound beyond loopback), a file that would serve the emulator's well-known key is not applied.
     */
    public static CosmosKeysWatcher watch(Path file, CosmosKeys keys, boolean developmentKeyAllowed) {
        return new CosmosKeysWatcher(file, keys, developmentKeyAllowed).start("cosmos-keys-watcher");
    }

    @Override
    protected void changed() {
        try {
            String[] read = SecurityConfig.readCosmosKeys(file);
            String key = read[0] != null ? read[0] : CosmosRestOptions.EMULATOR_KEY;
            if (!developmentKeyAllowed && key.equals(CosmosRestOptions.EMULATOR_KEY)) {
                LOG.warn("{} changed but would serve the emulator's well-known Cosmos key on a server bound beyond "
                        + "loopback; the Cosmos keys in force stay", file);
                return;
            }
            if (key.equals(keys.masterKey()) && java.util.Objects.equals(read[1], keys.readOnlyKey())) {
                return; // another part of the file changed
            }
            keys.replace(key, read[1]);
            LOG.info("Cosmos keys re-read from {}: {}", file, keys); // whether set, never the keys
        } catch (RuntimeException e) {
            LOG.warn("{} changed but cannot be used, the Cosmos keys in force stay: {}", file, e.getMessage());
        }
    }
}

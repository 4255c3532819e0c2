package io.tetradb.server.config;

import io.tetradb.cosmos.CosmosKeys;
import io.tetradb.cosmos.CosmosRestOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Cosmos master key rotation without a restart, as {@link TableAccountsWatcher} does for the Tables keys: polls
 * {@code tetradb.yaml} once a second and, when its bytes change, puts its {@code cosmos.key}/{@code readOnlyKey} in
 * force in the running server's {@link CosmosKeys} (the REST face, the admin routes and Gremlin's key logins read
 * them per request). A file that does not read, or a key that is not base64, keeps the keys in force and is logged
 * without any value. Without a key in the file the emulator's comes back on a loopback-bound server only.
 */
public final class CosmosKeysWatcher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CosmosKeysWatcher.class);

    private final Path file;
    private final CosmosKeys keys;
    private final boolean developmentKeyAllowed;
    private final ScheduledExecutorService timer;
    private volatile byte[] lastSeen;

    private CosmosKeysWatcher(Path file, CosmosKeys keys, boolean developmentKeyAllowed) {
        this.file = file;
        this.keys = keys;
        this.developmentKeyAllowed = developmentKeyAllowed;
        this.lastSeen = bytes();
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cosmos-keys-watcher");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::check, TableAccountsWatcher.PERIOD_MS, TableAccountsWatcher.PERIOD_MS,
                TimeUnit.MILLISECONDS);
    }

    /**
     * Watches {@code file} for a new Cosmos key pair, applying it to {@code keys}; unless {@code developmentKeyAllowed}
     * (a server bound beyond loopback), a file that would serve the emulator's well-known key is not applied.
     */
    public static CosmosKeysWatcher watch(Path file, CosmosKeys keys, boolean developmentKeyAllowed) {
        return new CosmosKeysWatcher(file, keys, developmentKeyAllowed);
    }

    /** One look at the file (the timer's work; tests call it to be sure a change was seen). */
    synchronized void check() {
        byte[] now = bytes();
        if (Arrays.equals(now, lastSeen)) {
            return;
        }
        lastSeen = now;
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

    private byte[] bytes() {
        try {
            return Files.exists(file) ? Files.readAllBytes(file) : new byte[0];
        } catch (IOException e) {
            return lastSeen; // unreadable for a moment (being replaced): try again next time
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}

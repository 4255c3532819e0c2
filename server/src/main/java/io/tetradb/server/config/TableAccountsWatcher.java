package io.tetradb.server.config;

import io.tetradb.table.http.AccountKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Key rotation without a restart: re-reads the Tables accounts of {@code tetradb.yaml} when the file's bytes change
 * and swaps them into the running endpoint's {@link AccountKeys}. Polled once a second rather than watched: a
 * poll sees an editor's rename-into-place and a mounted secret's symlink swap alike, and costs one small read. A
 * file that no longer reads (half-written, a typo) keeps the keys in force and is logged without its content.
 */
public final class TableAccountsWatcher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TableAccountsWatcher.class);
    static final long PERIOD_MS = 1000;

    private final Path file;
    private final AccountKeys keys;
    private final ScheduledExecutorService timer;
    private volatile byte[] lastSeen;

    /** False beyond loopback: Azurite's public key must never come back there (a deleted file, a pasted sample). */
    private final boolean developmentKeyAllowed;

    private TableAccountsWatcher(Path file, AccountKeys keys, boolean developmentKeyAllowed) {
        this.file = file;
        this.keys = keys;
        this.developmentKeyAllowed = developmentKeyAllowed;
        this.lastSeen = bytes();
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tables-keys-watcher");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::checkQuietly, PERIOD_MS, PERIOD_MS, TimeUnit.MILLISECONDS);
    }

    /** Watches {@code file} for new Tables accounts and keys, applying them to {@code keys}. */
    public static TableAccountsWatcher watch(Path file, AccountKeys keys) {
        return new TableAccountsWatcher(file, keys, true);
    }

    /**
     * As {@link #watch(Path, AccountKeys)}; unless {@code developmentKeyAllowed} (a server bound beyond loopback), a
     * file that would serve Azurite's well-known key (no accounts any more, or that key pasted in) is not applied.
     */
    public static TableAccountsWatcher watch(Path file, AccountKeys keys, boolean developmentKeyAllowed) {
        return new TableAccountsWatcher(file, keys, developmentKeyAllowed);
    }

    /** One look at the file (the timer's work; tests call it to be sure a change was seen). */
    synchronized void check() {
        byte[] now = bytes();
        if (Arrays.equals(now, lastSeen)) {
            return;
        }
        lastSeen = now;
        try {
            Map<String, List<String>> read = SecurityConfig.readTableAccounts(file);
            Map<String, List<String>> accounts = read != null ? read
                    : Map.of(AccountKeys.DEV_ACCOUNT, List.of(AccountKeys.DEV_KEY));
            if (!developmentKeyAllowed && accounts.values().stream().anyMatch(k -> k.contains(AccountKeys.DEV_KEY))) {
                LOG.warn("{} changed but would serve Azurite's well-known key on a server bound beyond loopback; "
                        + "the Tables keys in force stay", file);
                return;
            }
            keys.replace(accounts);
            LOG.info("Tables accounts re-read from {}: {}", file, keys); // names only
        } catch (RuntimeException e) {
            LOG.warn("{} changed but cannot be used, the Tables keys in force stay: {}", file, e.getMessage());
        }
    }

    private synchronized void checkQuietly() {
        check();
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

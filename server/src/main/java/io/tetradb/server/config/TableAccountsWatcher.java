package io.tetradb.server.config;

import io.tetradb.table.http.AccountKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Key rotation without a restart: re-reads the Tables accounts of {@code tetradb.yaml} when the file's bytes change
 * and swaps them into the running endpoint's {@link AccountKeys} (polled, see {@link ConfigFileWatcher}). A file
 * that no longer reads (half-written, a typo) keeps the keys in force and is logged without its content.
 */
public final class TableAccountsWatcher extends ConfigFileWatcher {
    private static final Logger LOG = LoggerFactory.getLogger(TableAccountsWatcher.class);
    private final AccountKeys keys;

    /** False beyond loopback: Azurite's public key must never come back there (a deleted file, a pasted sample). */
    private final boolean developmentKeyAllowed;

    private TableAccountsWatcher(Path file, AccountKeys keys, boolean developmentKeyAllowed) {
        super(file);
        this.keys = keys;
        this.developmentKeyAllowed = developmentKeyAllowed;
    }

    /** Watches {@code file} for new Tables accounts and keys, applying them to {@code keys}. */
    public static TableAccountsWatcher watch(Path file, AccountKeys keys) {
        return watch(file, keys, true);
    }

    /**
     * As {@link #watch(Path, AccountKeys)}; unless {@code developmentKeyAllowed} (a server bound beyond loopback), a
     * file that would serve Azurite's well-known key (no accounts any more, or that key pasted in) is not applied.
     */
    public static TableAccountsWatcher watch(Path file, AccountKeys keys, boolean developmentKeyAllowed) {
        return new TableAccountsWatcher(file, keys, developmentKeyAllowed).start("tables-keys-watcher");
    }

    @Override
    protected void changed() {
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
}

package io.tetradb.table.http;

import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The storage accounts a Tables endpoint serves, each with its keys: as an Azure storage account has two
 * (primary and secondary, {@code key1}/{@code key2}), either of which signs Shared Key, Shared Key Lite and SAS
 * requests. {@link #replace} swaps the whole set at once while the server runs (key rotation: a request is checked
 * against the set it started with, never half of an old and half of a new one).
 *
 * <pre>
 * AccountKeys keys = AccountKeys.of(Map.of("myaccount", List.of(primary, secondary)));
 * TableHttpServer.start(bind, port, client, keys, limits, maxBodyBytes, sslContextOrNull);
 * keys.replace(Map.of("myaccount", List.of(newPrimary, secondary)));   // the old primary is refused from now on
 * </pre>
 */
public final class AccountKeys {
    /** Azurite's / the storage emulator's well-known account and key. */
    public static final String DEV_ACCOUNT = SharedKeyAuth.DEV_ACCOUNT;
    public static final String DEV_KEY = SharedKeyAuth.DEV_KEY;

    private volatile Map<String, List<byte[]>> keys;

    private AccountKeys(Map<String, List<byte[]>> keys) {
        this.keys = keys;
    }

    /** Accounts (name → base64 keys, one or two). */
    public static AccountKeys of(Map<String, List<String>> accounts) {
        return new AccountKeys(decode(accounts));
    }

    /** Only the development account {@code devstoreaccount1} with Azurite's well-known key. */
    public static AccountKeys development() {
        return of(Map.of(DEV_ACCOUNT, List.of(DEV_KEY)));
    }

    /** Accounts with one key each (name → base64 key). */
    static AccountKeys single(Map<String, String> accountKeys) {
        Map<String, List<String>> m = new LinkedHashMap<>();
        accountKeys.forEach((a, k) -> m.put(a, List.of(k)));
        return of(m);
    }

    /** Serves these accounts and keys from now on (requests already checked are not affected). */
    public void replace(Map<String, List<String>> accounts) {
        this.keys = decode(accounts);
    }

    boolean knows(String account) {
        return keys.containsKey(account);
    }

    /** The account's keys, primary first; empty when the account is not served. */
    List<byte[]> keys(String account) {
        return keys.getOrDefault(account, List.of());
    }

    private static Map<String, List<byte[]>> decode(Map<String, List<String>> accounts) {
        if (accounts.isEmpty()) {
            throw new IllegalArgumentException("a Tables endpoint needs at least one account");
        }
        Map<String, List<byte[]>> m = new LinkedHashMap<>();
        accounts.forEach((account, keys) -> {
            if (account == null || !account.matches("[a-z0-9]{3,24}")) {
                throw new IllegalArgumentException("a storage account name is 3 to 24 lowercase letters and digits");
            }
            if (keys == null || keys.isEmpty() || keys.size() > 2) {
                throw new IllegalArgumentException("the account " + account + " needs one or two keys");
            }
            List<byte[]> decoded = new ArrayList<>();
            for (String k : keys) {
                try {
                    byte[] bytes = Base64.getDecoder().decode(k);
                    if (bytes.length == 0) {
                        throw new IllegalArgumentException("empty");
                    }
                    decoded.add(bytes);
                } catch (IllegalArgumentException | NullPointerException e) {
                    // never the key itself in the message: it may be a real secret with a typo
                    throw new IllegalArgumentException("a key of the account " + account + " is not base64");
                }
            }
            m.put(account, List.copyOf(decoded));
        });
        return Map.copyOf(m);
    }

    @Override
    public String toString() {
        return "AccountKeys" + keys.keySet(); // names only: keys are secrets
    }
}

package io.tetradb.cosmos;

import javax.crypto.Mac;

/**
 * The Cosmos master key pair in force (read-write, optional read-only), replaceable while the server runs: key
 * rotation without a restart, as Cosmos DB's "regenerate key". A request is checked against the pair in force when it
 * arrives; the secret resource tokens are signed with derives from the read-write key, so replacing that key
 * invalidates every token minted before (clients read their permission again for a new one). {@link #toString()}
 * never shows a key.
 */
public final class CosmosKeys {
    /** One pair and what is derived from it; replaced whole, so a request never sees half a rotation. */
    static final class Pair {
        final String key;
        final String readOnlyKey;
        final byte[] keyBytes;
        final byte[] readOnlyBytes;
        /** The resource tokens' secret: separate from the key, so a token's mac is never a master-key signature. */
        final byte[] tokenSecret;
        /** One initialised Mac per request thread and key (see {@link MasterKeyAuth}). */
        final ThreadLocal<Mac> macs;
        final ThreadLocal<Mac> readOnlyMacs;

        private Pair(String key, String readOnlyKey) {
            this.key = key.strip();
            this.readOnlyKey = readOnlyKey == null ? null : readOnlyKey.strip();
            this.keyBytes = MasterKeyAuth.decodeKey(this.key);
            this.readOnlyBytes = this.readOnlyKey == null ? null : MasterKeyAuth.decodeKey(this.readOnlyKey);
            this.tokenSecret = MasterKeyAuth.hmac(keyBytes, "tetradb/cosmos/resource-token/v1");
            byte[] k = keyBytes;
            byte[] ro = readOnlyBytes;
            this.macs = ThreadLocal.withInitial(() -> MasterKeyAuth.newMac(k));
            this.readOnlyMacs = ro == null ? null : ThreadLocal.withInitial(() -> MasterKeyAuth.newMac(ro));
        }
    }

    private volatile Pair current;

    private CosmosKeys(Pair pair) {
        this.current = pair;
    }

    /** The pair {@code key} (base64, required) and {@code readOnlyKey} (base64, or null: none). */
    public static CosmosKeys of(String key, String readOnlyKey) {
        return new CosmosKeys(new Pair(key, readOnlyKey));
    }

    /**
     * Puts a new pair in force at once (both checked first: a key that is not base64 changes nothing and throws
     * {@link IllegalArgumentException} without quoting it).
     */
    public void replace(String key, String readOnlyKey) {
        current = new Pair(key, readOnlyKey);
    }

    /** The read-write key in force (base64 text), for the other routes that accept it (admin, Gremlin). */
    public String masterKey() {
        return current.key;
    }

    /** The read-only key in force, or null. */
    public String readOnlyKey() {
        return current.readOnlyKey;
    }

    Pair current() {
        return current;
    }

    @Override
    public String toString() {
        return "CosmosKeys[masterKey=set, readOnlyKey=" + (current.readOnlyKey != null ? "set" : "none") + "]";
    }
}

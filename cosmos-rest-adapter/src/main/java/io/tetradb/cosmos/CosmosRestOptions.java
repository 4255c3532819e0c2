package io.tetradb.cosmos;

import io.netty.handler.ssl.SslContext;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How the Cosmos REST endpoint runs: its master keys, TLS, extra routes and limits. Immutable; each {@code with...}
 * returns a copy.
 *
 * <pre>
 * CosmosRestOptions.defaults()                        // the emulator's well-known key, plain HTTP only
 *     .withMasterKey(key).withReadOnlyKey(readKey)
 *     .withSslContext(ctx)                            // TLS and plain HTTP on the same port (OptionalSslHandler)
 *     .withCertificatePem(pemBytes)                   // served at /_explorer/emulator.pem
 *     .withRoute("/health", request -&gt; ...)          // served without Cosmos auth
 * </pre>
 */
public final class CosmosRestOptions {
    /** The Cosmos DB emulator's well-known master key, which the SDKs' emulator samples use. */
    public static final String EMULATOR_KEY =
            "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";
    /** Cosmos DB's request size limit. */
    public static final int DEFAULT_MAX_BODY_BYTES = 2 * 1024 * 1024;

    private final String masterKey;
    private final String readOnlyKey;
    private final SslContext sslContext;
    private final byte[] certificatePem;
    private final Map<String, CosmosRoute> routes;
    private final int maxBodyBytes;
    private final Duration allowedClockSkew;
    private final String browserHome;
    /** Whether pkranges lists the container's physical partitions (else the one range "0"); see PartitionKeyRanges. */
    private final boolean physicalPartitionRanges;

    private CosmosRestOptions(String masterKey, String readOnlyKey, SslContext sslContext, byte[] certificatePem,
                              Map<String, CosmosRoute> routes, int maxBodyBytes, Duration allowedClockSkew,
                              String browserHome) {
        this(masterKey, readOnlyKey, sslContext, certificatePem, routes, maxBodyBytes, allowedClockSkew, browserHome,
                false);
    }

    private CosmosRestOptions(String masterKey, String readOnlyKey, SslContext sslContext, byte[] certificatePem,
                              Map<String, CosmosRoute> routes, int maxBodyBytes, Duration allowedClockSkew,
                              String browserHome, boolean physicalPartitionRanges) {
        this.physicalPartitionRanges = physicalPartitionRanges;
        this.browserHome = browserHome;
        this.masterKey = masterKey;
        this.readOnlyKey = readOnlyKey;
        this.sslContext = sslContext;
        this.certificatePem = certificatePem;
        this.routes = Map.copyOf(routes);
        this.maxBodyBytes = maxBodyBytes;
        this.allowedClockSkew = allowedClockSkew;
    }

    public static CosmosRestOptions defaults() {
        return new CosmosRestOptions(EMULATOR_KEY, null, null, null, Map.of(), DEFAULT_MAX_BODY_BYTES,
                Duration.ofMinutes(15), null, true); // one range per physical partition, as Cosmos DB
    }

    /** The read-write key (base64); 400-style refusal at start if it is not base64. */
    public CosmosRestOptions withMasterKey(String key) {
        MasterKeyAuth.decodeKey(key);
        return new CosmosRestOptions(key, readOnlyKey, sslContext, certificatePem, routes, maxBodyBytes,
                allowedClockSkew, browserHome, physicalPartitionRanges);
    }

    /** A second key that may read and query but not write (null: none). */
    public CosmosRestOptions withReadOnlyKey(String key) {
        if (key != null) {
            MasterKeyAuth.decodeKey(key);
        }
        return new CosmosRestOptions(masterKey, key, sslContext, certificatePem, routes, maxBodyBytes,
                allowedClockSkew, browserHome, physicalPartitionRanges);
    }

    /** Serves TLS too, on the same port as plain HTTP (null: plain HTTP only). */
    public CosmosRestOptions withSslContext(SslContext context) {
        return new CosmosRestOptions(masterKey, readOnlyKey, context, certificatePem, routes, maxBodyBytes,
                allowedClockSkew, browserHome, physicalPartitionRanges);
    }

    /** TLS with {@code certificate} (see {@link TlsCertificate#loadOrCreate}), served at {@code /_explorer/emulator.pem}. */
    public CosmosRestOptions withTls(TlsCertificate certificate) {
        return withSslContext(certificate.sslContext()).withCertificatePem(certificate.pem());
    }

    /** The PEM certificate served at {@code /_explorer/emulator.pem} (null: 404 there). */
    public CosmosRestOptions withCertificatePem(byte[] pem) {
        return new CosmosRestOptions(masterKey, readOnlyKey, sslContext, pem == null ? null : pem.clone(), routes,
                maxBodyBytes, allowedClockSkew, browserHome, physicalPartitionRanges);
    }

    /**
     * Mounts {@code route} at {@code path}: an exact path ({@code /health}), or a prefix when it ends with {@code *}
     * ({@code /api/*}). Extra routes win over the Cosmos routes and skip Cosmos authentication.
     */
    public CosmosRestOptions withRoute(String path, CosmosRoute route) {
        Map<String, CosmosRoute> next = new LinkedHashMap<>(routes);
        next.put(path, route);
        return new CosmosRestOptions(masterKey, readOnlyKey, sslContext, certificatePem, next, maxBodyBytes,
                allowedClockSkew, browserHome, physicalPartitionRanges);
    }

    public CosmosRestOptions withMaxBodyBytes(int bytes) {
        return new CosmosRestOptions(masterKey, readOnlyKey, sslContext, certificatePem, routes, bytes,
                allowedClockSkew, browserHome, physicalPartitionRanges);
    }

    public CosmosRestOptions withAllowedClockSkew(Duration skew) {
        return new CosmosRestOptions(masterKey, readOnlyKey, sslContext, certificatePem, routes, maxBodyBytes, skew,
                browserHome, physicalPartitionRanges);
    }

    /**
     * Where a browser opening {@code /} is redirected (302), e.g. {@code /_explorer/}: a GET accepting
     * {@code text/html} without an {@code authorization} header. The SDKs' signed account read still gets the
     * account. Null (the default): {@code /} is the account for everyone.
     */
    public CosmosRestOptions withBrowserHome(String path) {
        return new CosmosRestOptions(masterKey, readOnlyKey, sslContext, certificatePem, routes, maxBodyBytes,
                allowedClockSkew, path, physicalPartitionRanges);
    }

    /**
     * Exposes each container's physical partitions as its partition key ranges (ids, EPK bounds, parents after a
     * split; 410/1002 for a range that split), so the SDKs read and process the change feed per range, as against
     * Cosmos DB and its emulator (the default). Off: one range "0" over the whole key space, every query run whole
     * by the server. See README "Partition key ranges" and "One range or physical ranges".
     */
    public CosmosRestOptions withPhysicalPartitionRanges(boolean on) {
        return new CosmosRestOptions(masterKey, readOnlyKey, sslContext, certificatePem, routes, maxBodyBytes,
                allowedClockSkew, browserHome, on);
    }

    public boolean physicalPartitionRanges() {
        return physicalPartitionRanges;
    }

    public String browserHome() {
        return browserHome;
    }

    public String masterKey() {
        return masterKey;
    }

    public String readOnlyKey() {
        return readOnlyKey;
    }

    public SslContext sslContext() {
        return sslContext;
    }

    byte[] certificatePem() {
        return certificatePem;
    }

    public Map<String, CosmosRoute> routes() {
        return routes;
    }

    public int maxBodyBytes() {
        return maxBodyBytes;
    }

    public Duration allowedClockSkew() {
        return allowedClockSkew;
    }
}

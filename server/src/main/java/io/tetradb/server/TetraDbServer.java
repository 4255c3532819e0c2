package io.tetradb.server;

import io.tetradb.core.storage.DataDirectoryInUseException;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.mongo.MongoWireServer;
import io.tetradb.mongo.auth.StoredUserCheck;
import io.tetradb.server.gremlin.security.GremlinCredentials;
import io.tetradb.cosmos.CosmosHttpServer;
import io.tetradb.cosmos.CosmosRestOptions;
import io.tetradb.mongo.auth.UserDirectory;
import io.tetradb.mongo.store.MongoCatalog;
import io.tetradb.server.admin.AdminAccess;
import io.tetradb.server.admin.AdminHttpServer;
import io.tetradb.server.config.BindPolicy;
import io.tetradb.server.config.ServerTls;
import io.tetradb.server.config.SecurityConfig;
import io.tetradb.server.config.TableAccountsWatcher;
import io.tetradb.table.http.AccountKeys;
import io.tetradb.server.admin.AdminRoutesOnCosmos;
import io.tetradb.server.explorer.DataExplorer;
import io.tetradb.server.admin.Readiness;
import io.tetradb.server.faces.FaceEndpoint;
import io.tetradb.table.http.TableHttpServer;
import io.tetradb.server.gremlin.GremlinEndpoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One server process: owns the {@link CosmosClient} over the data directory and every endpoint serving it.
 * {@link #close()} stops the endpoints first (in reverse start order) so no request touches the store after it
 * is closed, then closes the client, which flushes RocksDB.
 */
public final class TetraDbServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(TetraDbServer.class);

    private static final String ADMIN = "admin";
    private static final String GREMLIN = "gremlin";
    private static final String MONGO = "mongo";
    private static final String TABLE = "table";
    private static final String COSMOS = "cosmos";

    private final ServerConfig config;
    private final ServerLimits limits;
    private final Readiness readiness;
    private final List<Endpoint> endpoints = new ArrayList<>();
    private CosmosClient client;
    private boolean started;
    private boolean closed;

    public TetraDbServer(ServerConfig config) {
        this(config, StoreOptions.DEFAULTS, ServerLimits.defaults());
    }

    /** With {@code store}: rate limiting and the split threshold of the store it opens. */
    public TetraDbServer(ServerConfig config, StoreOptions store) {
        this(config, store, ServerLimits.defaults());
    }

    /** A server whose faces enforce {@code limits} and whose RocksDB is sized from their memory budget. */
    public TetraDbServer(ServerConfig config, ServerLimits limits) {
        this(config, StoreOptions.DEFAULTS, limits);
    }

    /** With the store's options (rate limiting, split threshold) and the faces' limits and memory budget. */
    public TetraDbServer(ServerConfig config, StoreOptions store, ServerLimits limits) {
        this.config = config;
        this.storeOptions = store;
        this.limits = limits;
        this.readiness = new Readiness(faces(config));
        Map<String, List<String>> accounts = config.security().tableAccounts();
        this.tableKeys = accounts == null ? AccountKeys.development() : AccountKeys.of(accounts);
        this.cosmosKeys = io.tetradb.cosmos.CosmosKeys.of(
                config.cosmosKey() != null ? config.cosmosKey() : CosmosRestOptions.EMULATOR_KEY,
                config.cosmosReadOnlyKey());
    }

    /** The Cosmos key pair in force (the REST face, admin routes, Gremlin key logins), rotated from tetradb.yaml. */
    private final io.tetradb.cosmos.CosmosKeys cosmosKeys;
    private io.tetradb.server.config.CosmosKeysWatcher cosmosKeysWatcher;

    private final StoreOptions storeOptions;
    private final AccountKeys tableKeys;
    private ServerTls tls;
    private TableAccountsWatcher tablesWatcher;

    /** Opens the store and starts every endpoint; on failure releases whatever was started and throws. */
    public synchronized TetraDbServer start() {
        if (started || closed) {
            throw new IllegalStateException("a server starts once");
        }
        started = true;
        if (limits.queryMemoryBytes() != null) {
            io.tetradb.core.query.eval.QueryMemory.setLimitBytes(limits.queryMemoryBytes()); // one per process
        }
        client = openClient(config.dataDirectory(), storeOptions, limits.memory(), this::withStorage);
        try {
            InetAddress bind = config.bindAddress();
            checkBind();
            tls = serverTls();
            if (config.tablePort() != null && config.security().tablesFile() != null) {
                tablesWatcher = TableAccountsWatcher.watch(config.security().tablesFile(), tableKeys,
                        bind.isLoopbackAddress());
            }
            if (cosmosKeysFromFile()) {
                cosmosKeysWatcher = io.tetradb.server.config.CosmosKeysWatcher.watch(
                        config.security().cosmosKeysFile(), cosmosKeys, bind.isLoopbackAddress());
            }
            if (config.httpPort() != null) {
                startEndpoint(ADMIN, () -> AdminHttpServer.start(bind, config.httpPort(), client, readiness,
                        adminAccess()));
            }
            if (config.cosmosPort() != null) {
                // first after admin: the emulator's port is what a supervisor polls for /health
                startEndpoint(COSMOS, () -> FaceEndpoint.start(COSMOS, "https", "/", bind, config.cosmosPort(),
                        port -> CosmosHttpServer.start(bind, port, client, cosmosOptions(), limits.connections(),
                                cosmosKeys),
                        CosmosHttpServer::address));
            }
            if (config.gremlinPort() != null) {
                startEndpoint(GREMLIN, () -> GremlinEndpoint.start(config.bindAddress(), config.gremlinPort(), client,
                        config.graphs(), config.gremlinScriptTimeout(), gremlinCredentials(), limits, tls.context()));
            }
            if (config.mongoPort() != null) {
                startEndpoint(MONGO, () -> FaceEndpoint.start(MONGO, "mongodb", "", bind, config.mongoPort(),
                        port -> MongoWireServer.start(bind, port, client, io.tetradb.mongo.auth.MongoUsers.none(),
                                limits.connections(), tls.context(), cursorLimits()), MongoWireServer::address));
            }
            if (config.tablePort() != null) {
                startEndpoint(TABLE, () -> FaceEndpoint.start(TABLE, "http", "/" + firstTableAccount(), bind,
                        config.tablePort(), port -> TableHttpServer.start(bind, port, client, tableKeys,
                                limits.connections(), limits.requestBytes(TableHttpServer.MAX_BODY_BYTES),
                                tls.context()),
                        TableHttpServer::address));
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        return this;
    }

    /**
     * Beyond loopback every face served must require credentials that are not public (see {@link BindPolicy});
     * checked with the store open, since the Mongo face's users live in it.
     */
    private void checkBind() {
        boolean mongoHasUsers = config.mongoPort() == null || !new UserDirectory(
                io.tetradb.mongo.auth.MongoUsers.none(), new MongoCatalog(client.coreStore())).isEmpty();
        List<String> missing = missingForBind(config, mongoHasUsers);
        if (!missing.isEmpty()) {
            throw new StartupException(BindPolicy.refusal(config.bindAddress(), missing), null);
        }
    }

    /** What {@code config} lacks for its bind address, given whether the Mongo face has users. */
    public static List<String> missingForBind(ServerConfig config, boolean mongoHasUsers) {
        String key = config.cosmosKey();
        Map<String, List<String>> accounts = config.security().tableAccounts();
        boolean tablesLocked = accounts != null && accounts.values().stream()
                .noneMatch(keys -> keys.contains(AccountKeys.DEV_KEY));
        return BindPolicy.missing(config.bindAddress(),
                new BindPolicy.Face(config.cosmosPort() != null || config.httpPort() != null,
                        key != null && !key.equals(CosmosRestOptions.EMULATOR_KEY)),
                new BindPolicy.Face(config.tablePort() != null, tablesLocked),
                new BindPolicy.Face(config.gremlinPort() != null, config.gremlinAuth()),
                new BindPolicy.Face(config.mongoPort() != null, mongoHasUsers));
    }

    /** The Mongo face's cursor bounds: the defaults, with --max-open-cursors and --max-cursor-memory. */
    private io.tetradb.mongo.command.CursorLimits cursorLimits() {
        io.tetradb.mongo.command.CursorLimits cursors = io.tetradb.mongo.command.CursorLimits.defaults();
        cursors = limits.maxOpenCursors() == null ? cursors : cursors.withMaxOpen(limits.maxOpenCursors());
        return limits.maxCursorBytes() == null ? cursors : cursors.withMaxBytes(limits.maxCursorBytes());
    }

    /** The admin routes and the data explorer: open on loopback, the Cosmos keys beyond (read-only: reads). */
    private AdminAccess adminAccess() {
        return config.bindAddress().isLoopbackAddress() ? AdminAccess.open()
                : AdminAccess.keys(cosmosKeys::masterKey, cosmosKeys::readOnlyKey);
    }

    private ServerTls serverTls() {
        try {
            return ServerTls.of(config.dataDirectory(), config.security().tlsCertificate(),
                    config.security().tlsKey());
        } catch (IllegalArgumentException e) {
            throw new StartupException(e.getMessage(), e);
        }
    }

    /** The account the printed Tables URL names: the first configured, else Azurite's. */
    private String firstTableAccount() {
        Map<String, List<String>> accounts = config.security().tableAccounts();
        return accounts == null ? AccountKeys.DEV_ACCOUNT : accounts.keySet().iterator().next();
    }

    /**
     * Whether the Cosmos keys are the file's to rotate: the file holds them (or may come to), and neither the
     * environment nor an option ({@code --cosmos-key}, {@code --cosmos-read-only-key}) pinned them.
     */
    private boolean cosmosKeysFromFile() {
        SecurityConfig security = config.security();
        return (config.cosmosPort() != null || config.httpPort() != null || config.gremlinPort() != null)
                && security.cosmosKeysFile() != null
                && java.util.Objects.equals(config.cosmosKey(), security.cosmosKey())
                && java.util.Objects.equals(config.cosmosReadOnlyKey(), security.cosmosReadOnlyKey());
    }

    /** The Cosmos key pair in force (replaced when {@code tetradb.yaml} changes). */
    public io.tetradb.cosmos.CosmosKeys cosmosKeys() {
        return cosmosKeys;
    }

    /** The Tables accounts in force (replaced when {@code tetradb.yaml} changes). */
    public AccountKeys tableAccountKeys() {
        return tableKeys;
    }

    /** What Gremlin clients authenticate with, when --gremlin-auth asks for it: the server's users and the Cosmos keys. */
    private GremlinCredentials gremlinCredentials() {
        if (!config.gremlinAuth()) {
            return null;
        }
        return new GremlinCredentials(new StoredUserCheck(client.coreStore()), cosmosKeys::masterKey,
                cosmosKeys::readOnlyKey);
    }

    /**
     * The Cosmos endpoint's settings: the configured key (or the emulator's), TLS with the data directory's own
     * self-signed certificate (made on first start), the admin routes and the data explorer on the same port.
     */
    private CosmosRestOptions cosmosOptions() {
        CosmosRestOptions options = CosmosRestOptions.defaults().withSslContext(tls.context())
                .withCertificatePem(tls.pem());
        if (config.cosmosKey() != null) {
            options = options.withMasterKey(config.cosmosKey());
        }
        if (config.cosmosReadOnlyKey() != null) {
            options = options.withReadOnlyKey(config.cosmosReadOnlyKey());
        }
        options = options.withMaxBodyBytes(limits.requestBytes(options.maxBodyBytes()))
                .withPhysicalPartitionRanges(physicalPartitionRanges);
        return DataExplorer.mount(AdminRoutesOnCosmos.mount(options, client, readiness, adminAccess()), client,
                adminAccess());
    }

    private void startEndpoint(String face, Supplier<Endpoint> starter) {
        Endpoint endpoint;
        try {
            endpoint = starter.get();
        } catch (RuntimeException e) {
            readiness.failed(face);
            throw e;
        }
        endpoints.add(endpoint);
        readiness.listening(face, endpoint.url());
    }

    /** The faces this configuration serves, in start order: what {@code /health} waits for. */
    private static List<String> faces(ServerConfig config) {
        List<String> faces = new ArrayList<>();
        if (config.httpPort() != null) {
            faces.add(ADMIN);
        }
        if (config.cosmosPort() != null) {
            faces.add(COSMOS);
        }
        if (config.gremlinPort() != null) {
            faces.add(GREMLIN);
        }
        if (config.mongoPort() != null) {
            faces.add(MONGO);
        }
        if (config.tablePort() != null) {
            faces.add(TABLE);
        }
        return faces;
    }

    public synchronized CosmosClient client() {
        if (client == null || closed) {
            throw new IllegalStateException("server is not running");
        }
        return client;
    }

    public synchronized List<Endpoint> endpoints() {
        return Collections.unmodifiableList(new ArrayList<>(endpoints));
    }

    /** The endpoint called {@code name}, e.g. {@code admin}. */
    public synchronized Endpoint endpoint(String name) {
        return endpoints.stream().filter(e -> e.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no endpoint " + name));
    }

    public ServerConfig config() {
        return config;
    }

    /** Idempotent: safe from both the signal path and the JVM shutdown hook. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        readiness.stopping();
        if (cosmosKeysWatcher != null) {
            cosmosKeysWatcher.close();
        }
        if (tablesWatcher != null) {
            tablesWatcher.close();
        }
        for (int i = endpoints.size() - 1; i >= 0; i--) {
            try {
                endpoints.get(i).close();
            } catch (RuntimeException e) {
                log.warn("closing endpoint {} failed", endpoints.get(i).name(), e);
            }
        }
        if (client != null) {
            client.close();
        }
        closeStorage();
    }

    // ---- --storage cassandra (issue 20) ----
    private CassandraStorage.Options cassandraOptions;
    private boolean physicalPartitionRanges = true;

    /**
     * Whether the Cosmos endpoint lists each container's physical partitions as its partition key ranges
     * ({@code --cosmos-physical-ranges on}, the default; {@link CosmosRestOptions#withPhysicalPartitionRanges}) or
     * one range per container; before {@link #start()}.
     */
    public TetraDbServer withPhysicalPartitionRanges(boolean on) {
        this.physicalPartitionRanges = on;
        return this;
    }
    private CassandraStorage cassandra;

    /** Keeps metadata and item transactions on Cassandra (null: the embedded storage); before {@link #start()}. */
    TetraDbServer onCassandra(CassandraStorage.Options options) {
        this.cassandraOptions = options;
        return this;
    }

    private io.tetradb.core.storage.meta.MetadataStore sharedMetadata;
    private io.tetradb.core.storage.partition.PartitionStore sharedPartitions;

    /**
     * Tests: serves on these stores as on Cassandra's (the same paths), without a cluster; the caller closes them.
     */
    TetraDbServer onSharedStores(io.tetradb.core.storage.meta.MetadataStore metadata,
                                 io.tetradb.core.storage.partition.PartitionStore partitions) {
        this.sharedMetadata = metadata;
        this.sharedPartitions = partitions;
        return this;
    }

    /** Opens the Cassandra stores when asked to and puts them under the client's core. */
    private CosmosClientBuilder withStorage(CosmosClientBuilder builder) {
        if (sharedMetadata != null) {
            log.info(CassandraStorage.startNotice());
            return builder.storage(sharedMetadata, sharedPartitions);
        }
        if (cassandraOptions == null) {
            return builder;
        }
        try {
            cassandra = CassandraStorage.open(cassandraOptions);
        } catch (RuntimeException e) {
            throw new StartupException("cannot open Cassandra at " + cassandraOptions.contactPoints() + ": "
                    + rootMessage(e), e);
        }
        log.info(CassandraStorage.startNotice());
        return builder.storage(cassandra.metadata(), cassandra.partitions());
    }

    private void closeStorage() {
        if (cassandra != null) {
            cassandra.close();
        }
    }
    // ---- end --storage cassandra ----

    private static CosmosClient openClient(Path dir, StoreOptions options, MemoryBudget memory,
                                           java.util.function.UnaryOperator<CosmosClientBuilder> storage) {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new StartupException("data directory " + dir + " is not a directory", null);
        }
        try {
            CosmosClientBuilder builder = new CosmosClientBuilder().dataDirectory(dir).rateLimiting(options.rateLimit())
                    .burstCapacity(options.burstCapacity()).splitThresholdBytes(options.splitThresholdBytes())
                    .consistencyLevel(options.consistency());
            if (memory != null) {
                builder.blockCacheBytes(memory.rocksDbBytes());
            }
            return storage.apply(builder).buildClient();
        } catch (RuntimeException e) {
            if (e instanceof StartupException) {
                throw e;
            }
            if (e instanceof DataDirectoryInUseException) {
                throw new StartupException(e.getMessage(), e);
            }
            throw new StartupException("cannot open data directory " + dir + ": " + rootMessage(e), e);
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        // file system exceptions carry only the path as their message; their type says what went wrong
        return t.getMessage() == null || t instanceof FileSystemException
                ? t.getClass().getSimpleName() + (t.getMessage() != null ? " " + t.getMessage() : "")
                : t.getMessage();
    }
}

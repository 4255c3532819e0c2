package io.tetradb.server;

import io.tetradb.core.net.ConnectionLimits;
import io.tetradb.server.config.SecurityConfig;
import io.tetradb.server.gremlin.GraphSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code tetradb start}: runs the server in the foreground until SIGTERM or SIGINT. */
@Command(name = "start", mixinStandardHelpOptions = true,
        description = "Start the server in the foreground; stops cleanly on SIGTERM or Ctrl-C.")
final class StartCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = "./data",
            description = "Data directory, relative to the current directory (default: ${DEFAULT-VALUE}).")
    Path dataDir;

    @Option(names = "--config", paramLabel = "FILE",
            description = "The credentials and TLS file (YAML; default: $TETRADB_CONFIG, else DIR/tetradb.yaml when "
                    + "it exists). Environment variables (TETRADB_COSMOS_KEY, TETRADB_TABLES_ACCOUNTS, ...) override "
                    + "it, options override both.")
    Path configFile;

    @Option(names = "--cosmos-port", paramLabel = "N", defaultValue = "" + ServerConfig.DEFAULT_COSMOS_PORT,
            description = "Cosmos DB REST port (the emulator's): TLS and plain HTTP, plus /health, /api/partitions "
                    + "and /partitions; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int cosmosPort;

    @Option(names = "--cosmos-key", paramLabel = "KEY",
            description = "Cosmos master key, base64 (default: $TETRADB_COSMOS_KEY, else the emulator's well-known "
                    + "key).")
    String cosmosKey;

    @Option(names = "--cosmos-read-only-key", paramLabel = "KEY",
            description = "A second Cosmos key, base64, that may only read and query (default: "
                    + "$TETRADB_COSMOS_READ_ONLY_KEY, else none).")
    String cosmosReadOnlyKey;

    @Option(names = "--http-port", paramLabel = "N",
            description = "A separate admin HTTP port for /health, /api/partitions and /partitions (they are always "
                    + "on the Cosmos port too); 0 picks a free one. Default: none.")
    Integer httpPort;

    @Option(names = "--gremlin-port", paramLabel = "N", defaultValue = "" + ServerConfig.DEFAULT_GREMLIN_PORT,
            description = "Gremlin Server port (WebSocket); 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int gremlinPort;

    @Option(names = "--graph", paramLabel = "NAME=DB/CONTAINER/PK",
            description = "A further graph for Gremlin Server (repeatable), traversed as g_NAME. "
                    + "The graph 'graph' (graphdb/graph/pk, traversed as g) is always served; --graph graph=... "
                    + "moves it to another container.")
    List<String> graphs = new ArrayList<>();

    @Option(names = "--gremlin-timeout-ms", paramLabel = "MS", defaultValue = "30000",
            description = "Longest a Gremlin request may run before it is answered 598 and stopped "
                    + "(default: ${DEFAULT-VALUE}).")
    long gremlinTimeoutMs;

    @Option(names = "--gremlin-auth", negatable = true,
            description = "Gremlin Server requires credentials (SASL PLAIN): a user made with the Mongo face's "
                    + "createUser (NAME for the admin database, NAME@DB for another), or the Cosmos form "
                    + "/dbs/DB/colls/CONTAINER with a Cosmos key as the password (default: off, or on when "
                    + "$TETRADB_GREMLIN_AUTH is true).")
    Boolean gremlinAuth;

    @Option(names = "--mongo-port", paramLabel = "N", defaultValue = "" + ServerConfig.DEFAULT_MONGO_PORT,
            description = "MongoDB wire protocol port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int mongoPort;

    @Option(names = "--table-port", paramLabel = "N", defaultValue = "" + ServerConfig.DEFAULT_TABLE_PORT,
            description = "Azure Tables HTTP port (path-style, /devstoreaccount1); 0 picks a free one "
                    + "(default: ${DEFAULT-VALUE}).")
    int tablePort;

    @Option(names = "--rate-limit", paramLabel = "on|off", defaultValue = "off",
            description = "Answer requests over their physical partition's share of the provisioned RU/s with 429 "
                    + "and a retry-after, as Cosmos DB does (default: ${DEFAULT-VALUE}, like the emulator without "
                    + "/EnableRateLimiting).")
    String rateLimit;

    @Option(names = "--burst-capacity", paramLabel = "on|off", defaultValue = "off",
            description = "With --rate-limit on: Cosmos DB's burst capacity, partitions below 3,000 RU/s bank up to 5 "
                    + "minutes of unused RU and spend them at up to 3,000 RU/s (default: ${DEFAULT-VALUE}, an opt-in "
                    + "feature in Cosmos DB too).")
    String burstCapacity;

    @Option(names = "--cosmos-physical-ranges", paramLabel = "on|off", defaultValue = "on",
            description = "The Cosmos REST endpoint lists each container's physical partitions as its partition key "
                    + "ranges (feed ranges, per-range queries and change feeds, splits as 410/1002), as Cosmos DB "
                    + "does; off: one range per container, every query run whole (default: ${DEFAULT-VALUE}).")
    String cosmosPhysicalRanges;

    @Option(names = "--consistency", paramLabel = "LEVEL", defaultValue = "Session",
            description = "The account's default consistency level: Strong, BoundedStaleness, Session, "
                    + "ConsistentPrefix or Eventual (default: ${DEFAULT-VALUE}, the emulator's). Cosmos requests may "
                    + "only weaken it; strong and bounded-staleness reads cost twice the RU on every face.")
    String consistency;

    @Option(names = "--split-threshold-bytes", paramLabel = "N",
            description = "Split a physical partition once it holds more than N bytes (default: Cosmos DB's 50 GB); "
                    + "small values show splits with little data.")
    Long splitThresholdBytes;

    @Option(names = "--bind", paramLabel = "ADDR", defaultValue = "127.0.0.1",
            description = "Address every endpoint binds to (default: ${DEFAULT-VALUE}); beyond loopback only when "
                    + "every face requires credentials (a Cosmos key, Tables account keys, --gremlin-auth, a Mongo "
                    + "user), and the admin routes then need the Cosmos key.")
    InetAddress bind;

    @Option(names = "--log-level", paramLabel = "LEVEL",
            description = "The log's root level: trace, debug, info, warn, error or off (default: info, or what "
                    + "DIR/logback.xml or -Dlogback.configurationFile says). Logs go to stderr.")
    String logLevel;

    @Option(names = "--memory", paramLabel = "SIZE",
            description = "Memory budget of the process, heap and RocksDB together, e.g. 1g or 768m: half is the "
                    + "Java heap (the tetradb script passes -Xmx), a quarter RocksDB's cache and write buffers "
                    + "(default: $TETRADB_MEMORY, else 1g).")
    String memory;

    @Option(names = "--max-connections", paramLabel = "N",
            defaultValue = "" + ConnectionLimits.DEFAULT_MAX_CONNECTIONS,
            description = "Open connections each face accepts; beyond, new ones are closed (default: ${DEFAULT-VALUE}).")
    int maxConnections;

    @Option(names = "--max-open-cursors", paramLabel = "N",
            defaultValue = "" + io.tetradb.mongo.command.CursorLimits.DEFAULT_MAX_OPEN,
            description = "Mongo cursors kept open at most; opening one more closes the least recently used "
                    + "(idle ones close after 10 minutes anyway; default: ${DEFAULT-VALUE}).")
    int maxOpenCursors;

    @Option(names = "--max-cursor-memory", paramLabel = "SIZE",
            description = "Document bytes Mongo's open cursors may hold together between batches; a find, aggregate "
                    + "or getMore going beyond fails with ExceededMemoryLimit (146) (default: a quarter of the heap, "
                    + "at least 16m).")
    String maxCursorMemory;

    @Option(names = "--max-connections-per-address", paramLabel = "N",
            defaultValue = "" + ConnectionLimits.DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
            description = "Open connections each face accepts from one client IP address (default: ${DEFAULT-VALUE}).")
    int maxConnectionsPerAddress;

    @Option(names = "--request-read-timeout-ms", paramLabel = "MS", defaultValue = "30000",
            description = "Longest a request may take to arrive once its first byte has; then its connection is "
                    + "closed (slow clients; default: ${DEFAULT-VALUE}).")
    long requestReadTimeoutMs;

    @Option(names = "--request-time-limit-ms", paramLabel = "MS", defaultValue = "30000",
            description = "Cosmos REST: longest a request may run once read; then its core work stops and it is "
                    + "answered 408 RequestTimeout (default: ${DEFAULT-VALUE}).")
    long requestTimeLimitMs;

    @Option(names = "--max-requests-per-second", paramLabel = "N", defaultValue = "0",
            description = "Requests per second one connection may send; beyond, each further request of that "
                    + "second gets the face's refusal (Mongo 462, HTTP 429, Gremlin 429). 0: unlimited (default).")
    int maxRequestsPerSecond;

    @Option(names = "--max-request-bytes", paramLabel = "N",
            description = "A lower cap on request bodies (Tables: 413 above 4 MiB, Cosmos: 413 above 2 MiB, Gremlin "
                    + "Server's maxContentLength: 10 MiB). Mongo keeps maxMessageSizeBytes, 48 MB. Default: none.")
    Integer maxRequestBytes;

    @Option(names = "--query-memory", paramLabel = "SIZE",
            description = "What one query may hold in memory to sort, group or de-duplicate, e.g. 100m; beyond, it "
                    + "fails (Cosmos: 400, Mongo: 292 QueryExceededMemoryLimitNoDiskUseAllowed). Default: 100m.")
    String queryMemory;

    @Option(names = "--storage", paramLabel = "embedded|cassandra", defaultValue = "embedded",
            description = "Where the data lives: embedded (RocksDB in the data directory) or cassandra (a Cassandra "
                    + "cluster several servers may share, see --cassandra; default: ${DEFAULT-VALUE}).")
    String storage;

    @Option(names = "--cassandra", paramLabel = "HOST:PORT,...",
            description = "With --storage cassandra: the cluster's contact points (port default 9042; "
                    + "`tetradb dev-cluster` listens on 127.0.0.1:19042,...).")
    String cassandra;

    @Option(names = "--cassandra-keyspace", paramLabel = "NAME", defaultValue = "tetradb",
            description = "With --storage cassandra: the keyspace, created if missing (default: ${DEFAULT-VALUE}).")
    String cassandraKeyspace;

    @Option(names = "--cassandra-replication", paramLabel = "N", defaultValue = "3",
            description = "With --storage cassandra: copies of each row when the keyspace is created "
                    + "(default: ${DEFAULT-VALUE}).")
    int cassandraReplication;

    @Option(names = "--cassandra-consistency", paramLabel = "quorum|eventual", defaultValue = "quorum",
            description = "With --storage cassandra: quorum (writes and reads at QUORUM, conditions at SERIAL: every "
                    + "acknowledged write is read back with one node of three down) or eventual (LOCAL_ONE reads) "
                    + "(default: ${DEFAULT-VALUE}).")
    String cassandraConsistency;

    /** The --storage cassandra options, checked (exit 2), or null for the embedded storage. */
    private CassandraStorage.Options cassandraOptions() {
        if (storage.equals("embedded")) {
            if (cassandra != null) {
                throw new ParameterException(spec.commandLine(), "--cassandra needs --storage cassandra");
            }
            return null;
        }
        if (!storage.equals("cassandra")) {
            throw new ParameterException(spec.commandLine(), "--storage is embedded or cassandra, not '" + storage
                    + "'");
        }
        if (cassandra == null) {
            throw new ParameterException(spec.commandLine(), "--storage cassandra needs --cassandra HOST:PORT,...");
        }
        try {
            return new CassandraStorage.Options(CassandraStorage.Options.parseContactPoints(cassandra),
                    cassandraKeyspace, cassandraReplication, cassandraConsistency);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    @Override
    public Integer call() {
        try {
            io.tetradb.server.logging.ServerLogging.configure(dataDir, logLevel);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        CassandraStorage.Options onCassandra = cassandraOptions();
        if (httpPort != null) {
            checkPort("--http-port", httpPort);
        }
        checkPort("--cosmos-port", cosmosPort);
        checkPort("--gremlin-port", gremlinPort);
        checkPort("--mongo-port", mongoPort);
        checkPort("--table-port", tablePort);
        if (gremlinTimeoutMs <= 0) {
            throw new ParameterException(spec.commandLine(), "--gremlin-timeout-ms must be positive, not "
                    + gremlinTimeoutMs);
        }
        ServerConfig config;
        try {
            SecurityConfig security = security();
            if (security.tableAccounts() != null) {
                io.tetradb.table.http.AccountKeys.of(security.tableAccounts()); // names and keys checked here: exit 2
            }
            config = new ServerConfig(dataDir, bind, httpPort, gremlinPort, graphSpecs(), mongoPort, tablePort,
                    Duration.ofMillis(gremlinTimeoutMs), cosmosPort,
                    cosmosKey != null ? cosmosKey : security.cosmosKey(),
                    cosmosReadOnlyKey != null ? cosmosReadOnlyKey : security.cosmosReadOnlyKey(),
                    gremlinAuth != null ? gremlinAuth : Boolean.TRUE.equals(security.gremlinAuth()), security);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        checkBind(config);
        StoreOptions storeOptions = storeOptions();
        ServerLimits limits = limits();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!cosmosPhysicalRanges.equals("on") && !cosmosPhysicalRanges.equals("off")) {
            throw new ParameterException(spec.commandLine(), "--cosmos-physical-ranges is on or off, not '"
                    + cosmosPhysicalRanges + "'");
        }
        TetraDbServer server = new TetraDbServer(config, storeOptions, limits).onCassandra(onCassandra)
                .withPhysicalPartitionRanges(cosmosPhysicalRanges.equals("on"));
        try {
            server.start();
        } catch (StartupException e) {
            err.println("tetradb: " + e.getMessage());
            err.flush();
            return 1;
        }
        Runnable stop = () -> {
            server.close();
            out.println("TetraDB stopped");
            out.flush();
        };
        ShutdownSignals signals = ShutdownSignals.install(stop);
        for (Endpoint e : server.endpoints()) {
            out.println(e.name() + " " + e.url());
        }
        out.println("TetraDB started (data directory " + config.dataDirectory() + ")");
        out.flush();
        signals.awaitAndStop();
        return 0;
    }

    private StoreOptions storeOptions() {
        if (!rateLimit.equals("on") && !rateLimit.equals("off")) {
            throw new ParameterException(spec.commandLine(), "--rate-limit is on or off, not '" + rateLimit + "'");
        }
        if (!burstCapacity.equals("on") && !burstCapacity.equals("off")) {
            throw new ParameterException(spec.commandLine(), "--burst-capacity is on or off, not '" + burstCapacity
                    + "'");
        }
        StoreOptions options = StoreOptions.DEFAULTS.withRateLimit(rateLimit.equals("on"))
                .withBurstCapacity(burstCapacity.equals("on"));
        try {
            options = options.withConsistency(io.tetradb.document.ConsistencyLevel.valueOf(
                    io.tetradb.core.consistency.ConsistencyLevel.parse(consistency).name()));
        } catch (io.tetradb.core.StoreException e) {
            throw new ParameterException(spec.commandLine(), "--consistency is Strong, BoundedStaleness, Session, "
                    + "ConsistentPrefix or Eventual, not '" + consistency + "'");
        }
        if (splitThresholdBytes != null) {
            if (splitThresholdBytes <= 0) {
                throw new ParameterException(spec.commandLine(), "--split-threshold-bytes must be positive, not "
                        + splitThresholdBytes);
            }
            options = options.withSplitThresholdBytes(splitThresholdBytes);
        }
        return options;
    }

    /**
     * Beyond loopback only with credentials on every face (see {@link io.tetradb.server.config.BindPolicy}), refused
     * here before anything opens; whether the Mongo face has a user is known only with the store open, so the server
     * checks that one at start.
     */
    private void checkBind(ServerConfig config) {
        List<String> missing = TetraDbServer.missingForBind(config, true);
        if (!missing.isEmpty()) {
            throw new ParameterException(spec.commandLine(),
                    io.tetradb.server.config.BindPolicy.refusal(bind, missing));
        }
    }

    /** The credentials file (given, from the environment, or the data directory's) with the environment on top. */
    private SecurityConfig security() {
        Path file = configFile;
        if (file == null && option(null, "TETRADB_CONFIG") != null) {
            file = Path.of(option(null, "TETRADB_CONFIG"));
        }
        boolean required = file != null;
        if (file == null) {
            file = dataDir.resolve(SecurityConfig.FILE_NAME);
        }
        return SecurityConfig.load(file.toAbsolutePath().normalize(), required, System.getenv());
    }

    private ServerLimits limits() {
        try {
            String budget = option(memory, "TETRADB_MEMORY");
            return new ServerLimits(MemoryBudget.parse(budget == null ? "1g" : budget),
                    new ConnectionLimits(maxConnections, maxConnectionsPerAddress,
                            Duration.ofMillis(requestReadTimeoutMs), maxRequestsPerSecond)
                            .withRequestTimeLimit(Duration.ofMillis(requestTimeLimitMs)), maxRequestBytes,
                    queryMemory == null ? null : MemoryBudget.parseBytes(queryMemory), maxOpenCursors,
                    maxCursorMemory == null ? null : MemoryBudget.parseBytes(maxCursorMemory));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    private List<GraphSpec> graphSpecs() {
        try {
            return graphs.stream().map(GraphSpec::parse).toList();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--graph: " + e.getMessage());
        }
    }

    /** A secret given, else the environment's (a key on the command line shows in the process list), else none. */
    private static String option(String given, String environmentVariable) {
        if (given != null) {
            return given;
        }
        String fromEnvironment = System.getenv(environmentVariable);
        return fromEnvironment == null || fromEnvironment.isBlank() ? null : fromEnvironment.strip();
    }

    private void checkPort(String option, int port) {
        if (port < 0 || port > 65535) {
            throw new ParameterException(spec.commandLine(), option + " must be 0..65535, not " + port);
        }
    }
}

package io.tetradb.mongo.command;

import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.lang.management.ManagementFactory;
import java.util.UUID;

/** Handshake, diagnostics and session commands: a MongoDB 7.0 replica set primary as drivers and shells expect it. */
final class AdminCommands {
    static final String VERSION = "7.0.0";
    private static final long STARTED = System.currentTimeMillis();

    private AdminCommands() {
    }

    static void register(CommandDispatcher d, AuthCommands auth) {
        d.register("hello", (ctx, cmd) -> {
            rememberClient(ctx, cmd);
            BsonDocument reply = hello(ctx, false);
            auth.hello(ctx, cmd, reply);
            return reply;
        });
        d.registerAnyCase("isMaster", (ctx, cmd) -> {
            rememberClient(ctx, cmd);
            BsonDocument reply = hello(ctx, true);
            auth.hello(ctx, cmd, reply);
            return reply;
        });
        d.registerAnyCase("buildInfo", (ctx, cmd) -> buildInfo());
        d.register("ping", (ctx, cmd) -> Replies.ok());
        d.register("getParameter", AdminCommands::getParameter);
        d.register("getLog", AdminCommands::getLog);
        d.register("getCmdLineOpts", (ctx, cmd) -> getCmdLineOpts(ctx));
        d.register("hostInfo", (ctx, cmd) -> HostInfo.reply());
        d.register("serverStatus", (ctx, cmd) -> serverStatus(ctx, cmd, d));
        d.register("currentOp", (ctx, cmd) -> d.operations.currentOp(ctx, cmd, HostInfo.hostname() + ":"
                + port(ctx)));
        d.register("replSetGetStatus", (ctx, cmd) -> ReplicaSet.status(ctx));
        d.register("replSetGetConfig", (ctx, cmd) -> ReplicaSet.config(ctx));
        d.register("replSetInitiate", (ctx, cmd) -> {
            throw new MongoError(ErrorCode.ALREADY_INITIALIZED, "already initialized");
        });
        d.register("connectionStatus", (ctx, cmd) -> {
            BsonArray users = new BsonArray();
            if (ctx.connection().user() != null) {
                users.add(new BsonDocument("user", new BsonString(ctx.connection().user()))
                        .append("db", new BsonString(ctx.connection().userDatabase())));
            }
            return Replies.ok(new BsonDocument("authInfo", new BsonDocument("authenticatedUsers", users)
                    .append("authenticatedUserRoles", auth.rolesOf(ctx))));
        });
        d.register("whatsmyuri", (ctx, cmd) -> Replies.ok(new BsonDocument("you",
                new BsonString(ctx.connection().remote()))));
        d.register("endSessions", (ctx, cmd) -> Replies.ok());
        d.register("killAllSessions", (ctx, cmd) -> Replies.ok());
        d.register("killSessions", (ctx, cmd) -> Replies.ok());
        d.register("refreshSessions", (ctx, cmd) -> Replies.ok());
        d.register("startSession", (ctx, cmd) -> Replies.ok(new BsonDocument("id",
                new BsonDocument("id", new org.bson.BsonBinary(UUID.randomUUID())))
                .append("timeoutMinutes", new BsonInt32(Limits.LOGICAL_SESSION_TIMEOUT_MINUTES))));
        d.register("getLastRequestStatistics", (ctx, cmd) -> Replies.ok(new BsonDocument("CommandName",
                new BsonString(ctx.connection().lastCommand()))
                .append("RequestCharge", new BsonDouble(ctx.connection().lastRequestCharge()))
                .append("RequestDurationInMilliSeconds", new BsonInt64(0))));
        d.register("listCommands", (ctx, cmd) -> listCommands(d));
        d.register("getFreeMonitoringStatus", (ctx, cmd) -> Replies.ok(new BsonDocument("state",
                new BsonString("disabled"))));
        d.register("atlasVersion", (ctx, cmd) -> {
            throw new MongoError(ErrorCode.COMMAND_NOT_FOUND, "no such command: 'atlasVersion'");
        });
    }

    static BsonDocument hello(CommandContext ctx, boolean legacy) {
        BsonDocument d = new BsonDocument();
        d.append(legacy ? "ismaster" : "isWritablePrimary", BsonBoolean.TRUE);
        d.append("helloOk", BsonBoolean.TRUE);
        d.append("maxBsonObjectSize", new BsonInt32(Limits.MAX_BSON_OBJECT_SIZE));
        d.append("maxMessageSizeBytes", new BsonInt32(Limits.MAX_MESSAGE_BYTES));
        d.append("maxWriteBatchSize", new BsonInt32(Limits.MAX_WRITE_BATCH_SIZE));
        d.append("localTime", new BsonDateTime(System.currentTimeMillis()));
        d.append("logicalSessionTimeoutMinutes", new BsonInt32(Limits.LOGICAL_SESSION_TIMEOUT_MINUTES));
        d.append("connectionId", new BsonInt32(ctx.connection().connectionId()));
        d.append("minWireVersion", new BsonInt32(0));
        d.append("maxWireVersion", new BsonInt32(Limits.MAX_WIRE_VERSION));
        d.append("readOnly", BsonBoolean.FALSE);
        replicaSetMember(ctx, d);
        return Replies.ok(d);
    }

    /**
     * How long to hold an awaitable hello (the drivers' streaming monitor: {@code topologyVersion} and
     * {@code maxAwaitTimeMS}) before answering it, or -1 to answer at once. This server's topology never changes, so
     * a client that already knows this process's topology version waits the whole {@code maxAwaitTimeMS}, as MongoDB
     * makes it wait; answering at once would make the driver ask again at once, a busy loop on both sides.
     */
    public static long awaitableHelloMillis(BsonDocument cmd) {
        if (cmd.isEmpty()) {
            return -1;
        }
        String name = cmd.getFirstKey();
        if (!name.equals("hello") && !name.equals("isMaster") && !name.equals("ismaster")) {
            return -1;
        }
        org.bson.BsonValue known = cmd.get("topologyVersion");
        org.bson.BsonValue wait = cmd.get("maxAwaitTimeMS");
        if (known == null || !known.isDocument() || wait == null || !wait.isNumber()) {
            return -1;
        }
        BsonDocument tv = known.asDocument();
        boolean current = new org.bson.BsonObjectId(PROCESS_ID).equals(tv.get("processId"))
                && tv.get("counter") != null && tv.get("counter").isNumber()
                && tv.get("counter").asNumber().longValue() == 0;
        long millis = wait.asNumber().longValue();
        return current && millis > 0 ? Math.min(millis, MAX_AWAIT_MILLIS) : -1;
    }

    private static final long MAX_AWAIT_MILLIS = 60_000;

    private static final org.bson.types.ObjectId PROCESS_ID = new org.bson.types.ObjectId();

    /**
     * Drivers run multi-document transactions only against a replica set member or mongos (the Java driver refuses
     * them on a standalone before sending anything), so this server answers as the primary of a one-member replica
     * set ({@link ReplicaSet}), as Azure Cosmos DB's Mongo API does ("globaldb"). The member is the address the
     * client reached.
     */
    private static void replicaSetMember(CommandContext ctx, BsonDocument d) {
        ReplicaSet.describe(ctx, d, topologyVersion());
    }

    private static BsonDocument topologyVersion() {
        return new BsonDocument("processId", new org.bson.BsonObjectId(PROCESS_ID)).append("counter", new BsonInt64(0));
    }

    static BsonDocument buildInfo() {
        BsonArray versionArray = new BsonArray();
        for (String part : VERSION.split("\\.")) {
            versionArray.add(new BsonInt32(Integer.parseInt(part)));
        }
        versionArray.add(new BsonInt32(0));
        return Replies.ok(new BsonDocument("version", new BsonString(VERSION))
                .append("gitVersion", new BsonString("tetradb"))
                .append("versionArray", versionArray)
                .append("bits", new BsonInt32(64))
                .append("debug", BsonBoolean.FALSE)
                .append("maxBsonObjectSize", new BsonInt32(Limits.MAX_BSON_OBJECT_SIZE))
                .append("storageEngines", new BsonArray(java.util.List.of(new BsonString("tetradb"))))
                .append("javascriptEngine", new BsonString("none"))
                .append("allocator", new BsonString("system"))
                .append("sysInfo", new BsonString("deprecated"))
                .append("buildEnvironment", new BsonDocument("distarch", new BsonString(HostInfo.cpuArch()))
                        .append("target_arch", new BsonString(HostInfo.cpuArch())))
                .append("modules", new BsonArray())
                .append("openssl", new BsonDocument("running", new BsonString("disabled"))));
    }

    static BsonDocument getParameter(CommandContext ctx, BsonDocument cmd) {
        BsonDocument known = new BsonDocument("featureCompatibilityVersion", new BsonDocument("version",
                new BsonString("7.0")))
                .append("authenticationMechanisms", new BsonArray(java.util.List.of(new BsonString("SCRAM-SHA-256"))))
                .append("maxBsonObjectSize", new BsonInt32(Limits.MAX_BSON_OBJECT_SIZE))
                .append("logLevel", new BsonInt32(0));
        BsonValue arg = cmd.get("getParameter");
        boolean all = arg.isString() && arg.asString().getValue().equals("*")
                || arg.isDocument() && arg.asDocument().getBoolean("allParameters", BsonBoolean.FALSE).getValue();
        BsonDocument out = new BsonDocument();
        for (String key : known.keySet()) {
            if (all || cmd.containsKey(key)) {
                out.append(key, known.get(key));
            }
        }
        for (String key : cmd.keySet()) {
            if (!key.equals("getParameter") && !key.startsWith("$") && !key.equals("lsid") && !out.containsKey(key)
                    && !all) {
                throw new MongoError(ErrorCode.INVALID_OPTIONS, "no option found to get: " + key);
            }
        }
        return Replies.ok(out);
    }

    static BsonDocument getLog(CommandContext ctx, BsonDocument cmd) {
        BsonValue arg = cmd.get("getLog");
        if (arg.isString() && arg.asString().getValue().equals("*")) {
            return Replies.ok(new BsonDocument("names", new BsonArray(java.util.List.of(
                    new BsonString("global"), new BsonString("startupWarnings")))));
        }
        return Replies.ok(new BsonDocument("totalLinesWritten", new BsonInt32(0)).append("log", new BsonArray()));
    }

    /**
     * {@code aggregate: 1} on admin starting with {@code $currentOp} (what mongosh's {@code db.currentOp()} runs):
     * the operations as {@code currentOp} lists them ({@code idleConnections} as its {@code $all}), then the rest of
     * the pipeline; null for any other aggregate (the collection pipelines answer it).
     */
    static BsonDocument currentOpStage(CommandDispatcher d, CommandContext ctx, BsonDocument cmd) {
        BsonValue pipeline = cmd.get("pipeline");
        if (pipeline == null || !pipeline.isArray() || pipeline.asArray().isEmpty()
                || !(pipeline.asArray().get(0) instanceof BsonDocument first) || !first.containsKey("$currentOp")) {
            return null;
        }
        if (!ctx.database().equals("admin") || !cmd.get("aggregate").isNumber()) {
            throw new MongoError(ErrorCode.INVALID_NAMESPACE,
                    "$currentOp must be run against the 'admin' database with {aggregate: 1}");
        }
        BsonDocument spec = first.get("$currentOp").isDocument() ? first.getDocument("$currentOp") : new BsonDocument();
        // allUsers: false (the default) lists only the caller's operations, as mongod
        java.util.List<BsonDocument> ops = d.operations.list(Args.bool(spec, "idleConnections", false),
                HostInfo.hostname() + ":" + port(ctx), io.tetradb.mongo.auth.Privileges.allUsers(spec) ? null
                        : ctx.connection().sessionOwner());
        BsonArray rest = new BsonArray(pipeline.asArray().subList(1, pipeline.asArray().size()));
        java.util.Iterator<BsonDocument> results = new io.tetradb.mongo.aggregate.AggregationPipeline(rest).runOver(ops);
        java.util.List<BsonDocument> batch = new java.util.ArrayList<>();
        results.forEachRemaining(batch::add);
        return Replies.cursor("firstBatch", 0, "admin.$cmd.aggregate", batch);
    }

    /** The command's first-hello {@code client} metadata, kept for currentOp (drivers send it once per connection). */
    private static void rememberClient(CommandContext ctx, BsonDocument cmd) {
        if (cmd.get("client") instanceof BsonDocument client && ctx.connection().clientMetadata() == null) {
            ctx.connection().clientMetadata(client);
        }
    }

    private static String port(CommandContext ctx) {
        String me = ReplicaSet.me(ctx);
        return me.substring(me.lastIndexOf(':') + 1);
    }

    /** Every command this server answers, with MongoDB's per-command fields. */
    static BsonDocument listCommands(CommandDispatcher d) {
        BsonDocument commands = new BsonDocument();
        for (String name : d.commandNames()) {
            commands.append(name, new BsonDocument("help", new BsonString(""))
                    .append("requiresAuth", BsonBoolean.valueOf(!AuthCommands.OPEN.contains(
                            name.toLowerCase(java.util.Locale.ROOT))))
                    .append("secondaryOk", BsonBoolean.TRUE)
                    .append("adminOnly", BsonBoolean.valueOf(ADMIN_ONLY.contains(name)))
                    .append("apiVersions", new BsonArray())
                    .append("deprecatedApiVersions", new BsonArray()));
        }
        return Replies.ok(new BsonDocument("commands", commands));
    }

    private static final java.util.Set<String> ADMIN_ONLY = java.util.Set.of("listDatabases", "currentOp",
            "replSetGetStatus", "replSetGetConfig", "replSetInitiate", "getCmdLineOpts", "getParameter", "getLog",
            "hostInfo", "shardCollection", "enableSharding", "renameCollection", "killAllSessions");

    /** The options this process runs with, as mongod shows them: its replica set and port. */
    static BsonDocument getCmdLineOpts(CommandContext ctx) {
        return Replies.ok(new BsonDocument("argv", new BsonArray(java.util.List.of(new BsonString("tetradb"))))
                .append("parsed", new BsonDocument("net", new BsonDocument("port",
                        new BsonInt32(Integer.parseInt(port(ctx)))))
                        .append("replication", new BsonDocument("replSet", new BsonString(ReplicaSet.NAME)))));
    }

    static BsonDocument serverStatus(CommandContext ctx, BsonDocument cmd, CommandDispatcher d) {
        long now = System.currentTimeMillis();
        BsonDocument repl = new BsonDocument("isWritablePrimary", BsonBoolean.TRUE);
        ReplicaSet.describe(ctx, repl, topologyVersion());
        repl.append("rbid", new BsonInt32(1));
        return Replies.ok(new BsonDocument("host", new BsonString(HostInfo.hostname() + ":" + port(ctx)))
                .append("version", new BsonString(VERSION))
                .append("process", new BsonString("tetradb"))
                .append("pid", new BsonInt64(ProcessHandle.current().pid()))
                .append("uptime", new BsonDouble((now - STARTED) / 1000.0))
                .append("uptimeMillis", new BsonInt64(now - STARTED))
                .append("uptimeEstimate", new BsonInt64((now - STARTED) / 1000))
                .append("localTime", new BsonDateTime(now))
                .append("connections", d.operations.connectionsStatus())
                .append("mem", new BsonDocument("bits", new BsonInt32(64))
                        .append("resident", new BsonInt32((int) (ManagementFactory.getMemoryMXBean()
                                .getHeapMemoryUsage().getUsed() / (1024 * 1024))))
                        .append("supported", BsonBoolean.TRUE))
                .append("opcounters", d.opCounters.toDocument())
                .append("repl", repl)
                .append("storageEngine", new BsonDocument("name", new BsonString("tetradb"))
                        .append("supportsCommittedReads", BsonBoolean.TRUE)
                        .append("persistent", BsonBoolean.TRUE))
                .append("metrics", new BsonDocument("cursor", d.cursors().metrics(d.operations.pinnedCursors()))));
    }
}

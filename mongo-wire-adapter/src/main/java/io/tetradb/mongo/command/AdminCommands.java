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
import java.net.InetAddress;
import java.util.UUID;

/** Handshake, diagnostics and session commands: a standalone MongoDB 7.0 as drivers and shells expect it. */
final class AdminCommands {
    static final String VERSION = "7.0.0";
    private static final long STARTED = System.currentTimeMillis();

    private AdminCommands() {
    }

    static void register(CommandDispatcher d, AuthCommands auth) {
        d.register("hello", (ctx, cmd) -> {
            BsonDocument reply = hello(ctx, false);
            auth.hello(ctx, cmd, reply);
            return reply;
        });
        d.registerAnyCase("isMaster", (ctx, cmd) -> {
            BsonDocument reply = hello(ctx, true);
            auth.hello(ctx, cmd, reply);
            return reply;
        });
        d.registerAnyCase("buildInfo", (ctx, cmd) -> buildInfo());
        d.register("ping", (ctx, cmd) -> Replies.ok());
        d.register("getParameter", AdminCommands::getParameter);
        d.register("getLog", AdminCommands::getLog);
        d.register("getCmdLineOpts", (ctx, cmd) -> Replies.ok(new BsonDocument("argv",
                new BsonArray(java.util.List.of(new BsonString("tetradb")))).append("parsed", new BsonDocument())));
        d.register("hostInfo", (ctx, cmd) -> hostInfo());
        d.register("serverStatus", (ctx, cmd) -> serverStatus(ctx, cmd, d.opCounters));
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
        d.register("listCommands", (ctx, cmd) -> Replies.ok(new BsonDocument("commands", new BsonDocument())));
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

    /** The replica set this server describes itself as: one member, itself, always primary. */
    static final String SET_NAME = "tetradb";
    private static final org.bson.types.ObjectId PROCESS_ID = new org.bson.types.ObjectId();
    private static final org.bson.types.ObjectId ELECTION_ID = new org.bson.types.ObjectId("7fffffff0000000000000001");

    /**
     * Drivers run multi-document transactions only against a replica set member or mongos (the Java driver refuses
     * them on a standalone before sending anything), so this server answers as the primary of a one-member replica
     * set, as Azure Cosmos DB's Mongo API does ("globaldb"). The member is the address the client reached.
     */
    private static void replicaSetMember(CommandContext ctx, BsonDocument d) {
        String me = ctx.connection().local() != null ? ctx.connection().local() : "localhost:27017";
        d.append("setName", new BsonString(SET_NAME));
        d.append("setVersion", new BsonInt32(1));
        d.append("hosts", new BsonArray(java.util.List.of(new BsonString(me))));
        d.append("primary", new BsonString(me));
        d.append("me", new BsonString(me));
        d.append("secondary", BsonBoolean.FALSE);
        d.append("electionId", new org.bson.BsonObjectId(ELECTION_ID));
        d.append("topologyVersion", new BsonDocument("processId", new org.bson.BsonObjectId(PROCESS_ID))
                .append("counter", new BsonInt64(0)));
        long now = System.currentTimeMillis();
        BsonDocument opTime = new BsonDocument("ts", new org.bson.BsonTimestamp((int) (now / 1000), 1))
                .append("t", new BsonInt64(1));
        d.append("lastWrite", new BsonDocument("opTime", opTime).append("lastWriteDate", new BsonDateTime(now))
                .append("majorityOpTime", opTime).append("majorityWriteDate", new BsonDateTime(now)));
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

    static BsonDocument hostInfo() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            host = "localhost";
        }
        Runtime rt = Runtime.getRuntime();
        return Replies.ok(new BsonDocument("system", new BsonDocument("currentTime",
                new BsonDateTime(System.currentTimeMillis()))
                .append("hostname", new BsonString(host))
                .append("cpuAddrSize", new BsonInt32(64))
                .append("numCores", new BsonInt32(rt.availableProcessors()))
                .append("memSizeMB", new BsonInt64(rt.maxMemory() / (1024 * 1024))))
                .append("os", new BsonDocument("type", new BsonString(System.getProperty("os.name")))
                        .append("name", new BsonString(System.getProperty("os.name")))
                        .append("version", new BsonString(System.getProperty("os.version"))))
                .append("extra", new BsonDocument()));
    }

    static BsonDocument serverStatus(CommandContext ctx, BsonDocument cmd, OpCounters counters) {
        long now = System.currentTimeMillis();
        return Replies.ok(new BsonDocument("host", new BsonString("tetradb"))
                .append("opcounters", counters.toDocument())
                .append("version", new BsonString(VERSION))
                .append("process", new BsonString("tetradb"))
                .append("pid", new BsonInt64(ProcessHandle.current().pid()))
                .append("uptime", new BsonDouble((now - STARTED) / 1000.0))
                .append("uptimeMillis", new BsonInt64(now - STARTED))
                .append("localTime", new BsonDateTime(now))
                .append("connections", new BsonDocument("current", new BsonInt32(1)))
                .append("mem", new BsonDocument("bits", new BsonInt32(64))
                        .append("resident", new BsonInt64(ManagementFactory.getMemoryMXBean()
                                .getHeapMemoryUsage().getUsed() / (1024 * 1024))))
                .append("storageEngine", new BsonDocument("name", new BsonString("tetradb"))));
    }
}

package io.tetradb.mongo.command;

import io.tetradb.mongo.query.FilterMatcher;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The open connections and the commands running on them right now: what {@code currentOp} lists, and the
 * connection counts of {@code serverStatus}.
 */
final class Operations {
    /**
     * One command while it runs. {@link #kill} marks it (killOp, or a kill of its session); the command stops with
     * Interrupted at its next {@link Interruption#check()}, as mongod's operations do at their interrupt checks.
     */
    static final class Op {
        private final int opid;
        private final ConnectionState connection;
        private final String database;
        private final BsonDocument command;
        private final long startNanos;
        private final Operations registry;
        private volatile boolean killed;
        /** When its maxTimeMS runs out, on {@link #registry}'s clock; {@link MaxTime#NONE} without a limit. */
        private volatile long deadline = MaxTime.NONE;

        Op(int opid, ConnectionState connection, String database, BsonDocument command, long startNanos,
           Operations registry) {
            this.opid = opid;
            this.connection = connection;
            this.database = database;
            this.command = command;
            this.startNanos = startNanos;
            this.registry = registry;
        }

        int opid() {
            return opid;
        }

        ConnectionState connection() {
            return connection;
        }

        String database() {
            return database;
        }

        BsonDocument command() {
            return command;
        }

        long startNanos() {
            return startNanos;
        }

        void kill() {
            killed = true;
        }

        boolean killed() {
            return killed;
        }

        /** The command stops with MaxTimeMSExpired at its first check {@code millis} from now (0: no limit). */
        void expireAfter(long millis) {
            deadline = millis <= 0 ? MaxTime.NONE : registry.clock.millis() + millis;
        }

        /** What is left of its time limit, at least 0; {@link MaxTime#NONE} without one (a cursor keeps it). */
        long remainingMillis() {
            long d = deadline;
            return d == MaxTime.NONE ? MaxTime.NONE : Math.max(0, d - registry.clock.millis());
        }

        /** Gives the command {@code millis} more from now ({@link MaxTime#NONE}: no limit); a getMore's leftover. */
        void continueWith(long millis) {
            deadline = millis == MaxTime.NONE ? MaxTime.NONE : registry.clock.millis() + millis;
        }

        /** The session it runs in ({@code lsid.id}), or null. */
        BsonValue session() {
            return command.get("lsid") instanceof BsonDocument lsid ? lsid.get("id") : null;
        }

        /** Interrupted (11601) once killed, MaxTimeMSExpired (50) once out of time; nothing otherwise. */
        void checkInterrupt() {
            io.tetradb.core.cancel.StopReason reason = stopReason();
            if (reason == io.tetradb.core.cancel.StopReason.KILLED) {
                throw new MongoError(ErrorCode.INTERRUPTED, "operation was interrupted");
            }
            if (reason == io.tetradb.core.cancel.StopReason.TIME_LIMIT) {
                throw MaxTime.expired();
            }
        }

        /**
         * Killed, out of time, or null: what {@link #checkInterrupt} throws, and what the core polls inside one core
         * call (the command's {@link io.tetradb.core.cancel.StopSignal}, installed by {@link Interruption#enter}).
         */
        io.tetradb.core.cancel.StopReason stopReason() {
            java.util.function.Consumer<BsonDocument> hook = registry.checkpointHook;
            if (hook != null) {
                hook.accept(command);
            }
            if (killed) {
                return io.tetradb.core.cancel.StopReason.KILLED;
            }
            long d = deadline;
            if (d != MaxTime.NONE && registry.clock.millis() >= d) {
                return io.tetradb.core.cancel.StopReason.TIME_LIMIT;
            }
            return null;
        }
    }

    /** Called at every interrupt check with the running command (tests pause a command there); null in service. */
    volatile java.util.function.Consumer<BsonDocument> checkpointHook;

    /** Generic command arguments, not part of a currentOp filter. */
    private static final Set<String> NOT_FILTER = Set.of("currentOp", "$all", "$ownOps", "$db", "lsid", "comment",
            "$clusterTime", "$readPreference", "apiVersion", "apiStrict", "apiDeprecationErrors");

    /** What maxTimeMS deadlines are measured on (the cursors' clock; tests move it). */
    private final java.time.Clock clock;

    Operations(java.time.Clock clock) {
        this.clock = clock;
    }

    private final Map<Integer, ConnectionState> connections = new ConcurrentHashMap<>();
    private final Map<Integer, Op> running = new ConcurrentHashMap<>();
    private final AtomicInteger opids = new AtomicInteger();
    private final AtomicInteger totalCreated = new AtomicInteger();

    void opened(ConnectionState c) {
        connections.put(c.connectionId(), c);
        totalCreated.incrementAndGet();
    }

    void closed(ConnectionState c) {
        connections.remove(c.connectionId());
    }

    Op begin(ConnectionState connection, String database, BsonDocument command) {
        Op op = new Op(opids.incrementAndGet(), connection, database, command, System.nanoTime(), this);
        running.put(op.opid(), op);
        return op;
    }

    void end(Op op) {
        running.remove(op.opid());
    }

    /** The running operation {@code opid}, or null. */
    Op get(int opid) {
        return running.get(opid);
    }

    /**
     * Marks the running commands of the sessions {@code which} selects (by {@code lsid.id} and user) killed, except
     * {@code except} (the kill command itself); commands outside sessions are not touched, as on mongod.
     */
    void killSessions(java.util.function.BiPredicate<BsonValue, SessionOwner> which, Op except) {
        for (Op op : running.values()) {
            BsonValue session = op.session();
            if (op != except && session != null && which.test(session, op.connection().sessionOwner())) {
                op.kill();
            }
        }
    }

    /** How many getMores are reading their cursor right now (serverStatus' {@code metrics.cursor.open.pinned}). */
    long pinnedCursors() {
        return running.values().stream().filter(op -> !op.command().isEmpty()
                && op.command().getFirstKey().equals("getMore")).count();
    }

    BsonDocument connectionsStatus() {
        long active = running.values().stream().map(op -> op.connection().connectionId()).distinct().count();
        int current = connections.size();
        return new BsonDocument("current", new BsonInt32(current))
                .append("available", new BsonInt32(Math.max(0, MAX_CONNECTIONS - current)))
                .append("totalCreated", new BsonInt32(totalCreated.get()))
                .append("active", new BsonInt32((int) active));
    }

    /** MongoDB's default {@code net.maxIncomingConnections}. */
    private static final int MAX_CONNECTIONS = 1_000_000;

    /**
     * {@code currentOp}: the running commands (and, with {@code $all}, every idle connection too), each as MongoDB
     * describes it; the command's other fields filter them.
     */
    BsonDocument currentOp(CommandContext ctx, BsonDocument cmd, String host) {
        if (!ctx.database().equals("admin")) {
            throw new MongoError(ErrorCode.UNAUTHORIZED, "currentOp may only be run against the admin database.");
        }
        BsonDocument filterSpec = new BsonDocument();
        cmd.forEach((k, v) -> {
            if (!NOT_FILTER.contains(k)) {
                filterSpec.append(k, v);
            }
        });
        FilterMatcher filter = FilterMatcher.compile(filterSpec);
        BsonArray inprog = new BsonArray();
        boolean ownOps = cmd.get("$ownOps") instanceof BsonBoolean own && own.getValue();
        for (BsonDocument d : list(Args.bool(cmd, "$all", false), host,
                ownOps ? ctx.connection().sessionOwner() : null)) {
            if (filter.test(d)) {
                inprog.add(d);
            }
        }
        return Replies.ok(new BsonDocument("inprog", inprog));
    }

    /**
     * The running commands, and every idle connection too when {@code idleConnections}; only those of {@code only}'s
     * connections unless it is null ({@code $ownOps}, {@code allUsers: false}).
     */
    List<BsonDocument> list(boolean idleConnections, String host, SessionOwner only) {
        boolean all = idleConnections;
        List<BsonDocument> out = new ArrayList<>();
        Set<Integer> busy = new java.util.HashSet<>();
        long now = System.nanoTime();
        for (Op op : running.values()) {
            if (only != null && !only.equals(op.connection().sessionOwner())) {
                continue;
            }
            busy.add(op.connection().connectionId());
            BsonDocument d = describe(op.connection(), host, true);
            long micros = (now - op.startNanos()) / 1000;
            d.append("opid", new BsonInt32(op.opid()));
            if (op.command().get("lsid") instanceof BsonDocument lsid) {
                d.append("lsid", lsid);
            }
            d.append("secs_running", new BsonInt64(micros / 1_000_000))
                    .append("microsecs_running", new BsonInt64(micros))
                    .append("op", new BsonString(opType(op.command())))
                    .append("ns", new BsonString(namespace(op)))
                    .append("redacted", BsonBoolean.FALSE)
                    .append("command", shown(op.command()))
                    .append("numYields", new BsonInt32(0))
                    .append("locks", new BsonDocument())
                    .append("waitingForLock", BsonBoolean.FALSE)
                    .append("lockStats", new BsonDocument())
                    .append("waitingForFlowControl", BsonBoolean.FALSE)
                    .append("flowControlStats", new BsonDocument());
            out.add(d);
        }
        if (all) {
            for (ConnectionState c : connections.values()) {
                if (!busy.contains(c.connectionId()) && (only == null || only.equals(c.sessionOwner()))) {
                    out.add(describe(c, host, false));
                }
            }
        }
        return out;
    }

    private static BsonDocument describe(ConnectionState c, String host, boolean active) {
        BsonDocument d = new BsonDocument("type", new BsonString("op"))
                .append("host", new BsonString(host))
                .append("desc", new BsonString("conn" + c.connectionId()))
                .append("connectionId", new BsonInt32(c.connectionId()))
                .append("client", new BsonString(c.remote()));
        if (c.clientMetadata() != null) {
            if (c.clientMetadata().get("application") instanceof BsonDocument app
                    && app.get("name") instanceof BsonString name) {
                d.append("appName", name);
            }
            d.append("clientMetadata", c.clientMetadata());
        }
        d.append("active", BsonBoolean.valueOf(active))
                .append("currentOpTime", new BsonString(OffsetDateTime.now(ZoneOffset.UTC)
                        .format(DateTimeFormatter.ISO_OFFSET_DATE_TIME)));
        if (c.user() != null) {
            d.append("effectiveUsers", new BsonArray(List.of(new BsonDocument("user", new BsonString(c.user()))
                    .append("db", new BsonString(c.userDatabase())))));
        }
        return d;
    }

    private static final int MAX_SHOWN_COMMAND_BYTES = 1024;
    private static final org.bson.json.JsonWriterSettings SUMMARY = org.bson.json.JsonWriterSettings.builder()
            .maxLength(MAX_SHOWN_COMMAND_BYTES).build();

    /**
     * The command as currentOp shows it: a password ({@code createUser}/{@code updateUser}'s {@code pwd}) as
     * mongod's redaction writes it, {@code "xxx"}; a large one (an insert of many documents) as MongoDB's $truncated
     * summary.
     */
    static BsonDocument shown(BsonDocument command) {
        if (command.get("documents") instanceof BsonArray docs && !boundsHold(docs)) {
            // bounds-fold: an insert's documents are checked by the insert itself (CheckedInserts), which refuses a
            // broken one; until it does, currentOp shows that insert without them (mongod refuses invalid BSON as it
            // reads the message, so it never lists one) rather than failing on another client's bytes
            BsonDocument shown = new BsonDocument();
            command.forEach((k, v) -> shown.append(k, k.equals("documents") ? new BsonString("(invalid BSON)") : v));
            command = shown;
        }
        if (command.containsKey("pwd")) {
            command = command.clone();
            command.put("pwd", new BsonString("xxx"));
        }
        if (io.tetradb.mongo.store.MongoCollection.approxSize(command) <= MAX_SHOWN_COMMAND_BYTES) {
            return command;
        }
        return new BsonDocument("$truncated", new BsonString(command.toJson(SUMMARY)));
    }

    /** Whether every document of an insert's {@code documents} still in its unchecked wire bytes passes its check. */
    private static boolean boundsHold(BsonArray docs) {
        for (BsonValue d : docs) {
            if (d instanceof io.tetradb.mongo.bson.UncheckedRawDocument raw) {
                try {
                    raw.checked();
                } catch (MongoError broken) {
                    return false;
                }
            }
        }
        return true;
    }

    /** MongoDB's {@code op} of a command: "query" for find, "getmore", "insert", "update", "remove", else "command". */
    private static String opType(BsonDocument cmd) {
        String name = cmd.isEmpty() ? "" : cmd.getFirstKey();
        return switch (name) {
            case "find" -> "query";
            case "getMore" -> "getmore";
            case "insert" -> "insert";
            case "update" -> "update";
            case "delete" -> "remove";
            default -> "command";
        };
    }

    private static String namespace(Op op) {
        BsonValue first = op.command().isEmpty() ? null : op.command().get(op.command().getFirstKey());
        if (first instanceof BsonString coll && !op.command().getFirstKey().equals("currentOp")) {
            return op.database() + "." + coll.getValue();
        }
        if (op.command().get("collection") instanceof BsonString coll) {
            return op.database() + "." + coll.getValue(); // getMore
        }
        return op.database() + ".$cmd";
    }
}

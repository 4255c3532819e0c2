package io.tetradb.mongo.command;

import io.tetradb.core.StoreException;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosException;
import io.tetradb.mongo.store.MongoCatalog;
import org.bson.BsonDocument;
import org.bson.BsonInvalidOperationException;
import org.bson.BsonSerializationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Routes a command document to its handler by its first field's name and turns every failure into MongoDB's error
 * shape: {@link MongoError} as it is, store statuses by their meaning, anything unexpected as InternalError (logged).
 */
public final class CommandDispatcher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CommandDispatcher.class);

    private final Map<String, CommandHandler> handlers = new HashMap<>();
    /** Handshake commands drivers spell in several cases ({@code isMaster}, {@code ismaster}). */
    private final Map<String, CommandHandler> caseInsensitive = new HashMap<>();
    private final MongoCatalog catalog;
    private final Cursors cursors;

    private final AuthCommands auth;
    final OpCounters opCounters = new OpCounters();
    private final io.tetradb.mongo.txn.TransactionTable transactions = new io.tetradb.mongo.txn.TransactionTable();
    private final io.tetradb.mongo.changestream.ChangeStreamCommands changeStreams;

    public CommandDispatcher(CosmosClient client) {
        this(client, io.tetradb.mongo.auth.MongoUsers.none());
    }

    public CommandDispatcher(CosmosClient client, io.tetradb.mongo.auth.MongoUsers users) {
        this(client, users, CursorLimits.defaults());
    }

    /** With these bounds on open cursors. */
    public CommandDispatcher(CosmosClient client, io.tetradb.mongo.auth.MongoUsers users, CursorLimits cursorLimits) {
        this.catalog = new MongoCatalog(client.coreStore());
        this.cursors = new Cursors(cursorLimits);
        this.operations = new Operations(cursorLimits.clock()); // maxTimeMS deadlines: the cursors' clock
        this.changeStreams = new io.tetradb.mongo.changestream.ChangeStreamCommands(catalog);
        io.tetradb.mongo.store.IndexCatalog indexes = new io.tetradb.mongo.store.IndexCatalog(catalog);
        io.tetradb.mongo.auth.UserDirectory directory = new io.tetradb.mongo.auth.UserDirectory(users, catalog);
        this.auth = new AuthCommands(directory);
        auth.register(this);
        new UserCommands(directory).register(this);
        AdminCommands.register(this, auth);
        DatabaseCommands databases = new DatabaseCommands(catalog, indexes);
        databases.onUsersChanged(directory::reload);
        databases.listedDatabases((ctx, cmd) -> auth.listedDatabases(ctx.connection(), cmd));
        databases.register(this);
        new ReadCommands(catalog, indexes, cursors, databases).register(this);
        new WriteCommands(catalog, indexes).register(this);
        new IndexCommands(catalog, indexes).register(this);
        new CollectionOptionsCommands(catalog, indexes).register(this);
        new CustomActionCommands(catalog).register(this); // Cosmos DB's throughput commands
        TransactionCommands.register(this, transactions);
        CommandHandler aggregate = handlers.get("aggregate"); // $currentOp on admin, else the collection pipelines
        register("aggregate", (ctx, cmd) -> {
            if (io.tetradb.mongo.changestream.ChangeStreamCommands.isChangeStream(cmd)) {
                BsonDocument reply = changeStreams.aggregate(ctx.database(), cmd, ctx::charge);
                if (reply.get("cursor") instanceof BsonDocument c && c.get("id") instanceof org.bson.BsonInt64 id) {
                    changeStreams.own(id.getValue(), ctx.connection().sessionOwner(), sessionOf(cmd));
                }
                return reply;
            }
            BsonDocument currentOp = AdminCommands.currentOpStage(this, ctx, cmd);
            return currentOp != null ? currentOp : aggregate.run(ctx, cmd);
        });
        // change stream cursors are the change streams' own; every other cursor id goes on to ReadCommands
        // a cursor is its opener's: another user's getMore or killCursors is refused first
        CursorOwnership ownership = new CursorOwnership(cursors, changeStreams, auth);
        CommandHandler getMore = handlers.get("getMore");
        register("getMore", (ctx, cmd) -> {
            ownership.checkGetMore(ctx, cmd);
            return changeStreams.owns(cmd.get("getMore"))
                    ? changeStreams.getMore(ctx.database(), cmd, ctx::charge) : getMore.run(ctx, cmd);
        });
        CommandHandler killCursors = handlers.get("killCursors");
        register("killCursors", (ctx, cmd) -> {
            ownership.checkKill(ctx, cmd);
            if (!cmd.isArray("cursors")) {
                return killCursors.run(ctx, cmd);
            }
            java.util.List<Long> streams = changeStreams.kill(cmd.getArray("cursors"));
            BsonDocument rest = cmd.clone();
            rest.getArray("cursors").removeIf(v -> v.isNumber() && streams.contains(v.asNumber().longValue()));
            BsonDocument reply = killCursors.run(ctx, rest);
            if (reply.isArray("cursorsKilled")) {
                streams.forEach(id -> reply.getArray("cursorsKilled").add(new org.bson.BsonInt64(id)));
            }
            return reply;
        });
        // a session (lsid.id and its user) ends with its cursors and transaction; a kill interrupts its commands too
        SessionEnding ending = new SessionEnding(cursors, changeStreams, transactions, operations);
        this.sessions = new SessionCommands(ending, auth);
        sessions.register(this);
        KillOpCommand.register(this, operations, auth);
        // every session, or those of some users (the user that started each is kept with its cursors and transaction)
        SessionKills kills = new SessionKills(ending, auth.directory(), auth::enabled);
        register("killAllSessions", (ctx, cmd) -> kills.killAllSessions(cmd));
        register("killAllSessionsByPattern", (ctx, cmd) -> kills.killAllSessionsByPattern(cmd));
    }

    /** Closes cursors idle past their timeout (the server calls this every few seconds). */
    public void expireIdleCursors() {
        cursors.expireIdle();
    }

    /** The names of every command this server answers (listCommands). */
    java.util.SortedSet<String> commandNames() {
        java.util.SortedSet<String> names = new java.util.TreeSet<>(handlers.keySet());
        names.addAll(anyCaseNames);
        return names;
    }

    void register(String name, CommandHandler handler) {
        handlers.put(name, handler);
    }

    private final java.util.Set<String> anyCaseNames = new java.util.HashSet<>();

    void registerAnyCase(String name, CommandHandler handler) {
        anyCaseNames.add(name);
        caseInsensitive.put(name.toLowerCase(Locale.ROOT), handler);
    }

    /**
     * How long to hold {@code command} before answering it (a driver monitor's awaitable hello), or -1 to answer it
     * when it has run.
     */
    public long holdMillis(BsonDocument command) {
        return AdminCommands.awaitableHelloMillis(command);
    }

    /** True when {@code db.name} was opened in this process (see {@link MongoCatalog#isOpen}). */
    public boolean collectionOpen(String db, String name) {
        return catalog.isOpen(db, name);
    }

    final Operations operations;
    private final SessionCommands sessions;

    /**
     * Calls {@code hook} with the running command at every interrupt check ({@link Interruption}), on the thread
     * running it; null removes it. For tests that pause a command where a kill would stop it.
     */
    public void checkpointHook(java.util.function.Consumer<BsonDocument> hook) {
        operations.checkpointHook = hook;
    }

    /** Set for a face bound beyond loopback: without users, only MongoDB's localhost exception applies. */
    private volatile boolean credentialsRequired;

    /** Requires credentials (MongoDB's {@code security.authorization: enabled}) even while no user exists. */
    public void requireCredentials(boolean required) {
        this.credentialsRequired = required;
    }

    Cursors cursors() {
        return cursors;
    }

    /** Runs one command for {@code connection} against {@code database}; always returns a reply document. */
    public BsonDocument run(ConnectionState connection, String database, BsonDocument command) {
        Operations.Op op = operations.begin(connection, database, command); // what currentOp lists
        Operations.Op outer = Interruption.enter(op); // what a kill of it marks, where the command checks
        try {
            return execute(connection, database, command);
        } finally {
            Interruption.leave(outer);
            operations.end(op);
        }
    }

    private BsonDocument execute(ConnectionState connection, String database, BsonDocument command) {
        String name = command.isEmpty() ? "" : command.getFirstKey();
        CommandHandler handler = handlers.get(name);
        if (handler == null) {
            handler = caseInsensitive.get(name.toLowerCase(Locale.ROOT));
        }
        if (handler == null) {
            return Replies.error(ErrorCode.COMMAND_NOT_FOUND, "no such command: '" + name + "'", null);
        }
        opCounters.count(name, command);
        CommandContext ctx = new CommandContext(connection, database);
        ctx.unjournaled(WriteConcerns.unjournaled(command));
        if (credentialsRequired && !auth.enabled()) { // no user (yet, or any more) on a face bound beyond loopback
            String refused = io.tetradb.mongo.auth.LocalhostException.refusal(connection.loopbackPeer(),
                    AuthCommands.OPEN.contains(name.toLowerCase(Locale.ROOT)), database, name, command);
            if (refused != null) {
                return Replies.error(ErrorCode.UNAUTHORIZED, refused, null);
            }
        }
        if (auth.enabled() && connection.user() == null && !AuthCommands.OPEN.contains(name.toLowerCase(Locale.ROOT))) {
            return Replies.error(ErrorCode.UNAUTHORIZED, "Command " + name + " requires authentication", null);
        }
        if (auth.enabled() && connection.user() != null) { // the user's built-in roles, per command
            String refused = auth.refusal(connection, database, name, command);
            if (refused != null) {
                return Replies.error(ErrorCode.UNAUTHORIZED, refused, null);
            }
        }
        io.tetradb.mongo.txn.Transaction txn = null;
        SessionOwner owner = connection.sessionOwner();
        try {
            if (command.get("lsid") instanceof BsonDocument lsid && lsid.containsKey("uid")) {
                // a session is the caller's own: naming another user's digest is refused (killSessions checks its own)
                sessions.checkUid(connection, lsid, false);
            }
            long maxTime = MaxTime.millis(command); // BadValue for a malformed one, whatever the command
            if (!name.equals("getMore")) { // a getMore's limit is its cursor's (MaxTime)
                Interruption.current().expireAfter(maxTime);
            }
            if (!TransactionCommands.NAMES.contains(name)) {
                txn = transactions.forCommand(command, owner);
                ctx.transaction(txn);
            }
            BsonDocument reply;
            Cursors.Owner previous = Cursors.enter(new Cursors.Owner(connection.connectionId(), sessionOf(command),
                    connection::closed, owner, txn == null ? null : txn.txnNumber()));
            try {
                reply = handler.run(ctx, command);
            } finally {
                Cursors.leave(previous);
            }
            if (txn != null && reply.containsKey("writeErrors")) {
                TransactionCommands.abortAfterError(transactions, command, owner); // as MongoDB: a failed write ends it
            }
            if (!name.equals("getLastRequestStatistics")) {
                connection.lastRequest(name, ctx.requestCharge());
            }
            return SharedEngineUnavailable.promote(name, reply, command); // a write batch that did nothing, retriable
        } catch (io.tetradb.mongo.txn.TransactionError e) {
            if (txn != null) {
                TransactionCommands.abortAfterError(transactions, command, owner);
            }
            return Replies.error(e.code(), e.getMessage(), e.extra());
        } catch (MongoError e) {
            connection.lastRequest(name, ctx.requestCharge());
            return Replies.error(e.code(), e.getMessage(), e.extra());
        } catch (StoreException e) {
            MongoError m = MongoErrors.of(e);
            if (e instanceof io.tetradb.core.storage.StorageUnavailableException) { // nothing done: mongod's labels
                if (txn != null) {
                    TransactionCommands.abortAfterError(transactions, command, owner);
                }
                return Replies.error(m.code(), m.getMessage(), SharedEngineUnavailable.labels(command));
            }
            return Replies.error(m.code(), m.getMessage(), null);
        } catch (CosmosException e) {
            return Replies.error(codeFor(e.getStatusCode()), e.getMessage(), null);
        } catch (BsonInvalidOperationException | ClassCastException e) {
            return Replies.error(ErrorCode.TYPE_MISMATCH, "command " + name + ": a field has the wrong type ("
                    + e.getMessage() + ")", null);
        } catch (BsonSerializationException | IllegalArgumentException e) {
            return Replies.error(ErrorCode.BAD_VALUE, "command " + name + ": " + e.getMessage(), null);
        } catch (RuntimeException | StackOverflowError e) {
            LOG.warn("command {} failed", name, e); // a pattern with arguments: repeats limited per pattern
            return Replies.error(ErrorCode.INTERNAL_ERROR, "command " + name + " failed: " + e, null);
        }
    }

    static ErrorCode codeFor(int status) {
        return MongoErrors.codeFor(status);
    }

    public void connectionOpened(ConnectionState connection) {
        operations.opened(connection);
    }

    public void connectionClosed(ConnectionState connection) {
        connection.markClosed(); // before the sweep: a command still queued on it then opens no cursor to leak
        operations.closed(connection);
        // a session's cursors outlive the connection (a driver continues them on another pooled connection)
        cursors.connectionClosed(connection.connectionId());
    }

    /** The session a command runs in ({@code lsid.id}), or null. */
    private static org.bson.BsonValue sessionOf(BsonDocument command) {
        org.bson.BsonValue lsid = command.get("lsid");
        return lsid instanceof BsonDocument d ? d.get("id") : null;
    }

    @Override
    public void close() {
        cursors.closeAll();
        changeStreams.closeAll();
    }
}

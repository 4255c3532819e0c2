package io.tetradb.mongo.command;

import io.tetradb.mongo.auth.UserDirectory;
import io.tetradb.mongo.auth.ScramConversation;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.util.List;
import java.util.Set;

/**
 * SCRAM-SHA-256 authentication ({@code saslStart}, {@code saslContinue}, {@code speculativeAuthenticate} in the
 * handshake) when users are configured; then every command but the handshake and a few harmless ones needs an
 * authenticated connection (13 Unauthorized otherwise).
 */
final class AuthCommands {
    static final String MECHANISM = "SCRAM-SHA-256";
    /** What a connection may run before it authenticates (as MongoDB allows). */
    static final Set<String> OPEN = Set.of("hello", "ismaster", "saslstart", "saslcontinue", "ping", "buildinfo",
            "endsessions", "logout", "getnonce");

    private final UserDirectory users;

    AuthCommands(UserDirectory users) {
        this.users = users;
    }

    UserDirectory directory() {
        return users;
    }

    boolean enabled() {
        return !users.isEmpty();
    }

    /**
     * The databases {@code listDatabases} may show this connection, as MongoDB's {@code authorizedDatabases} decides:
     * null for every database (no authentication, or a user with the listDatabases action who did not ask for the
     * filter), else the databases the user holds a role on; 13 when {@code authorizedDatabases: false} is asked for
     * without the action.
     */
    java.util.function.Predicate<String> listedDatabases(ConnectionState connection, BsonDocument command) {
        if (!enabled() || connection.user() == null) {
            return null;
        }
        java.util.List<io.tetradb.mongo.auth.Privileges.Grant> grants =
                users.grants(connection.userDatabase(), connection.user());
        boolean mayListAll = io.tetradb.mongo.auth.Privileges.mayListAllDatabases(grants);
        org.bson.BsonValue asked = command.get("authorizedDatabases");
        if (asked != null && asked.isBoolean() && !asked.asBoolean().getValue()) {
            if (!mayListAll) {
                throw new MongoError(ErrorCode.UNAUTHORIZED,
                        "not authorized on admin to execute command { listDatabases: 1, authorizedDatabases: false }");
            }
            return null;
        }
        if (mayListAll && (asked == null || !asked.isBoolean())) {
            return null;
        }
        java.util.Set<String> held = new java.util.HashSet<>();
        grants.forEach(g -> held.add(g.db()));
        return held::contains;
    }

    /**
     * Whether the connection may act on the cluster with {@code action} (killing others' cursors, sessions and
     * operations): always without authorization, never unauthenticated, else as the user's roles grant it.
     */
    boolean allowsOnCluster(ConnectionState connection, io.tetradb.mongo.auth.Privileges.Action action) {
        if (!enabled()) {
            return true;
        }
        return connection.user() != null && io.tetradb.mongo.auth.Privileges.allows(
                users.grants(connection.userDatabase(), connection.user()), action, UserDirectory.DATABASE);
    }

    /** Why the connection's user may not run {@code command} on {@code database} (its roles), or null. */
    String refusal(ConnectionState connection, String database, String name, BsonDocument command) {
        java.util.List<io.tetradb.mongo.auth.Privileges.Grant> grants =
                users.grants(connection.userDatabase(), connection.user());
        return io.tetradb.mongo.auth.Privileges.refusal(grants, connection.user(), connection.userDatabase(),
                database, name, command);
    }

    void register(CommandDispatcher d) {
        d.register("saslStart", this::saslStart);
        d.register("saslContinue", this::saslContinue);
        d.register("logout", (ctx, cmd) -> {
            ctx.connection().user(null, null);
            return Replies.ok();
        });
    }

    /** The stored roles of the connection's user (none for a user the server was started with). */
    BsonArray rolesOf(CommandContext ctx) {
        String user = ctx.connection().user();
        BsonDocument doc = user == null ? null : users.get(ctx.connection().userDatabase(), user);
        return doc == null ? new BsonArray() : doc.getArray("roles", new BsonArray());
    }

    /** Adds to a hello reply what the client asked about authentication. */
    void hello(CommandContext ctx, BsonDocument cmd, BsonDocument reply) {
        if (!enabled()) {
            return;
        }
        if (cmd.get("saslSupportedMechs") instanceof BsonString) {
            reply.append("saslSupportedMechs", new BsonArray(List.of(new BsonString(MECHANISM))));
        }
        if (cmd.get("speculativeAuthenticate") instanceof BsonDocument spec
                && MECHANISM.equals(spec.getString("mechanism", new BsonString("")).getValue())) {
            try {
                // hello runs on admin; the speculative exchange names the user's database (authSource) itself
                String db = spec.getString("db", new BsonString(ctx.database())).getValue();
                reply.append("speculativeAuthenticate", saslStart(new CommandContext(ctx.connection(), db), spec));
            } catch (MongoError failed) {
                // a failed speculative attempt is simply not answered: the client authenticates normally
            }
        }
    }

    private BsonDocument saslStart(CommandContext ctx, BsonDocument cmd) {
        if (!enabled()) {
            throw new MongoError(ErrorCode.AUTHENTICATION_FAILED, "no users are configured on this server");
        }
        String mechanism = cmd.getString("mechanism", new BsonString("")).getValue();
        if (!MECHANISM.equals(mechanism)) {
            throw new MongoError(ErrorCode.BAD_VALUE, "Received authentication for mechanism " + mechanism
                    + " which is not enabled; this server supports " + MECHANISM);
        }
        ScramConversation conversation = new ScramConversation(users, ctx.database());
        byte[] serverFirst = conversation.start(payload(cmd));
        ctx.connection().conversation(conversation);
        return Replies.ok(new BsonDocument("conversationId", new BsonInt32(1)).append("done", BsonBoolean.FALSE)
                .append("payload", new BsonBinary(serverFirst)));
    }

    private BsonDocument saslContinue(CommandContext ctx, BsonDocument cmd) {
        ScramConversation conversation = ctx.connection().conversation();
        if (conversation == null) {
            throw new MongoError(ErrorCode.AUTHENTICATION_FAILED, "No SASL session state found");
        }
        if (conversation.complete()) {
            // the empty last step of clients that do not skip it
            ctx.connection().conversation(null);
            return Replies.ok(new BsonDocument("conversationId", new BsonInt32(1)).append("done", BsonBoolean.TRUE)
                    .append("payload", new BsonBinary(new byte[0])));
        }
        byte[] serverFinal;
        try {
            serverFinal = conversation.finish(payload(cmd));
        } catch (MongoError e) {
            ctx.connection().conversation(null);
            throw e;
        }
        ctx.connection().user(conversation.user(), conversation.database());
        // MongoDB skips the empty exchange by default since 4.4 (the client may ask for it: skipEmptyExchange)
        return Replies.ok(new BsonDocument("conversationId", new BsonInt32(1)).append("done", BsonBoolean.TRUE)
                .append("payload", new BsonBinary(serverFinal)));
    }

    private static byte[] payload(BsonDocument cmd) {
        BsonValue p = cmd.get("payload");
        if (p instanceof BsonBinary b) {
            return b.getData();
        }
        if (p instanceof BsonString s) {
            return java.util.Base64.getDecoder().decode(s.getValue());
        }
        throw new MongoError(ErrorCode.BAD_VALUE, "SASL payload must be binary");
    }
}

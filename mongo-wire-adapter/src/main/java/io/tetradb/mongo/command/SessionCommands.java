package io.tetradb.mongo.command;

import io.tetradb.mongo.auth.Privileges;
import org.bson.BsonBinary;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiPredicate;

/**
 * {@code endSessions} and {@code killSessions}, of the caller's own sessions as mongod 7.0 runs them: a session is
 * its {@code lsid.id} with the caller's user, so naming another user's {@code lsid.id} reaches nothing of theirs.
 * {@code killSessions: []} kills all of the caller's sessions (every session when authorization is off, as mongod's
 * {@code patternsForLoggedInUser}); a kill also interrupts the sessions' running commands. An lsid may carry a
 * {@code uid} only if it is the caller's own (or the caller may kill any session, for {@code killSessions}): else 13
 * "Unauthorized to set user digest in LogicalSessionId", mongod's check for every command that names a session.
 */
final class SessionCommands {
    static final String FOREIGN_UID = "Unauthorized to set user digest in LogicalSessionId";

    private final SessionEnding ending;
    private final AuthCommands auth;

    SessionCommands(SessionEnding ending, AuthCommands auth) {
        this.ending = ending;
        this.auth = auth;
    }

    void register(CommandDispatcher d) {
        d.register("endSessions", (ctx, cmd) -> {
            ending.end(sessions(ctx, cmd.get("endSessions"), false));
            return Replies.ok();
        });
        d.register("killSessions", (ctx, cmd) -> {
            BsonValue list = cmd.get("killSessions");
            if (list instanceof org.bson.BsonArray a && a.isEmpty()) {
                SessionOwner caller = ctx.connection().sessionOwner();
                ending.kill(auth.enabled() ? (id, owner) -> owner.equals(caller) : (id, owner) -> true);
            } else {
                ending.kill(sessions(ctx, list, true));
            }
            return Replies.ok();
        });
    }

    /**
     * Refuses a command whose {@code lsid} names another user's digest ({@code uid}) when authorization is on;
     * {@code mayImpersonate}: the caller may name any user's sessions (killAnySession, for killSessions).
     */
    void checkUid(ConnectionState connection, BsonDocument lsid, boolean mayImpersonate) {
        if (!(lsid.get("uid") instanceof BsonBinary uid) || !auth.enabled() || mayImpersonate) {
            return;
        }
        if (!Arrays.equals(uid.getData(), connection.sessionOwner().uid())) {
            throw new MongoError(ErrorCode.UNAUTHORIZED, FOREIGN_UID);
        }
    }

    /** The sessions a list of lsids names: each {@code id} of the caller, or of the user whose digest it carries. */
    private BiPredicate<BsonValue, SessionOwner> sessions(CommandContext ctx, BsonValue list, boolean kill) {
        List<BiPredicate<BsonValue, SessionOwner>> named = new ArrayList<>();
        if (list instanceof org.bson.BsonArray array) {
            SessionOwner caller = ctx.connection().sessionOwner();
            boolean anyUser = kill && auth.allowsOnCluster(ctx.connection(), Privileges.Action.KILL_ANY);
            for (BsonValue v : array) {
                if (!(v instanceof BsonDocument lsid) || lsid.get("id") == null) {
                    continue;
                }
                checkUid(ctx.connection(), lsid, anyUser);
                BsonValue id = lsid.get("id");
                if (lsid.get("uid") instanceof BsonBinary uid) {
                    byte[] digest = uid.getData();
                    named.add((s, owner) -> id.equals(s) && Arrays.equals(digest, owner.uid()));
                } else {
                    named.add((s, owner) -> id.equals(s) && owner.equals(caller));
                }
            }
        }
        return (s, owner) -> named.stream().anyMatch(p -> p.test(s, owner));
    }
}

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

    /**
     * The sessions a list of lsids names: each {@code id} of the caller, or of the user whose digest it carries. The
     * list is parsed whole first, as mongod's IDL parser does ({@code EndSessionsCmdFromClient},
     * {@code KillSessionsCmdFromClient}): an entry that is not a document (14), without {@code id} (40414), with
     * an {@code id} that is not a UUID (14) or a {@code uid} that is not a 32-byte digest (14, 342), or with another
     * field (40415) fails the command and ends nothing. Without authorization every session is the one
     * unauthenticated user's, so an entry's {@code uid} names no other sessions (see {@link CommandDispatcher}).
     */
    private BiPredicate<BsonValue, SessionOwner> sessions(CommandContext ctx, BsonValue list, boolean kill) {
        String command = kill ? "killSessions" : "endSessions";
        String type = kill ? "KillSessionsCmdFromClient" : "EndSessionsCmdFromClient";
        if (!(list instanceof org.bson.BsonArray array)) {
            throw LsidFields.wrongType(type + "." + command, list, "array");
        }
        List<BiPredicate<BsonValue, SessionOwner>> named = new ArrayList<>();
        SessionOwner caller = ctx.connection().sessionOwner();
        boolean anyUser = kill && auth.allowsOnCluster(ctx.connection(), Privileges.Action.KILL_ANY);
        String entryPath = type + "." + command;
        for (int i = 0; i < array.size(); i++) {
            BsonValue v = array.get(i);
            if (!(v instanceof BsonDocument lsid)) {
                throw LsidFields.wrongType(entryPath + "." + i, v, "object");
            }
            LsidFields.check(entryPath, lsid);
            checkUid(ctx.connection(), lsid, anyUser);
            BsonValue id = lsid.get("id");
            if (auth.enabled() && lsid.get("uid") instanceof BsonBinary uid) {
                byte[] digest = uid.getData();
                named.add((s, owner) -> id.equals(s) && Arrays.equals(digest, owner.uid()));
            } else {
                named.add((s, owner) -> id.equals(s) && owner.equals(caller));
            }
        }
        return (s, owner) -> named.stream().anyMatch(p -> p.test(s, owner));
    }
}

package io.tetradb.mongo.command;

import io.tetradb.mongo.auth.Privileges;
import io.tetradb.mongo.changestream.ChangeStreamCommands;
import org.bson.BsonDocument;
import org.bson.BsonValue;

/**
 * A cursor belongs to the user that opened it, as on mongod: {@code getMore} of another user's cursor is 13 "cursor
 * id N was not created by the authenticated user" (the cursor stays as it was, so its owner reads on), and
 * {@code killCursors} naming one is 13 "not authorized to kill cursor on DB.COLL" for the whole command (nothing is
 * killed) unless the caller may kill any cursor (killAnyCursor: hostManager, clusterAdmin, root). Covers the find
 * and aggregate cursors and the change streams. Without authorization every cursor is everyone's.
 */
final class CursorOwnership {
    private final Cursors cursors;
    private final ChangeStreamCommands changeStreams;
    private final AuthCommands auth;

    CursorOwnership(Cursors cursors, ChangeStreamCommands changeStreams, AuthCommands auth) {
        this.cursors = cursors;
        this.changeStreams = changeStreams;
        this.auth = auth;
    }

    /**
     * Before a getMore: refused when the cursor is another user's, then when it is sent in another session than the
     * cursor was opened in (an unknown cursor is the handler's 43). The user comes first so that the session refusal,
     * which names the cursor's session as mongod's does, is only ever shown to the cursor's own user.
     */
    void checkGetMore(CommandContext ctx, BsonDocument cmd) {
        BsonValue id = cmd.get("getMore");
        SessionOwner owner = ownerOf(id);
        if (owner == null) {
            return;
        }
        SessionOwner caller = ctx.connection().sessionOwner();
        if (!owner.equals(caller)) {
            throw new MongoError(ErrorCode.UNAUTHORIZED, "cursor id " + id.asNumber().longValue()
                    + " was not created by the authenticated user");
        }
        long n = id.asNumber().longValue();
        Cursors.Owner opened = cursors.openedBy(n);
        if (opened != null) {
            CursorSessions.check(n, opened.session(), owner, cmd);
            CursorSessions.checkTxnNumber(n, opened.txnNumber(), cmd);
        } else if (changeStreams.owns(id)) {
            CursorSessions.check(n, changeStreams.sessionOf(n), owner, cmd);
            CursorSessions.checkTxnNumber(n, null, cmd); // a change stream is never opened in a transaction
        }
    }

    /** Before a killCursors: refused as a whole when one of its cursors is another user's. */
    void checkKill(CommandContext ctx, BsonDocument cmd) {
        if (!cmd.isArray("cursors")) {
            return; // the handler answers the malformed command
        }
        SessionOwner caller = ctx.connection().sessionOwner();
        for (BsonValue id : cmd.getArray("cursors")) {
            SessionOwner owner = ownerOf(id);
            if (owner != null && !owner.equals(caller)
                    && !auth.allowsOnCluster(ctx.connection(), Privileges.Action.KILL_ANY)) {
                BsonValue coll = cmd.get("killCursors");
                throw new MongoError(ErrorCode.UNAUTHORIZED, "not authorized to kill cursor on " + ctx.database()
                        + "." + (coll != null && coll.isString() ? coll.asString().getValue() : coll));
            }
        }
    }

    private SessionOwner ownerOf(BsonValue id) {
        if (id == null || !(id.isInt64() || id.isInt32())) {
            return null;
        }
        long n = id.asNumber().longValue();
        SessionOwner owner = cursors.ownerOf(n);
        return owner != null ? owner : changeStreams.ownerOf(n);
    }
}

package io.tetradb.mongo.command;

import io.tetradb.mongo.auth.Privileges;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.BsonValue;

/**
 * {@code killOp: 1, op: <opid>} on admin, as mongod 7.0 answers it: {@code {info: "attempting to kill op", ok: 1}},
 * the operation (an {@code opid} of {@code currentOp}) marked so it stops with Interrupted (11601) at its next
 * {@link Interruption#check()}. Any authenticated user may kill their own operations; others' need killop
 * (hostManager, clusterAdmin, root), else 13 "Unauthorized" — also for an opid that does not exist, as mongod cannot
 * tell the caller it is not theirs. With killop, an unknown opid is answered all the same.
 */
final class KillOpCommand {
    private KillOpCommand() {
    }

    static void register(CommandDispatcher d, Operations operations, AuthCommands auth) {
        d.register("killOp", (ctx, cmd) -> {
            if (!ctx.database().equals("admin")) {
                throw new MongoError(ErrorCode.UNAUTHORIZED, "killOp may only be run against the admin database.");
            }
            long opid = opid(cmd);
            Operations.Op op = operations.get((int) opid);
            if (!auth.allowsOnCluster(ctx.connection(), Privileges.Action.KILL_ANY)
                    && (op == null || ctx.connection().user() == null
                    || !op.connection().sessionOwner().equals(ctx.connection().sessionOwner()))) {
                throw new MongoError(ErrorCode.UNAUTHORIZED, "Unauthorized");
            }
            if (op != null) {
                op.kill();
            }
            return new BsonDocument("info", new BsonString("attempting to kill op")).append("ok",
                    new org.bson.BsonDouble(1));
        });
    }

    /** mongod's parse: a number of 32 bits (opids wrap to negative past 2^31 − 1). */
    private static long opid(BsonDocument cmd) {
        BsonValue v = cmd.get("op");
        if (v == null) {
            throw new MongoError(ErrorCode.NO_SUCH_KEY, "Missing expected field \"op\"");
        }
        if (!v.isNumber()) {
            throw new MongoError(ErrorCode.TYPE_MISMATCH, "Expected field \"op\" to have numeric type, but found "
                    + io.tetradb.mongo.bson.BsonTypeNames.name(v));
        }
        long op = v.asNumber().longValue();
        if (op < Integer.MIN_VALUE || op > Integer.MAX_VALUE) {
            throw new MongoError(ErrorCode.LOCATION_26823, "invalid op : " + op
                    + ". Op ID cannot be represented with 32 bits");
        }
        return op;
    }
}

package io.tetradb.mongo.command;

import io.tetradb.mongo.txn.TransactionError;
import io.tetradb.mongo.txn.TransactionTable;
import org.bson.BsonDocument;

import java.util.Set;

/**
 * commitTransaction and abortTransaction, of the caller's own session ({@code lsid.id} and its user: another user's
 * session of the same id is not found, 251). The transactions themselves live in {@link TransactionTable}; the
 * dispatcher attaches each command with {@code autocommit: false} to its session's transaction; the session commands
 * that end transactions are {@link SessionCommands}.
 */
final class TransactionCommands {
    /** Commands that name a transaction without running inside it. */
    static final Set<String> NAMES = Set.of("commitTransaction", "abortTransaction");

    private TransactionCommands() {
    }

    static void register(CommandDispatcher d, TransactionTable transactions) {
        d.register("commitTransaction", (ctx, cmd) -> {
            transactions.commit(cmd, ctx.connection().sessionOwner());
            return Replies.ok();
        });
        d.register("abortTransaction", (ctx, cmd) -> {
            transactions.abort(cmd, ctx.connection().sessionOwner());
            return Replies.ok();
        });
    }

    /** Aborts the transaction {@code command} of {@code owner} ran in after it failed (nothing of it is applied). */
    static void abortAfterError(TransactionTable transactions, BsonDocument command, SessionOwner owner) {
        try {
            transactions.abort(command, owner);
        } catch (TransactionError alreadyOver) {
            // already aborted (or committed): nothing to discard
        }
    }
}

package io.tetradb.mongo.command;

import io.tetradb.mongo.txn.TransactionError;
import io.tetradb.mongo.txn.TransactionTable;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.Set;

/**
 * commitTransaction, abortTransaction, and the session commands that end transactions (endSessions,
 * killSessions). The transactions themselves live in {@link TransactionTable}; the dispatcher attaches each
 * command with {@code autocommit: false} to its session's transaction.
 */
final class TransactionCommands {
    /** Commands that name a transaction without running inside it. */
    static final Set<String> NAMES = Set.of("commitTransaction", "abortTransaction");

    private TransactionCommands() {
    }

    static void register(CommandDispatcher d, TransactionTable transactions) {
        d.register("commitTransaction", (ctx, cmd) -> {
            transactions.commit(cmd);
            return Replies.ok();
        });
        d.register("abortTransaction", (ctx, cmd) -> {
            transactions.abort(cmd);
            return Replies.ok();
        });
        d.register("endSessions", (ctx, cmd) -> endSessions(transactions, cmd.get("endSessions")));
        d.register("killSessions", (ctx, cmd) -> endSessions(transactions, cmd.get("killSessions")));
    }

    private static BsonDocument endSessions(TransactionTable transactions, BsonValue ids) {
        if (ids != null && ids.isArray()) {
            for (BsonValue id : ids.asArray()) {
                if (id.isDocument()) {
                    transactions.endSession(id.asDocument());
                }
            }
        }
        return Replies.ok();
    }

    /** Aborts the transaction {@code command} ran in after it failed (nothing of it will be applied). */
    static void abortAfterError(TransactionTable transactions, BsonDocument command) {
        try {
            transactions.abort(command);
        } catch (TransactionError alreadyOver) {
            // already aborted (or committed): nothing to discard
        }
    }
}

package io.tetradb.mongo.command;

import io.tetradb.mongo.changestream.ChangeStreamCommands;
import io.tetradb.mongo.txn.TransactionTable;
import org.bson.BsonValue;

import java.util.function.BiPredicate;

/**
 * What ending sessions does, wherever a session lives: its cursors (change streams too) close and its open
 * transaction is aborted; a kill ({@code killSessions}, {@code killAllSessions…}) also interrupts the commands it is
 * running, as mongod's session killer kills their operations (they stop with Interrupted 11601 at their next
 * {@link Interruption#check()}). Sessions are selected by {@code lsid.id} and the user they belong to.
 */
final class SessionEnding {
    private final Cursors cursors;
    private final ChangeStreamCommands changeStreams;
    private final TransactionTable transactions;
    private final Operations operations;

    SessionEnding(Cursors cursors, ChangeStreamCommands changeStreams, TransactionTable transactions,
                  Operations operations) {
        this.cursors = cursors;
        this.changeStreams = changeStreams;
        this.transactions = transactions;
        this.operations = operations;
    }

    /** {@code endSessions}: the sessions end; a command still running in one finishes. */
    void end(BiPredicate<BsonValue, SessionOwner> which) {
        cursors.sessionsKilled(which);
        changeStreams.sessionsEnded(which);
        transactions.endSessionsWhere(which);
    }

    /**
     * A kill: the running commands are marked first, so none of them opens a cursor after the sweep below without
     * failing at its next check; then the sessions end.
     */
    void kill(BiPredicate<BsonValue, SessionOwner> which) {
        operations.killSessions(which, Interruption.current());
        end(which);
    }
}

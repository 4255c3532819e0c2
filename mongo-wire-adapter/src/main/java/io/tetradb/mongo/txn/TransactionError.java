package io.tetradb.mongo.txn;

import io.tetradb.mongo.command.ErrorCode;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonString;

/**
 * A failure that ends a multi-document transaction (a write conflict, a write outside the transaction's logical
 * partition, a transaction too large for one core batch, an unknown or finished transaction). It is not a
 * {@code MongoError} on purpose: bulk writes turn those into per-statement {@code writeErrors}, while these must end
 * the whole command, abort the transaction and reach the driver as a top-level error with its {@code errorLabels}.
 */
public final class TransactionError extends RuntimeException {
    private final ErrorCode code;
    private final boolean transient_;
    /** The label of the answer beside TransientTransactionError (UnknownTransactionCommitResult), or null. */
    private final String label;

    public TransactionError(ErrorCode code, String message, boolean transientError) {
        this(code, message, transientError, null);
    }

    private TransactionError(ErrorCode code, String message, boolean transientError, String label) {
        super(message);
        this.code = code;
        this.transient_ = transientError;
        this.label = label;
    }

    public ErrorCode code() {
        return code;
    }

    /** {@code errorLabels: ["TransientTransactionError"]} when retrying the whole transaction may succeed. */
    public BsonDocument extra() {
        if (label != null) {
            return new BsonDocument("errorLabels", new BsonArray(java.util.List.of(new BsonString(label))));
        }
        return transient_ ? new BsonDocument("errorLabels", new BsonArray(java.util.List.of(
                new BsonString("TransientTransactionError")))) : null;
    }

    /** A commit whose batch may or may not have applied (a shared engine could not settle it): mongod's label. */
    static TransactionError unknownCommitResult(String why) {
        return new TransactionError(ErrorCode.EXCEEDED_TIME_LIMIT, "the outcome of this transaction's commit is "
                + "unknown: " + why, false, "UnknownTransactionCommitResult");
    }

    /** A commitTransaction retried after an unknown outcome: still unknown, without a label to retry on. */
    static TransactionError commitStillUnknown(long txnNumber) {
        return new TransactionError(ErrorCode.EXCEEDED_TIME_LIMIT, "the outcome of the commit of transaction "
                + txnNumber + " is unknown; read its documents before running it again", false);
    }

    static TransactionError writeConflict(String what) {
        return new TransactionError(ErrorCode.WRITE_CONFLICT, "WriteConflict error: this operation conflicted with "
                + "another operation. Please retry your operation or multi-document transaction. (" + what + ")",
                true);
    }

    static TransactionError noSuchTransaction(long txnNumber, String why) {
        return new TransactionError(ErrorCode.NO_SUCH_TRANSACTION, "Transaction with txnNumber " + txnNumber
                + " " + why, true);
    }
}

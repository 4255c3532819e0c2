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

    public TransactionError(ErrorCode code, String message, boolean transientError) {
        super(message);
        this.code = code;
        this.transient_ = transientError;
    }

    public ErrorCode code() {
        return code;
    }

    /** {@code errorLabels: ["TransientTransactionError"]} when retrying the whole transaction may succeed. */
    public BsonDocument extra() {
        return transient_ ? new BsonDocument("errorLabels", new BsonArray(java.util.List.of(
                new BsonString("TransientTransactionError")))) : null;
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

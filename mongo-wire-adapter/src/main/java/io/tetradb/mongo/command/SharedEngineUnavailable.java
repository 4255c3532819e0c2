package io.tetradb.mongo.command;

import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.List;

/**
 * A shared engine that could not serve a request and did nothing (core {@code StorageUnavailableException}: too few
 * Cassandra replicas alive, a QUORUM read timed out) answered as mongod answers a node that cannot serve now:
 * PrimarySteppedDown (189, a retriable code) as a <b>top-level</b> error with mongod's labels —
 * TransientTransactionError inside a transaction, RetryableWriteError (and NoWritesPerformed) for a retryable write ({@code txnNumber} without
 * {@code autocommit}). A driver then retries a read or a retryable write once, and {@code withTransaction} the whole
 * transaction. A write command whose statements all failed so (nothing written: {@code n} is 0) is raised from its
 * {@code writeErrors} to that top-level error, as mongod raises a not-primary error out of a write batch.
 */
public final class SharedEngineUnavailable {
    private SharedEngineUnavailable() {
    }

    /** mongod's labels for a retriable error of {@code command} (null: neither in a transaction nor retryable). */
    public static BsonDocument labels(BsonDocument command) {
        List<BsonValue> labels = new ArrayList<>();
        if (command.containsKey("autocommit")) {
            labels.add(new BsonString("TransientTransactionError"));
        } else if (command.containsKey("txnNumber")) {
            labels.add(new BsonString("RetryableWriteError"));
            labels.add(new BsonString("NoWritesPerformed"));
        }
        return labels.isEmpty() ? null : new BsonDocument("errorLabels", new BsonArray(labels));
    }

    /**
     * The reply of a write command ({@code insert}, {@code update}, {@code delete}) with nothing written whose write
     * errors are all of this kind, as the top-level error; any other reply as it is.
     */
    public static BsonDocument promote(String name, BsonDocument reply, BsonDocument command) {
        if (!name.equals("insert") && !name.equals("update") && !name.equals("delete")) {
            return reply; // (other replies, some raw bytes, are not looked into)
        }
        BsonValue errors = reply.get("writeErrors");
        if (errors == null || !errors.isArray() || errors.asArray().isEmpty()
                || !new BsonInt32(0).equals(reply.get("n"))) {
            return reply;
        }
        for (BsonValue e : errors.asArray()) {
            if (!e.isDocument() || !new BsonInt32(ErrorCode.PRIMARY_STEPPED_DOWN.code()).equals(e.asDocument()
                    .get("code"))) {
                return reply;
            }
        }
        BsonDocument first = errors.asArray().get(0).asDocument();
        String message = first.isString("errmsg") ? first.getString("errmsg").getValue() : null;
        return Replies.error(ErrorCode.PRIMARY_STEPPED_DOWN, message, labels(command));
    }
}

package io.tetradb.mongo.command;

import io.tetradb.core.Status;
import io.tetradb.core.StoreException;

/** The core's failures in MongoDB's terms. */
public final class MongoErrors {
    private MongoErrors() {
    }

    public static MongoError of(RuntimeException e) {
        if (e instanceof MongoError m) {
            return m;
        }
        if (e instanceof io.tetradb.core.cancel.CallStoppedException stopped) { // inside a core call (Interruption)
            return stopped.reason() == io.tetradb.core.cancel.StopReason.TIME_LIMIT ? MaxTime.expired()
                    : new MongoError(ErrorCode.INTERRUPTED, "operation was interrupted");
        }
        if (e instanceof io.tetradb.core.throughput.RequestRateTooLargeException t) {
            // Cosmos DB's API for MongoDB: code 16500 with the wait in the message, which its retry guidance parses
            return new MongoError(ErrorCode.REQUEST_RATE_TOO_LARGE, "Error=16500, RetryAfterMs=" + t.retryAfterMillis()
                    + ", Details='Response status code does not indicate success: TooManyRequests (429); Substatus: "
                    + t.subStatus() + "; Reason: (" + t.getMessage() + ")'");
        }
        if (e instanceof io.tetradb.core.storage.WriteOutcomeUnknownException u) {
            // --storage cassandra: applied or not, unknown (mongos' answer when a shard did not reply in time). No
            // RetryableWriteError label: this face keeps no record of retried txnNumbers, so a driver's retry could
            // apply the write twice or report its own insert as a duplicate key
            return new MongoError(ErrorCode.EXCEEDED_TIME_LIMIT, u.getMessage());
        }
        if (e instanceof io.tetradb.core.storage.StorageUnavailableException u) {
            // --storage cassandra: too few replicas, a read timed out, nothing done (SharedEngineUnavailable)
            return new MongoError(ErrorCode.PRIMARY_STEPPED_DOWN, u.getMessage());
        }
        if (e instanceof StoreException s) {
            String message = s.status() == Status.REQUEST_ENTITY_TOO_LARGE
                    ? "document too large for this server's store: " + s.getMessage() : s.getMessage();
            return new MongoError(codeFor(s.status()), message);
        }
        return new MongoError(ErrorCode.INTERNAL_ERROR, String.valueOf(e));
    }

    static ErrorCode codeFor(int status) {
        return switch (status) {
            case Status.BAD_REQUEST -> ErrorCode.BAD_VALUE;
            case Status.NOT_FOUND -> ErrorCode.NAMESPACE_NOT_FOUND;
            case Status.CONFLICT -> ErrorCode.DUPLICATE_KEY;
            case Status.REQUEST_ENTITY_TOO_LARGE -> ErrorCode.BSON_OBJECT_TOO_LARGE;
            case 429 -> ErrorCode.REQUEST_RATE_TOO_LARGE;
            case 449 -> ErrorCode.WRITE_CONFLICT; // --storage cassandra: still losing to other servers after retries
            default -> ErrorCode.INTERNAL_ERROR;
        };
    }
}

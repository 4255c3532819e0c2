package io.tetradb.mongo.command;

import org.bson.BsonDocument;

/**
 * A command failure in MongoDB's terms: answered as {@code {ok: 0, errmsg, code, codeName}} (plus {@code extra}
 * fields, e.g. a duplicate key's {@code keyPattern}/{@code keyValue}).
 */
public final class MongoError extends RuntimeException {
    private final ErrorCode code;
    private final BsonDocument extra;

    public MongoError(ErrorCode code, String message) {
        this(code, message, null);
    }

    public MongoError(ErrorCode code, String message, BsonDocument extra) {
        super(message);
        this.code = code;
        this.extra = extra;
    }

    public ErrorCode code() {
        return code;
    }

    /** Fields beside code and message (may be null). */
    public BsonDocument extra() {
        return extra;
    }

    public static MongoError badValue(String message) {
        return new MongoError(ErrorCode.BAD_VALUE, message);
    }

    public static MongoError typeMismatch(String message) {
        return new MongoError(ErrorCode.TYPE_MISMATCH, message);
    }
}

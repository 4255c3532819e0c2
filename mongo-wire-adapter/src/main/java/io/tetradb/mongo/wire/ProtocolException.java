package io.tetradb.mongo.wire;

import io.tetradb.mongo.command.ErrorCode;

/**
 * A frame that breaks the wire protocol. Without a {@link #code()} (unknown section kind, truncated section, bad
 * flags) the connection closes; with one (invalid BSON, too deep, too large: the frame itself was whole) the request
 * is answered with that error and the connection stays, as mongod answers a message it cannot parse.
 */
public final class ProtocolException extends RuntimeException {
    private final transient ErrorCode code;

    public ProtocolException(String message) {
        this(message, (ErrorCode) null);
    }

    public ProtocolException(String message, ErrorCode code) {
        super(message);
        this.code = code;
    }

    public ProtocolException(String message, Throwable cause) {
        super(message, cause);
        this.code = null;
    }

    /** The error to answer with, or null when the connection must close. */
    public ErrorCode code() {
        return code;
    }
}

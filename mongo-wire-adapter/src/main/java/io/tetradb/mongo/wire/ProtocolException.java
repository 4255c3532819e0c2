package io.tetradb.mongo.wire;

/** A frame that breaks the wire protocol (bad BSON, unknown section kind, truncated section): the connection closes. */
public final class ProtocolException extends RuntimeException {
    public ProtocolException(String message) {
        super(message);
    }

    public ProtocolException(String message, Throwable cause) {
        super(message, cause);
    }
}

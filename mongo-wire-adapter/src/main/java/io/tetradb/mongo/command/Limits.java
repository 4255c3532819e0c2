package io.tetradb.mongo.command;

/** The limits this face advertises in {@code hello} and enforces. */
public final class Limits {
    public static final int MAX_BSON_OBJECT_SIZE = 16 * 1024 * 1024;
    public static final int MAX_MESSAGE_BYTES = 48_000_000;
    public static final int MAX_WRITE_BATCH_SIZE = 100_000;
    public static final int MAX_WIRE_VERSION = 21;
    public static final int LOGICAL_SESSION_TIMEOUT_MINUTES = 30;
    /** Documents in a first batch when the client does not say (MongoDB's default). */
    public static final int DEFAULT_BATCH_SIZE = 101;
    /** Bytes per reply batch, leaving room for the envelope (MongoDB cuts batches at 16 MB). */
    public static final int MAX_BATCH_BYTES = 16 * 1024 * 1024 - 64 * 1024;

    /** Bytes a sort or a pipeline may hold in memory (MongoDB's 100 MB; beyond it error 292, not an exhausted heap). */
    public static final long MAX_IN_MEMORY_BYTES = 100L * 1024 * 1024;

    private Limits() {
    }
}

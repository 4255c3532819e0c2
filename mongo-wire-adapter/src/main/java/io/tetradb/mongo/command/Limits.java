package io.tetradb.mongo.command;

/** The limits this face advertises in {@code hello} and enforces. */
public final class Limits {
    public static final int MAX_BSON_OBJECT_SIZE = 16 * 1024 * 1024;
    /** MongoDB's maxMessageSizeBytes: a frame may carry up to three 16 MiB documents. */
    public static final int MAX_MESSAGE_BYTES = 48_000_000;
    /** Levels of nesting a stored document may have (MongoDB's documented limit); the top document is level 1. */
    public static final int MAX_NESTING_DEPTH = 100;
    /**
     * The item limit of every collection's container (the core's per-container {@code maxItemBytes}). A store that
     * writes JSON text holds a document larger than its BSON: no BSON element grows more than about 10.2 times as
     * JSON (an empty regex in an array, 5 bytes, becomes {@code {"$regularExpression":{"pattern":"","options":""}}}
     * in the earlier shape; control characters in strings 6 times as {@code \u0001}; base64 binaries 4/3), so
     * 11 × 16 MiB holds every 16 MiB document. The binary item format is about the size of the BSON.
     */
    public static final int MAX_STORED_ITEM_BYTES = 11 * MAX_BSON_OBJECT_SIZE;
    public static final int MAX_WRITE_BATCH_SIZE = 100_000;
    public static final int MAX_WIRE_VERSION = 21;
    public static final int LOGICAL_SESSION_TIMEOUT_MINUTES = 30;
    /** Documents in a first batch when the client does not say (MongoDB's default). */
    public static final int DEFAULT_BATCH_SIZE = 101;
    /** Bytes per reply batch, leaving room for the envelope (MongoDB cuts batches at 16 MB). */
    public static final int MAX_BATCH_BYTES = 16 * 1024 * 1024 - 64 * 1024;

    /** MongoDB's 100 MB for a sort or a pipeline; the bound in force is the process's QueryMemory (--query-memory). */
    public static final long MAX_IN_MEMORY_BYTES = 100L * 1024 * 1024;

    private Limits() {
    }
}

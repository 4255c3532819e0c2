package io.tetradb.server;

import io.tetradb.core.net.ConnectionLimits;

/**
 * What one server process lets its clients use, beside {@link ServerConfig}'s addresses and keys: the memory budget
 * (null: the JVM's and RocksDB's own defaults, as in tests and embedding), each face's connection limits, and a cap
 * on request sizes below the faces' protocol limits.
 *
 * @param memory          the budget RocksDB's cache is sized from (the heap was sized by the launcher); null: none
 * @param connections     every network face's connection limits (each face counts its own connections)
 * @param maxRequestBytes a lower cap on request bodies for the Tables and Cosmos faces and on Gremlin Server's
 *                        maxContentLength; null keeps each face's own (Tables 4 MiB, Cosmos 2 MiB, Gremlin 10 MiB).
 *                        Mongo keeps maxMessageSizeBytes (48 MB), which drivers read from {@code hello}.
 * @param queryMemoryBytes what one query may hold to sort, group or de-duplicate (Cosmos SQL: 400; Mongo: error 292
 *                        QueryExceededMemoryLimitNoDiskUseAllowed); null keeps the default, 100 MiB
 * @param maxOpenCursors  Mongo cursors kept open at most (past it the least recently used closes); null: 1,000
 * @param maxCursorBytes  document bytes Mongo's open cursors may hold together between batches (beyond, error 146
 *                        ExceededMemoryLimit); null: a quarter of the heap, at least 16 MiB
 */
public record ServerLimits(MemoryBudget memory, ConnectionLimits connections, Integer maxRequestBytes,
                           Long queryMemoryBytes, Integer maxOpenCursors, Long maxCursorBytes) {
    public ServerLimits {
        if (connections == null) {
            connections = ConnectionLimits.defaults();
        }
        if (queryMemoryBytes != null && queryMemoryBytes < (1L << 20)) {
            throw new IllegalArgumentException("the query memory limit must be at least 1m");
        }
        if (maxOpenCursors != null && maxOpenCursors < 1) {
            throw new IllegalArgumentException("--max-open-cursors must be at least 1");
        }
        if (maxCursorBytes != null && maxCursorBytes < (1L << 20)) {
            throw new IllegalArgumentException("--max-cursor-memory must be at least 1m");
        }
        if (maxRequestBytes != null && maxRequestBytes < 1024) {
            throw new IllegalArgumentException("the request size cap must be at least 1024 bytes");
        }
    }

    /** With the default cursor memory. */
    public ServerLimits(MemoryBudget memory, ConnectionLimits connections, Integer maxRequestBytes,
                        Long queryMemoryBytes, Integer maxOpenCursors) {
        this(memory, connections, maxRequestBytes, queryMemoryBytes, maxOpenCursors, null);
    }

    /** Without a cursor cap of its own (Mongo's default). */
    public ServerLimits(MemoryBudget memory, ConnectionLimits connections, Integer maxRequestBytes,
                        Long queryMemoryBytes) {
        this(memory, connections, maxRequestBytes, queryMemoryBytes, null);
    }

    public static ServerLimits defaults() {
        return new ServerLimits(null, ConnectionLimits.defaults(), null, null);
    }

    /** The smaller of a face's own limit and the cap. */
    public int requestBytes(int faceLimit) {
        return maxRequestBytes == null ? faceLimit : Math.min(faceLimit, maxRequestBytes);
    }
}

package io.tetradb.mongo.query;

import io.tetradb.mongo.command.ErrorCode;
import io.tetradb.mongo.command.MongoError;
import io.tetradb.mongo.store.MongoCollection;
import org.bson.BsonDocument;

/**
 * Counts what a blocking stage (an in-memory sort, a pipeline's materialised rows) holds, so that a query over a huge
 * collection fails with MongoDB's error 292 instead of exhausting the server's heap.
 */
public final class MemoryBudget {
    private final String what;
    private final long limit;
    private long bytes;

    /** Bounded by the process's query memory limit (the server's --query-memory; MongoDB's 100 MB by default). */
    public MemoryBudget(String what) {
        this(what, io.tetradb.core.query.eval.QueryMemory.limitBytes());
    }

    MemoryBudget(String what, long limit) {
        this.what = what;
        this.limit = limit;
    }

    public void add(BsonDocument doc) {
        bytes += MongoCollection.approxSize(doc);
        if (bytes > limit) {
            throw new MongoError(ErrorCode.QUERY_EXCEEDED_MEMORY_LIMIT, "the " + what + " exceeded the memory limit of "
                    + limit + " bytes; add a filter or a limit (an index-ordered sort is not "
                    + "supported yet)");
        }
    }
}

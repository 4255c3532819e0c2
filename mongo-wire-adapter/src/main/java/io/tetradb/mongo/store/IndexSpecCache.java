package io.tetradb.mongo.store;

import org.bson.BsonDocument;

import java.util.List;

/**
 * A collection's index specs as last read from {@code system.indexes}, so that writes (which check unique indexes)
 * and finds (hints) do not query that collection every time. {@link IndexCatalog} invalidates it whenever it changes
 * an index of the collection; a load that raced with a change is not kept (the generation moved on).
 */
final class IndexSpecCache {
    private List<BsonDocument> specs;
    private long generation;

    synchronized List<BsonDocument> get() {
        return specs;
    }

    synchronized long generation() {
        return generation;
    }

    /** Keeps {@code loaded} unless the specs changed since {@code loadedAt} was read. */
    synchronized void put(long loadedAt, List<BsonDocument> loaded) {
        if (loadedAt == generation) {
            specs = loaded;
        }
    }

    synchronized void invalidate() {
        generation++;
        specs = null;
    }
}

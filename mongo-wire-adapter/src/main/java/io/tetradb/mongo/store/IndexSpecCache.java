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
    /** Shared engine: the core's catalog version the specs were read at (another server may change them). */
    private long catalogVersion;

    synchronized List<BsonDocument> get() {
        return specs;
    }

    /** The specs if read at {@code catalogVersion} (a shared engine: another server's index change moves it). */
    synchronized List<BsonDocument> get(long catalogVersion) {
        return catalogVersion == this.catalogVersion ? specs : null;
    }

    synchronized void put(long loadedAt, long catalogVersion, List<BsonDocument> loaded) {
        if (loadedAt == generation) {
            specs = loaded;
            this.catalogVersion = catalogVersion;
        }
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

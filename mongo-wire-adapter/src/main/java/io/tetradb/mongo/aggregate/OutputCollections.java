package io.tetradb.mongo.aggregate;

import io.tetradb.mongo.store.MongoCollection;

/** Where {@code $out} and {@code $merge} write: collections by database and name, created when absent. */
public interface OutputCollections {
    /** The collection, created if absent. */
    MongoCollection open(String db, String name);

    /** The collection emptied ({@code $out} replaces its contents), created if absent. */
    MongoCollection replace(String db, String name);
}

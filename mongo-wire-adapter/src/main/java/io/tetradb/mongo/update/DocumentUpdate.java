package io.tetradb.mongo.update;

import org.bson.BsonDocument;

/** One update statement's {@code u}: operators, a replacement document, or an aggregation pipeline. */
public interface DocumentUpdate {
    /** The updated copy of {@code original}; {@code inserting} for an upsert's insert. */
    BsonDocument apply(BsonDocument original, boolean inserting);

    /** A replacement document (no operators): not allowed with multi. */
    boolean isReplacement();
}

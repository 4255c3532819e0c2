package io.tetradb.mongo.store;

import org.bson.BsonDocument;

/** A document as read from the core: its content, its core id and the etag of the version read. */
public record StoredDoc(BsonDocument doc, String id, String etag) {
}

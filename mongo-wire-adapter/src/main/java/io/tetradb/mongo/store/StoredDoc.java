package io.tetradb.mongo.store;

import io.tetradb.core.partition.PartitionKeyValue;
import org.bson.BsonDocument;

/**
 * A document as read from the core: its content, its core id, the etag of the version read and its logical
 * partition (the collection's one partition, or the shard key value's).
 */
public record StoredDoc(BsonDocument doc, String id, String etag, PartitionKeyValue partition) {
}

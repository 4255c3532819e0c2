package io.tetradb.mongo.changestream;

import org.bson.BsonDocument;

/**
 * One change of one document as the face reads it from the core's feed.
 *
 * @param seq      the store-wide feed sequence number (orders events across collections, survives restarts)
 * @param after    the document after the change (null for a delete)
 * @param before   the document before the change (null for an insert)
 * @param replacement a change written by a replacement ({@code replaceOne}), not by update operators
 */
public record FeedEvent(long seq, Kind kind, long crtsMillis, boolean ttlExpired, boolean replacement,
                        BsonDocument after,
                        BsonDocument before) {
    /** Insert, delete, or a change of an existing document (an update or a replace). */
    public enum Kind { INSERT, CHANGE, DELETE }
}

package io.tetradb.mongo.command;

import org.bson.BsonValue;

/**
 * A logical session as mongod keys it: the client's {@code lsid.id} together with the user that uses it. Two users
 * sending the same {@code lsid.id} have two sessions, so neither can reach the other's transaction or cursors.
 *
 * @param id    the client's {@code lsid.id} (a UUID)
 * @param owner the user the session belongs to
 */
public record SessionId(BsonValue id, SessionOwner owner) {
}

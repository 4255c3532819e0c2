package io.tetradb.mongo.wire;

import org.bson.BsonDocument;

/**
 * One decoded request: its header fields and the command document it carries (OP_MSG: the body with kind-1
 * sections folded in as arrays; OP_QUERY on {@code db.$cmd}: the query document).
 *
 * @param database      the target database ({@code $db} of an OP_MSG, the namespace's database of an OP_QUERY)
 * @param moreToCome    the client wants no reply (OP_MSG flag bit 1)
 * @param legacyQuery   the request came as OP_QUERY and must be answered with OP_REPLY
 */
public record Request(int requestId, int opCode, String database, BsonDocument command, boolean moreToCome,
                      boolean legacyQuery) {
}

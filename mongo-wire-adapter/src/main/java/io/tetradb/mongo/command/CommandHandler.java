package io.tetradb.mongo.command;

import org.bson.BsonDocument;

/** One command: its reply document (with {@code ok: 1}); a failure is thrown as {@link MongoError}. */
@FunctionalInterface
public interface CommandHandler {
    BsonDocument run(CommandContext ctx, BsonDocument command);
}

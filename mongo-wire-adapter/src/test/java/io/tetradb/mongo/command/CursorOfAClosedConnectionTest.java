package io.tetradb.mongo.command;

import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * A command queued on a connection may finish after the connection has closed (a client that sends and hangs up: the
 * fuzz run's 360 cursors that neither the connection's end nor killAllSessions closed, a live heap growing by 50 MB
 * over a million inputs). Opened without a session, its cursor could never be continued: it must not stay open.
 */
class CursorOfAClosedConnectionTest {
    @TempDir
    Path dir;

    private static long openCursors(CommandDispatcher d, ConnectionState c) {
        return d.run(c, "admin", new BsonDocument("serverStatus", new BsonInt32(1))).getDocument("metrics")
                .getDocument("cursor").getDocument("open").getNumber("total").longValue();
    }

    private static BsonDocument find(int batchSize) {
        return new BsonDocument("find", new BsonString("c")).append("batchSize", new BsonInt32(batchSize));
    }

    @Test
    void aCommandFinishingAfterItsConnectionClosedLeavesNoSessionlessCursor() {
        try (CosmosClient store = new CosmosClientBuilder().dataDirectory(dir).buildClient();
             CommandDispatcher dispatcher = new CommandDispatcher(store)) {
            ConnectionState observer = new ConnectionState(1, "127.0.0.1:1");
            BsonArray docs = new BsonArray();
            for (int i = 0; i < 5; i++) {
                docs.add(new BsonDocument("_id", new BsonInt32(i)));
            }
            dispatcher.run(observer, "db", new BsonDocument("insert", new BsonString("c")).append("documents", docs));

            ConnectionState gone = new ConnectionState(2, "127.0.0.1:2");
            dispatcher.connectionClosed(gone); // closed while its find was still queued
            BsonDocument late = dispatcher.run(gone, "db", find(1));
            assertEquals(1.0, late.getNumber("ok").doubleValue(), late.toJson());
            assertEquals(0, openCursors(dispatcher, observer), "nothing can continue a cursor of a closed connection");

            // an open connection's cursor, and a session's cursor on the closed one, stay (a driver may continue a
            // session's cursor on another pooled connection)
            assertNotEquals(0, dispatcher.run(observer, "db", find(1)).getDocument("cursor").getInt64("id").getValue());
            BsonDocument withSession = find(1).append("lsid", new BsonDocument("id", new BsonString("s1")));
            dispatcher.run(gone, "db", withSession);
            assertEquals(2, openCursors(dispatcher, observer));
        }
    }
}

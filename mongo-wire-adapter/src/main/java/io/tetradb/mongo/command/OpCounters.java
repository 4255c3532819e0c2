package io.tetradb.mongo.command;

import org.bson.BsonDocument;
import org.bson.BsonInt64;
import org.bson.BsonValue;

import java.util.concurrent.atomic.LongAdder;

/**
 * MongoDB's {@code serverStatus.opcounters}: inserted documents, finds, update and delete statements, getMores and
 * every other command, counted as the server receives them (failed ones too, as MongoDB counts them).
 */
final class OpCounters {
    private final LongAdder insert = new LongAdder();
    private final LongAdder query = new LongAdder();
    private final LongAdder update = new LongAdder();
    private final LongAdder delete = new LongAdder();
    private final LongAdder getmore = new LongAdder();
    private final LongAdder command = new LongAdder();

    void count(String name, BsonDocument cmd) {
        switch (name) {
            case "insert" -> insert.add(statements(cmd.get("documents")));
            case "find" -> query.increment();
            case "update" -> update.add(statements(cmd.get("updates")));
            case "delete" -> delete.add(statements(cmd.get("deletes")));
            case "getMore" -> getmore.increment();
            default -> command.increment();
        }
    }

    private static long statements(BsonValue list) {
        return list != null && list.isArray() ? list.asArray().size() : 0;
    }

    BsonDocument toDocument() {
        return new BsonDocument("insert", new BsonInt64(insert.sum())).append("query", new BsonInt64(query.sum()))
                .append("update", new BsonInt64(update.sum())).append("delete", new BsonInt64(delete.sum()))
                .append("getmore", new BsonInt64(getmore.sum())).append("command", new BsonInt64(command.sum()));
    }
}

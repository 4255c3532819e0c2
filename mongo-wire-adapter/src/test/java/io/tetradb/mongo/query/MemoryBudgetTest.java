package io.tetradb.mongo.query;

import io.tetradb.mongo.command.MongoError;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class MemoryBudgetTest {
    @Test
    void aBlockingStageOverItsBudgetFailsWith292() {
        MemoryBudget budget = new MemoryBudget("sort", 10_000);
        BsonDocument doc = new BsonDocument("pad", new BsonString("x".repeat(1000)));
        for (int i = 0; i < 5; i++) {
            budget.add(doc);
        }
        MongoError e = assertThrows(MongoError.class, () -> {
            for (int i = 0; i < 10; i++) {
                budget.add(doc);
            }
        });
        assertEquals(292, e.code().code());
    }
}

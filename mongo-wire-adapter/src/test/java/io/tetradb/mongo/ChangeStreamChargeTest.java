package io.tetradb.mongo;

import com.mongodb.client.MongoChangeStreamCursor;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.changestream.ChangeStreamDocument;
import io.tetradb.core.consistency.ConsistencyLevel;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A change stream reads the core's change feed as a metered read, as the REST and embedded change feed do: each
 * getMore that reads changes is charged 1 RU per KB of changes read (at least 1 per page), twice under a Strong
 * account, and reports it (getLastRequestStatistics), through the MongoDB Java driver.
 */
class ChangeStreamChargeTest extends MongoServerTestBase {
    private static double lastCharge(MongoDatabase db) {
        return db.runCommand(new Document("getLastRequestStatistics", 1)).getDouble("RequestCharge");
    }

    @Test
    void aGetMoreIsChargedPerKbReadAndTwiceUnderAStrongAccount() {
        MongoDatabase db = client.getDatabase("cscharge");
        MongoCollection<Document> c = db.getCollection("events");
        c.insertOne(new Document("_id", "created"));
        try (MongoChangeStreamCursor<ChangeStreamDocument<Document>> cursor = c.watch().cursor()) {
            c.insertOne(new Document("_id", "a1").append("pad", "x".repeat(5000)));
            assertEquals("a1", cursor.next().getDocumentKey().getString("_id").getValue());
            double session = lastCharge(db);
            assertTrue(session >= 5, "a getMore that read a 5 KB change: " + session);
            store.coreStore().consistency().setDefaultLevel(ConsistencyLevel.STRONG);
            try {
                c.insertOne(new Document("_id", "a2").append("pad", "x".repeat(5000)));
                assertEquals("a2", cursor.next().getDocumentKey().getString("_id").getValue());
                assertEquals(2 * session, lastCharge(db), 0.011, "the same read under a Strong account");
            } finally {
                store.coreStore().consistency().setDefaultLevel(ConsistencyLevel.SESSION);
            }
        }
    }
}

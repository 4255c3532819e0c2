package io.tetradb.mongo;

import com.mongodb.MongoCursorNotFoundException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Abandoned cursors cannot pile up: past 1,000 open cursors the least recently used is closed, and its next getMore
 * is CursorNotFound (43), as after MongoDB's idle timeout; the cursors in use keep working.
 */
class OpenCursorLimitTest extends MongoServerTestBase {

    @Test
    void theLeastRecentlyUsedCursorIsClosedPastTheLimit() {
        MongoCollection<Document> c = fresh(client.getDatabase("cursors"), "c", "{_id: 1}", "{_id: 2}", "{_id: 3}");
        List<MongoCursor<Document>> cursors = new ArrayList<>();
        try {
            for (int i = 0; i < 1001; i++) {
                MongoCursor<Document> cursor = c.find().sort(new Document("_id", 1)).batchSize(1).iterator();
                assertEquals(1, cursor.next().getInteger("_id"));
                cursors.add(cursor);
                if (i == 500) {
                    assertEquals(2, cursors.get(1).next().getInteger("_id")); // cursor 1 is used again: not oldest
                }
            }
            assertThrows(MongoCursorNotFoundException.class, () -> cursors.get(0).next(),
                    "the least recently used cursor was closed");
            assertEquals(3, cursors.get(1).next().getInteger("_id"));
            assertEquals(2, cursors.get(1000).next().getInteger("_id"));
            assertEquals(2, cursors.get(2).next().getInteger("_id"), "the 1,001st cursor closed only one");
        } finally {
            cursors.forEach(cursor -> {
                try {
                    cursor.close();
                } catch (RuntimeException ignored) {
                    // already closed by the server
                }
            });
        }
    }
}

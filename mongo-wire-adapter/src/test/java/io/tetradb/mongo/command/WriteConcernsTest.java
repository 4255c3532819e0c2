package io.tetradb.mongo.command;

import org.bson.BsonDocument;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which write concerns are acknowledged before the WAL fsync, as a MongoDB replica set primary reads them. */
class WriteConcernsTest {
    private static boolean unjournaled(String writeConcern) {
        BsonDocument cmd = BsonDocument.parse("{insert: 'c', documents: []}");
        if (writeConcern != null) {
            cmd.put("writeConcern", BsonDocument.parse(writeConcern));
        }
        return WriteConcerns.unjournaled(cmd);
    }

    @Test
    void theDefaultAndJournaledConcernsWaitForTheFsync() {
        assertFalse(unjournaled(null), "no write concern: the server default w: majority journals");
        assertFalse(unjournaled("{}"));
        assertFalse(unjournaled("{w: 'majority'}"));
        assertFalse(unjournaled("{w: 1, j: true}"));
        assertFalse(unjournaled("{j: true}"));
        assertFalse(unjournaled("{w: 2}"));
    }

    @Test
    void wOneWithoutJournalAndJFalseDoNot() {
        assertTrue(unjournaled("{w: 1}"));
        assertTrue(unjournaled("{w: 0}"));
        assertTrue(unjournaled("{w: 1, j: false}"));
        assertTrue(unjournaled("{w: 'majority', j: false}"));
    }
}

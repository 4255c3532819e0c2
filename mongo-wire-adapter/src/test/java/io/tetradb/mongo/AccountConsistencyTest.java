package io.tetradb.mongo;

import io.tetradb.core.consistency.ConsistencyLevel;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cosmos DB's API for MongoDB reads at the account's default consistency and charges twice under Strong: the same
 * find costs twice the RU (getLastRequestStatistics) once the store's account level is Strong.
 */
class AccountConsistencyTest extends MongoServerTestBase {
    private double findCharge(String filterId) {
        client.getDatabase("consistency").getCollection("c").find(new Document("_id", filterId)).first();
        return client.getDatabase("consistency").runCommand(new Document("getLastRequestStatistics", 1))
                .getDouble("RequestCharge");
    }

    private double scanCharge() {
        client.getDatabase("consistency").getCollection("c").find(new Document("n", 2)).into(new java.util.ArrayList<>());
        return client.getDatabase("consistency").runCommand(new Document("getLastRequestStatistics", 1))
                .getDouble("RequestCharge");
    }

    @Test
    void readsFollowTheAccountLevelAndCostTwiceUnderStrong() {
        var c = client.getDatabase("consistency").getCollection("c");
        c.insertOne(new Document("_id", "a").append("n", 1));
        c.insertOne(new Document("_id", "b").append("n", 2));
        double session = findCharge("a");
        double sessionScan = scanCharge();
        assertTrue(session > 0 && sessionScan > 0, session + " " + sessionScan);
        store.coreStore().consistency().setDefaultLevel(ConsistencyLevel.STRONG);
        try {
            assertEquals(2 * session, findCharge("a"), 0.011);
            assertEquals(2 * sessionScan, scanCharge(), 0.011);
        } finally {
            store.coreStore().consistency().setDefaultLevel(ConsistencyLevel.SESSION);
        }
        assertEquals(session, findCharge("a"), 0.011);
    }
}

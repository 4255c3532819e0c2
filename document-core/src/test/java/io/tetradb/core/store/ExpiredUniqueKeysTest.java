package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.ttl.ManualClock;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosContainerProperties;
import io.tetradb.document.CosmosException;
import io.tetradb.document.PartitionKey;
import io.tetradb.document.UniqueKey;
import io.tetradb.document.UniqueKeyPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * An expired item holds no unique key values (Cosmos DB: an expired item is gone for every purpose): a write of the
 * same value succeeds at once, before the purge, and the purge of the expired item later leaves its successor's
 * entry alone. The purger is stopped and the clock moved by the test, so "before the purge" is certain.
 */
class ExpiredUniqueKeysTest {
    static final ObjectMapper M = new ObjectMapper();
    final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    @TempDir
    Path dir;
    CosmosClient client;
    CosmosContainer c;

    @BeforeEach
    void open() {
        client = new CosmosClientBuilder().dataDirectory(dir).clock(clock).buildClient();
        client.coreStore().ttlPurger().stop();
        client.createDatabase("db");
        client.getDatabase("db").createContainer(new CosmosContainerProperties("users", "/tenant")
                .setDefaultTimeToLiveInSeconds(-1)
                .setUniqueKeyPolicy(new UniqueKeyPolicy().setUniqueKeys(List.of(new UniqueKey(List.of("/email"))))));
        c = client.getDatabase("db").getContainer("users");
    }

    @AfterEach
    void close() {
        client.close();
    }

    static ObjectNode user(String id, String email, Integer ttl) {
        ObjectNode n = M.createObjectNode().put("id", id).put("tenant", "t").put("email", email);
        if (ttl != null) {
            n.put("ttl", ttl);
        }
        return n;
    }

    static void assertViolation(Runnable write) {
        CosmosException e = assertThrows(CosmosException.class, write::run);
        assertEquals(409, e.getStatusCode());
    }

    @Test
    void anExpiredItemsValuesAreFreeAtOnceAndItsPurgeLeavesTheSuccessorsEntry() {
        c.createItem(user("old", "a@x", 10));
        c.createItem(user("keeps", "b@x", null));
        clock.advance(Duration.ofSeconds(5));
        assertViolation(() -> c.createItem(user("early", "a@x", null))); // not yet expired: still held
        clock.advance(Duration.ofSeconds(6));

        assertEquals(201, c.createItem(user("new", "a@x", null)).getStatusCode());
        assertEquals(0, client.coreStore().ttlPurger().purgedTotal(), "taken before any purge");
        assertViolation(() -> c.createItem(user("third", "a@x", null))); // the successor holds it now
        assertViolation(() -> c.createItem(user("other", "b@x", null))); // a live item still holds its value

        assertEquals(1, client.coreStore().ttlPurger().purgeNow());
        assertViolation(() -> c.createItem(user("third", "a@x", null))); // the purge did not free the successor's
        c.deleteItem("new", new PartitionKey("t"), null);
        assertEquals(201, c.createItem(user("third", "a@x", null)).getStatusCode());
    }

    @Test
    void anExpiredItemsIdAndValueCanBeCreatedAgainAndReplacedAwayFrom() {
        c.createItem(user("u", "a@x", 10));
        clock.advance(Duration.ofSeconds(11));
        assertEquals(201, c.createItem(user("u", "a@x", null)).getStatusCode()); // same id, same value
        assertEquals(201, c.createItem(user("v", "c@x", 10)).getStatusCode());
        clock.advance(Duration.ofSeconds(11));
        // a replace of a live item onto an expired item's value
        c.replaceItem(user("u", "c@x", null), "u", new PartitionKey("t"), null);
        assertEquals(1, client.coreStore().ttlPurger().purgeNow());
        assertViolation(() -> c.createItem(user("w", "c@x", null)));
        assertEquals(201, c.createItem(user("w", "a@x", null)).getStatusCode()); // u left a@x
    }

    /** What a data directory written before unique keys were enforced holds: the policy, no entries, no marker. */
    void forgetUniqueEntries() {
        int collId = client.coreStore().container("db", "users").collId();
        io.tetradb.core.storage.WriteSet ws = new io.tetradb.core.storage.WriteSet();
        UniqueKeyIndex.dropAll(ws, collId);
        client.coreStore().engine().apply(ws);
    }

    @Test
    void anOlderDirectorysEntriesAreBuiltAtOpenAndItsCollisionsReported() {
        c.createItem(user("u1", "a@x", null));
        c.createItem(user("solo", "s@x", null));
        forgetUniqueEntries();
        c.createItem(user("u2", "a@x", null)); // nothing held a@x: as an older TetraDB let it
        forgetUniqueEntries();
        close();
        client = new CosmosClientBuilder().dataDirectory(dir).clock(clock).buildClient();
        client.coreStore().ttlPurger().stop();
        c = client.getDatabase("db").getContainer("users");

        assertEquals(List.of(new io.tetradb.core.unique.UniqueKeyCollision("[\"t\"]", "u2", "u1", 0)),
                client.coreStore().container("db", "users").uniqueKeyCollisions());
        assertViolation(() -> c.createItem(user("u3", "s@x", null))); // built: every value is held again
        assertViolation(() -> c.createItem(user("u3", "a@x", null)));
        assertEquals(200, c.upsertItem(user("u2", "b@x", null)).getStatusCode()); // the listed item moves away
        assertViolation(() -> c.createItem(user("u3", "a@x", null))); // and u1's entry stays u1's
        c.deleteItem("u1", new PartitionKey("t"), null);
        assertEquals(201, c.createItem(user("u3", "a@x", null)).getStatusCode());

        close(); // built once: reopening finds the marker and reports nothing
        client = new CosmosClientBuilder().dataDirectory(dir).clock(clock).buildClient();
        assertEquals(List.of(), client.coreStore().container("db", "users").uniqueKeyCollisions());
    }
}

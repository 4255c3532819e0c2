package io.tetradb.document;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.ttl.ManualClock;
import io.tetradb.testing.TestTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Cosmos DB time to live through the embedded document API, on a clock the test moves. */
class TimeToLiveTest {
    static final ObjectMapper M = new ObjectMapper();
    @TempDir
    Path dir;
    final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    CosmosClient client;
    CosmosDatabase db;

    @BeforeEach
    void open() {
        client = new CosmosClientBuilder().dataDirectory(dir).clock(clock).buildClient();
        client.createDatabase("db");
        db = client.getDatabase("db");
    }

    @AfterEach
    void close() {
        client.close();
    }

    private CosmosContainer container(String name, Integer defaultTtl) {
        db.createContainer(new CosmosContainerProperties(name, "/pk").setDefaultTimeToLiveInSeconds(defaultTtl));
        return db.getContainer(name);
    }

    static ObjectNode item(String id, Integer ttl) {
        ObjectNode n = M.createObjectNode().put("id", id).put("pk", "p");
        if (ttl != null) {
            n.put("ttl", ttl);
        }
        return n;
    }

    private static Set<String> ids(CosmosContainer c) {
        return c.queryItems("SELECT * FROM c", new CosmosQueryRequestOptions(), ObjectNode.class).stream()
                .map(n -> n.path("id").asText()).collect(Collectors.toSet());
    }

    private static boolean readable(CosmosContainer c, String id) {
        try {
            c.readItem(id, new PartitionKey("p"), ObjectNode.class);
            return true;
        } catch (CosmosException e) {
            assertEquals(404, e.getStatusCode());
            return false;
        }
    }

    @Test
    void defaultTtlIsValidatedAsCosmosDbDoes() {
        for (int bad : new int[]{0, -2}) {
            CosmosException e = assertThrows(CosmosException.class, () -> container("bad" + (bad + 5), bad));
            assertEquals(400, e.getStatusCode());
        }
        container("ok1", -1);
        container("ok2", Integer.MAX_VALUE);
    }

    @Test
    void itemTtlIsValidatedOnlyWhenTheContainerHasTimeToLive() {
        CosmosContainer on = container("on", -1);
        for (Object bad : new Object[]{0, -5, 1.5, "10", 2147483648L}) {
            ObjectNode it = M.createObjectNode().put("id", "x").put("pk", "p");
            it.set("ttl", M.valueToTree(bad));
            CosmosException e = assertThrows(CosmosException.class, () -> on.createItem(it));
            assertEquals(400, e.getStatusCode());
            assertTrue(e.getMessage().contains("The input ttl '") && e.getMessage().contains("is invalid"),
                    e.getMessage());
        }
        CosmosException patched = assertThrows(CosmosException.class, () -> {
            on.createItem(item("y", 5));
            on.patchItem("y", new PartitionKey("p"), CosmosPatchOperations.create().set("/ttl", 0), ObjectNode.class);
        });
        assertEquals(400, patched.getStatusCode());
        // with time to live off, Cosmos DB disregards an item's ttl: it is stored and never expires
        CosmosContainer off = container("off", null);
        off.createItem(item("z", 0));
        off.createItem(item("w", 5));
        clock.advance(Duration.ofDays(1));
        assertEquals(Set.of("z", "w"), ids(off));
    }

    @Test
    void itemsExpireAfterTheDefaultOrTheirOwnTtl() {
        CosmosContainer c = container("c", 10);
        c.createItem(item("default", null));
        c.createItem(item("never", -1));
        c.createItem(item("long", 100));
        c.createItem(item("short", 3));
        clock.advance(Duration.ofSeconds(2));
        assertEquals(Set.of("default", "never", "long", "short"), ids(c));
        clock.advance(Duration.ofSeconds(1));
        assertEquals(Set.of("default", "never", "long"), ids(c));
        assertTrue(!readable(c, "short"));
        clock.advance(Duration.ofSeconds(7)); // 10 s after the write
        assertEquals(Set.of("never", "long"), ids(c));
        assertTrue(!readable(c, "default"));
        assertEquals(2L, c.queryItems("SELECT VALUE COUNT(1) FROM c", new CosmosQueryRequestOptions(), Long.class)
                .stream().findFirst().orElseThrow());
        // an index seek does not bring it back either
        assertEquals(List.of(), c.queryItems("SELECT * FROM c WHERE c.id = 'default'", new CosmosQueryRequestOptions(),
                ObjectNode.class).stream().toList());
        // an expired item is gone: its id can be created again, and replacing or deleting it is 404
        assertEquals(404, assertThrows(CosmosException.class, () -> c.replaceItem(item("short", null), "short",
                new PartitionKey("p"), new CosmosItemRequestOptions())).getStatusCode());
        assertEquals(404, assertThrows(CosmosException.class,
                () -> c.deleteItem("short", new PartitionKey("p"), new CosmosItemRequestOptions())).getStatusCode());
        assertEquals(201, c.createItem(item("default", null)).getStatusCode());
        assertTrue(readable(c, "default"));
        clock.advance(Duration.ofSeconds(90)); // 100 s after the first writes
        assertEquals(Set.of("never"), ids(c));
    }

    @Test
    void aWriteRestartsTheTimer() {
        CosmosContainer c = container("c", 10);
        c.createItem(item("a", null));
        clock.advance(Duration.ofSeconds(8));
        c.upsertItem(item("a", null));
        clock.advance(Duration.ofSeconds(8));
        assertTrue(readable(c, "a"));
        clock.advance(Duration.ofSeconds(2));
        assertTrue(!readable(c, "a"));
    }

    @Test
    void minusOneDefaultExpiresOnlyItemsWithTheirOwnTtl() {
        CosmosContainer c = container("c", -1);
        c.createItem(item("keep", null));
        c.createItem(item("go", 5));
        clock.advance(Duration.ofSeconds(5));
        assertEquals(Set.of("keep"), ids(c));
    }

    @Test
    void turningTimeToLiveOnLaterExpiresExistingItemsByTheirTs() throws InterruptedException {
        CosmosContainer c = container("c", null);
        c.createItem(item("old", null));
        clock.advance(Duration.ofSeconds(60));
        c.createItem(item("young", null));
        CosmosContainerProperties p = c.read().getProperties();
        p.setDefaultTimeToLiveInSeconds(30);
        c.replace(p);
        assertEquals(Set.of("young"), ids(c));
        assertEquals(1, client.coreStore().ttlPurger().awaitPurgedTotal(1, TestTime.patience(Duration.ofSeconds(30))));
        clock.advance(Duration.ofSeconds(30));
        assertEquals(Set.of(), ids(c));
        assertEquals(2, client.coreStore().ttlPurger().awaitPurgedTotal(2, TestTime.patience(Duration.ofSeconds(30))));
        // turned off again: nothing expires any more
        c.createItem(item("z", null));
        p.setDefaultTimeToLiveInSeconds(null);
        c.replace(p);
        clock.advance(Duration.ofDays(365));
        assertEquals(Set.of("z"), ids(c));
    }

    @Test
    void thePurgerDeletesExpiredItemsAndRestartKeepsTheExpiryIndex() throws InterruptedException {
        CosmosContainer c = container("c", 10);
        for (int i = 0; i < 500; i++) {
            c.createItem(M.createObjectNode().put("id", "i" + i).put("pk", "p" + (i % 7)));
        }
        c.createItem(item("stay", -1));
        client.close();
        client = new CosmosClientBuilder().dataDirectory(dir).clock(clock).buildClient();
        c = client.getDatabase("db").getContainer("c");
        long before = client.coreStore().ttlPurger().purgedTotal();
        clock.advance(Duration.ofSeconds(10));
        assertEquals(Set.of("stay"), ids(c));
        client.coreStore().ttlPurger().purgeNow(); // beside the background purger: each item is deleted once
        assertEquals(before + 500, client.coreStore().ttlPurger().awaitPurgedTotal(before + 500,
                TestTime.patience(Duration.ofSeconds(60))));
        long items = c.readPartitionStatistics().physicalPartitions().stream().mapToLong(p -> p.itemCount()).sum();
        assertEquals(1, items, "the purged items left the partition statistics too");
        assertEquals(0, client.coreStore().ttlPurger().purgeNow());
    }
}

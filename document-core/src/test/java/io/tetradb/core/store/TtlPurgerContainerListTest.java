package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.ttl.ManualClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The purger lists (and parses) the container definitions only when a container was created, replaced or deleted,
 * not on every round, and still purges containers that gain TTL or appear later.
 */
class TtlPurgerContainerListTest {
    static final ObjectMapper M = new ObjectMapper();
    @TempDir
    Path dir;
    final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T00:00:00Z"));

    private static ObjectNode item(String id) {
        return M.createObjectNode().put("id", id).put("pk", "a");
    }

    private static final PartitionKeyValue PK = PartitionKeyValue.of(M.getNodeFactory().textNode("a"));

    @Test
    void roundsReuseTheListingUntilTheCatalogChanges() {
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir).withClock(clock))) {
            TtlPurger purger = s.ttlPurger();
            purger.stop(); // the rounds below are the only ones: their listings are counted exactly
            s.createDatabase("db", null);
            ContainerStore a = s.createContainer("db", "a", PartitionKeyDefinition.of("/pk"), null, 5, null, null);
            a.execute(PK, ItemOperation.create(item("x")));
            clock.advance(Duration.ofSeconds(5));
            assertEquals(1, purger.purgeNow());
            long listed = purger.containerListings();
            for (int i = 0; i < 20; i++) {
                purger.purgeNow();
            }
            assertEquals(listed, purger.containerListings(), "no container changed: no new listing");

            // a container created later (TTL on) is purged: creation invalidates the listing
            ContainerStore b = s.createContainer("db", "b", PartitionKeyDefinition.of("/pk"), null, 5, null, null);
            b.execute(PK, ItemOperation.create(item("y")));
            clock.advance(Duration.ofSeconds(5));
            assertEquals(1, purger.purgeNow());
            assertTrue(purger.containerListings() > listed);

            // TTL switched on by a replace: the same container store, purged from the next round
            ContainerStore c = s.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, null, null);
            c.execute(PK, ItemOperation.create(item("z")));
            purger.purgeNow();
            s.replaceContainer("db", "c", null, null, 1);
            clock.advance(Duration.ofSeconds(1));
            assertEquals(1, purger.purgeNow());

            // a deleted container drops out of the listing; the rounds go on
            b.execute(PK, ItemOperation.create(item("w")));
            s.deleteContainer("db", "b");
            clock.advance(Duration.ofSeconds(5));
            assertEquals(0, purger.purgeNow());
            a.execute(PK, ItemOperation.create(item("v")));
            clock.advance(Duration.ofSeconds(5));
            assertEquals(1, purger.purgeNow());
            s.deleteDatabase("db");
            assertEquals(0, purger.purgeNow());
        }
    }

    /**
     * Strings are indexed by their first 256 characters on the write path, and the purge deletes exactly those keys
     * (the same {@code indexEntries} as the write): nothing of the item is left in INDEX, and no key holds the whole
     * 1,000-character string.
     */
    @Test
    void longStringsAreIndexedCutAndThePurgeRemovesExactlyThoseKeys() {
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir).withClock(clock))) {
            s.ttlPurger().stop();
            s.createDatabase("db", null);
            ContainerStore c = s.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, 5, null, null);
            ObjectNode doc = item("long").put("pad", "x".repeat(1000));
            doc.putArray("nested").addArray().add("y".repeat(700)).add(3);
            c.execute(PK, ItemOperation.create(doc));
            byte[] coll = Keys.collId(c.collId());
            byte[] end = Keys.collId(c.collId() + 1);
            int[] longest = {0};
            long[] keys = {0};
            s.engine().scan(io.tetradb.core.storage.Space.INDEX, coll, end, kv -> {
                keys[0]++;
                longest[0] = Math.max(longest[0], kv.key().length);
                return true;
            });
            assertTrue(keys[0] > 0);
            assertTrue(longest[0] < 400, "an indexed string is cut to 256 characters, key of " + longest[0] + " bytes");
            assertTrue(c.checkIndexes().consistent());
            clock.advance(Duration.ofSeconds(5));
            assertEquals(1, s.ttlPurger().purgeNow());
            keys[0] = 0;
            s.engine().scan(io.tetradb.core.storage.Space.INDEX, coll, end, kv -> ++keys[0] > 0);
            assertEquals(0, keys[0], "the purge deleted every index key the write made");
            assertTrue(c.checkIndexes().consistent());
        }
    }
}

package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.ttl.ManualClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An open transaction's operation that would grow its partition past the limit is undone whole, its item's expiry
 * too (pw-fixed: the transaction's expiry map is made only on its first use, and the undo must still restore it).
 */
class OpenTransactionUndoTest {
    static final ObjectMapper M = new ObjectMapper();
    @TempDir
    Path dir;
    final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T00:00:00Z"));

    private static ObjectNode item(String id, int ttl, int filler) {
        return M.createObjectNode().put("id", id).put("pk", "p").put("ttl", ttl).put("f", "x".repeat(filler));
    }

    @Test
    void anUndoneReplaceLeavesTheFirstWritesExpiry() {
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir).withClock(clock)
                .withLogicalPartitionLimitBytes(8 * 1024))) {
            s.createDatabase("db", null);
            ContainerStore c = s.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, -1, null, null);
            PartitionKeyValue pk = PartitionKeyValue.of(List.of(M.getNodeFactory().textNode("p")));
            try (OpenTransaction tx = c.begin(pk)) {
                tx.apply(ItemOperation.create(item("a", 10, 10)));
                tx.apply(ItemOperation.create(item("b", 10, 10)));
                StoreException e = assertThrows(StoreException.class,
                        () -> tx.apply(ItemOperation.upsert(item("b", 5_000, 16 * 1024), null)));
                assertEquals(403, e.status(), e.getMessage());
                tx.apply(ItemOperation.upsert(item("a", 20, 10), null)); // a later write of the transaction counts
                tx.commit();
            }
            assertEquals(2, TtlPurgeTest.expiryEntries(s, c));
            clock.advance(Duration.ofSeconds(11));
            s.ttlPurger().purgeNow(); // the background purger may take part: count the total
            assertEquals(1, s.ttlPurger().purgedTotal(), "b expires at 10 s: the undone write's 5,000 s is not kept");
            assertEquals(1, TtlPurgeTest.expiryEntries(s, c));
            clock.advance(Duration.ofSeconds(10));
            s.ttlPurger().purgeNow();
            assertEquals(2, s.ttlPurger().purgedTotal(), "a expires at 20 s, its second write's");
            assertEquals(0, TtlPurgeTest.expiryEntries(s, c));
        }
    }

    /**
     * txn-written: an undone write puts back the item's whole previous record (version, lsn and index entries), and an
     * undone first write of an item leaves nothing of it: the committed index holds exactly the entries of what is
     * stored, and the stored version is the transaction's earlier one.
     */
    @Test
    void anUndoneWriteLeavesThePreviousVersionsEntriesOrNothing() {
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir).withClock(clock)
                .withLogicalPartitionLimitBytes(8 * 1024))) {
            s.createDatabase("db", null);
            ContainerStore c = s.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, -1, null, null);
            PartitionKeyValue pk = PartitionKeyValue.of(List.of(M.getNodeFactory().textNode("p")));
            String etag;
            try (OpenTransaction tx = c.begin(pk)) {
                etag = tx.apply(ItemOperation.create(tagged("a", "one", 10))).etag();
                assertEquals(403, assertThrows(StoreException.class,
                        () -> tx.apply(ItemOperation.upsert(tagged("a", "two", 16 * 1024), null))).status());
                assertEquals(403, assertThrows(StoreException.class,
                        () -> tx.apply(ItemOperation.create(tagged("n", "three", 16 * 1024)))).status());
                tx.commit();
            }
            ContainerStore.IndexCheck check = c.checkIndexes();
            assertTrue(check.consistent(), check.toString());
            ItemResult a = c.read(pk, "a", null);
            assertEquals(200, a.status());
            assertEquals(etag, a.etag());
            assertEquals("one", s.codec().parse(a.stored()).get("tag").asText());
            assertEquals(404, assertThrows(StoreException.class, () -> c.read(pk, "n", null)).status());
        }
    }

    private static ObjectNode tagged(String id, String tag, int filler) {
        return M.createObjectNode().put("id", id).put("pk", "p").put("tag", tag).put("f", "x".repeat(filler));
    }
}

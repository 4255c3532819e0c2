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
            try (ContainerStore.OpenTransaction tx = c.begin(pk)) {
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
}

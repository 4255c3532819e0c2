package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The faces' exact-cache rule ({@link StampCheckedCache}) over a real container's write stamps: an entry read while a
 * write came in is not kept, a write to the partition makes the next lookup a miss, and the bounds drop entries.
 */
class StampCheckedCacheTest {
    private static final ObjectMapper M = new ObjectMapper();

    @TempDir
    Path dir;

    /** What a face would keep: the stored bytes of an item. */
    private static final class Held extends StampCheckedCache.Entry {
        final byte[] stored;

        Held(long stamp, byte[] stored, int bytes) {
            super(stamp, bytes);
            this.stored = stored;
        }
    }

    private static PartitionKeyValue pk(String v) {
        return PartitionKeyValue.of(List.of(PartitionKeyValue.component(v)));
    }

    private static void upsert(ContainerStore c, String id, int v) {
        c.execute(pk("p"), ItemOperation.upsert(M.createObjectNode().put("id", id).put("pk", "p").put("v", v), null));
    }

    /** A face's read: the stamp first, then the item. */
    private static Held read(ContainerStore c, String id) {
        long stamp = c.writeStamps().stamp(pk("p"));
        return new Held(stamp, c.read(pk("p"), id, null).stored(), 100);
    }

    @Test
    void aWriteBetweenTheStampReadAndTheStoreIsNotKeptAndABumpedStampIsAMiss() throws Exception {
        try (CoreStore s = CoreStore.open(StoreConfig.defaults(dir))) {
            s.createDatabase("db", null);
            ContainerStore c = s.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, 400, null);
            WriteStamps stamps = c.writeStamps();
            StampCheckedCache<String, Held> cache = new StampCheckedCache<>(1 << 20);
            upsert(c, "a", 1);

            Held raced = read(c, "a");
            upsert(c, "a", 2); // lands after the read, before the entry is kept
            assertFalse(cache.putIfCurrent("a", raced, stamps.stamp(pk("p"))), "a write came in between");
            assertNull(cache.peek("a"));
            assertEquals(0, cache.bytes());

            Held current = read(c, "a");
            assertTrue(cache.putIfCurrent("a", current, stamps.stamp(pk("p"))));
            assertSame(current, cache.get("a", stamps.stamp(pk("p"))), "unchanged stamp: a hit");
            assertEquals(2, c.codec().parse(current.stored, ObjectNode.class).get("v").asInt(), "the written version");

            upsert(c, "b", 3); // another item of the same partition
            assertNull(cache.get("a", stamps.stamp(pk("p"))), "a bumped stamp is a miss");
            assertSame(current, cache.peek("a"), "still there for a face that revalidates it");
            Held again = read(c, "a");
            assertTrue(cache.putIfCurrent("a", again, stamps.stamp(pk("p"))));
            assertSame(again, cache.get("a", stamps.stamp(pk("p"))));
            assertEquals(100, cache.bytes(), "the replaced entry left the count");

            c.execute(pk("p"), ItemOperation.delete("a", null));
            assertNull(cache.get("a", stamps.stamp(pk("p"))), "a delete bumps the stamp too");
            assertTrue(stamps.any() > 0);
        }
    }

    @Test
    void theBoundsDropEntriesAndCountWhatGrows() {
        StampCheckedCache<String, Held> cache = new StampCheckedCache<>(1_000);
        for (int i = 0; i < 10; i++) {
            assertTrue(cache.put("k" + i, new Held(1, null, 100)));
        }
        assertEquals(1_000, cache.bytes());
        assertEquals(10, cache.size());
        cache.put("k10", new Held(1, null, 100)); // past the bound: a quarter freed beside it
        assertTrue(cache.bytes() <= 750, "bytes " + cache.bytes());
        assertEquals(100L * cache.size(), cache.bytes(), "the count is what is held");
        assertTrue(cache.get("k10", 1) != null, "the new entry is kept");

        Held grown = cache.peek("k10");
        assertTrue(cache.canGrow("k10", grown, 50));
        cache.resized(50); // a face added 50 bytes to what the entry keeps
        assertEquals(100L * cache.size() + 50, cache.bytes());
        assertFalse(cache.canGrow("k10", grown, 1_000), "past the bound");
        assertFalse(cache.canGrow("k10", new Held(1, null, 100), 1), "not the entry held at the key");

        StampCheckedCache<String, Held> counted = new StampCheckedCache<>(1 << 20, 4);
        for (int i = 0; i < 5; i++) {
            counted.put("k" + i, new Held(1, null, 10));
        }
        assertTrue(counted.size() <= 4, "bounded in entries: " + counted.size());
        assertTrue(counted.get("k4", 1) != null);

        StampCheckedCache<String, Held> off = new StampCheckedCache<>(0);
        assertFalse(off.enabled());
        assertFalse(off.put("k", new Held(1, null, 10)));
        assertFalse(off.putIfCurrent("k", new Held(1, null, 10), 1));
        assertNull(off.get("k", 1));
        cache.clear();
        assertEquals(0, cache.bytes());
        assertEquals(0, cache.size());
    }
}

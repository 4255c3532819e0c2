package io.tetradb.core.storage.partition;

import io.tetradb.core.storage.CountingEngine;
import io.tetradb.core.storage.Durability;
import io.tetradb.core.storage.RocksEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 17 (write-cost): a write whose expected version was read under the core's own partition lock
 * ({@link PartitionWrite#expectedReadUnderLock()}) is applied by the embedded store without reading the partition's
 * statistics a second time; a write without that hint is still checked against the stored version.
 */
class EmbeddedVersionReadTest {
    @TempDir
    Path dir;

    @Test
    void aVersionReadUnderTheCoreLockIsNotReadAgainAndOthersAreStillChecked() {
        try (RocksEngine rocks = RocksEngine.open(dir, Durability.ASYNC, 8 << 20)) {
            CountingEngine engine = new CountingEngine(rocks);
            EmbeddedPartitionStore store = new EmbeddedPartitionStore(engine);
            LogicalPartition p = new LogicalPartition(7, "pk".getBytes(StandardCharsets.UTF_8));

            ApplyResult first = store.apply(write(p, 0, 1)); // no hint: the stored version is read
            assertTrue(first.applied());
            assertEquals(1, engine.metaGets.get(), "a write without the hint reads the partition's version");

            engine.metaGets.set(0);
            ApplyResult second = store.apply(write(p, 1, 2).expectedReadUnderLock(true));
            assertTrue(second.applied());
            assertEquals(0, engine.metaGets.get(), "a version read under the core's lock is not read again");
            assertEquals(2, store.version(p));

            engine.metaGets.set(0);
            ApplyResult stale = store.apply(write(p, 1, 3)); // another writer's stale version: refused
            assertFalse(stale.applied());
            assertEquals(2, stale.version());
            // batch-cpu: a partition with a record: the record's presence, then (after the newest index key) the record
            assertEquals(2, engine.metaGets.get());
            assertEquals(2, store.version(p), "nothing written");
        }
    }

    private static PartitionWrite write(LogicalPartition p, long expected, long next) {
        return PartitionWrite.builder(p, expected, next).put("item-" + next, new byte[]{1, 2, 3})
                .stats(new PartitionStats(10 * next, next, next)).build();
    }
}

package io.tetradb.core.store;

import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.throughput.ThroughputSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A raise reports pending while its splits have not run; the partitions serve at most 10,000 RU/s meanwhile. */
class ThroughputSplitPendingTest {
    @TempDir
    Path dir;

    @Test
    void pendingUntilTheSplitsRan() throws Exception {
        try (CoreStore store = CoreStore.open(StoreConfig.defaults(dir))) {
            store.createDatabase("db", null);
            ContainerStore c = store.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, 400, null);
            ThroughputCatalog.ContainerThroughput r;
            c.mapLock.readLock().lock(); // a split needs the map lock exclusively: it waits
            try {
                r = store.throughput().replaceContainer("db", "c", ThroughputSettings.manual(25_000));
                assertTrue(r.replacePending());
                assertTrue(store.throughput().effective(c).replacePending());
                assertEquals(1, c.partitionMap().partitions().size());
                var budgets = store.rateLimiter().budgets(c).all();
                assertEquals(10_000, budgets.get(0).ruPerSecond(), 1e-9, "one partition serves 10,000 at most");
            } finally {
                c.mapLock.readLock().unlock();
            }
            store.throughput().awaitSplits();
            assertEquals(3, c.partitionMap().partitions().size());
            assertFalse(store.throughput().effective(c).replacePending());
            store.rateLimiter().budgets(c).all().forEach(b -> assertEquals(25_000 / 3.0, b.ruPerSecond(), 1e-9));
        }
    }

    @Test
    void settingsSurviveReopening() {
        try (CoreStore store = CoreStore.open(StoreConfig.defaults(dir))) {
            store.createDatabase("db", null);
            store.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, 400, null);
            store.throughput().replaceContainer("db", "c", ThroughputSettings.autoscale(5000));
        }
        try (CoreStore store = CoreStore.open(StoreConfig.defaults(dir))) {
            assertEquals(ThroughputSettings.autoscale(5000),
                    store.throughput().effective(store.container("db", "c")).settings());
        }
    }
}

package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.core.partition.PartitionKeyDefinition;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.storage.partition.PartitionStore;
import io.tetradb.core.storage.partition.PartitionWrite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 17 (write-cost): the core tells its own embedded partition store that a transaction's version was read under
 * the partition's lock (so the store skips its second statistics read), and tells no other store so.
 */
class OwnPartitionVersionTest {
    @TempDir
    Path dir;
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void onlyTheCoresOwnEmbeddedStoreIsToldTheVersionIsCurrent() {
        try (CoreStore store = CoreStore.open(StoreConfig.defaults(dir))) {
            store.createDatabase("db", null);
            ContainerStore c = store.createContainer("db", "c", PartitionKeyDefinition.of("/pk"), null, null, null, null);
            assertTrue(store.versionsReadUnderOwnLock(), "the core's own embedded store");
            PartitionStore own = store.partitions();
            List<PartitionWrite> seen = new ArrayList<>();
            store.usePartitions(recording(own, seen));
            assertFalse(store.versionsReadUnderOwnLock(), "a store put in by somebody else is checked as always");
            c.execute(pk("p"), ItemOperation.create(json.createObjectNode().put("id", "a").put("pk", "p")));
            assertEquals(1, seen.size());
            assertFalse(seen.get(0).expectedReadUnderLock());

            store.usePartitions(own);
            assertTrue(store.versionsReadUnderOwnLock());
            for (int i = 0; i < 20; i++) { // applied without the second read: versions still follow each other
                c.execute(pk("p"), ItemOperation.upsert(json.createObjectNode().put("id", "b").put("pk", "p").put("n", i), null));
            }
            assertEquals(seen.get(0).next() + 20, own.version(seen.get(0).partition()));
            assertTrue(c.checkIndexes().consistent());
        }
    }

    private PartitionKeyValue pk(String v) {
        return PartitionKeyValue.of(json.getNodeFactory().textNode(v));
    }

    private static PartitionStore recording(PartitionStore inner, List<PartitionWrite> seen) {
        return (PartitionStore) Proxy.newProxyInstance(PartitionStore.class.getClassLoader(),
                new Class<?>[]{PartitionStore.class}, (proxy, m, args) -> {
                    if (m.getName().equals("apply")) {
                        seen.add((PartitionWrite) args[0]);
                    }
                    try {
                        return m.invoke(inner, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}

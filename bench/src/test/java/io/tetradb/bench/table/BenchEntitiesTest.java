package io.tetradb.bench.table;

import com.azure.data.tables.models.TableEntity;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The result sizes the benchmark checks every side against follow from how the entities are made. */
class BenchEntitiesTest {
    @Test
    void keysAreUniqueAndEveryPartitionHoldsItsRows() {
        BenchEntities d = new BenchEntities(5_000);
        Set<String> keys = new HashSet<>();
        Map<String, Integer> perPartition = new HashMap<>();
        for (int i = 0; i < d.n; i++) {
            assertTrue(keys.add(d.partitionKey(i) + "|" + d.rowKey(i)));
            perPartition.merge(d.partitionKey(i), 1, Integer::sum);
        }
        assertEquals(25, perPartition.size());
        perPartition.values().forEach(c -> assertEquals(BenchEntities.ROWS_PER_PARTITION, c));
        assertEquals("PartitionKey eq 'p0003' and RowKey ge 'r000150' and RowKey lt 'r000200'", d.rangeFilter(3, 150));
    }

    @Test
    void everyCategoryHasTwentyEntitiesInSeveralPartitions() {
        BenchEntities d = new BenchEntities(20_000);
        Map<String, Integer> count = new HashMap<>();
        Map<String, Set<String>> partitions = new HashMap<>();
        for (int i = 0; i < d.n; i++) {
            count.merge(d.category(i), 1, Integer::sum);
            partitions.computeIfAbsent(d.category(i), k -> new HashSet<>()).add(d.partitionKey(i));
        }
        assertEquals(d.categories(), count.size());
        count.values().forEach(c -> assertEquals(BenchEntities.PER_CATEGORY, c));
        partitions.values().forEach(p -> assertTrue(p.size() > 1, "a category spread over partitions"));
    }

    @Test
    void anEntityIsAboutOneKilobyteOfJson() throws Exception {
        TableEntity e = new BenchEntities(5_000).entity(1234);
        assertEquals(10, e.getProperties().size() - 2); // without PartitionKey and RowKey
        int bytes = new ObjectMapper().findAndRegisterModules().writeValueAsBytes(e.getProperties()).length;
        assertTrue(bytes > 900 && bytes < 1200, "entity JSON bytes: " + bytes);
    }

    @Test
    void refusesCountsThatBreakThePartitionShape() {
        assertThrows(IllegalArgumentException.class, () -> new BenchEntities(5_050));
    }
}

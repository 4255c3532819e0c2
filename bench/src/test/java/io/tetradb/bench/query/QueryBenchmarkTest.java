package io.tetradb.bench.query;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The data design the query types rely on: fixed result sizes at every store size. */
class QueryBenchmarkTest {
    @Test
    void itemsAreShapedLikeDevicesJsonl() throws Exception {
        ObjectNode item = QueryBenchmark.item(123_456);
        for (String p : new String[]{"id", "deviceId", "temperature", "ts", "seq", "lot", "tags"}) {
            assertTrue(item.has(p), p);
        }
        assertTrue(item.get("tags").isArray());
        int bytes = new ObjectMapper().writeValueAsBytes(item).length;
        assertTrue(bytes >= 500 && bytes <= 1024, "item of " + bytes + " B");
        assertEquals(QueryBenchmark.ts(123_456), item.get("ts").textValue());
    }

    @Test
    void everyLotHasTenItemsOfTenDevicesAtEverySize() {
        for (long size : new long[]{100_000, 200_000}) {
            Map<String, Set<String>> devicesPerLot = new HashMap<>();
            for (long seq = 0; seq < size; seq++) {
                devicesPerLot.computeIfAbsent(QueryBenchmark.lot(seq), k -> new HashSet<>())
                        .add(QueryBenchmark.deviceId(QueryBenchmark.device(seq)));
            }
            assertEquals(size / QueryBenchmark.LOT_SIZE, devicesPerLot.size());
            for (long lot = 0; lot < size / QueryBenchmark.LOT_SIZE; lot++) {
                Set<String> devices = devicesPerLot.get(QueryBenchmark.lotName(lot));
                assertEquals(QueryBenchmark.LOT_SIZE, devices == null ? 0 : devices.size(), "lot " + lot);
            }
        }
    }

    @Test
    void timestampsSortLikeSeq() {
        assertTrue(QueryBenchmark.ts(999_999).compareTo(QueryBenchmark.ts(1_000_000)) < 0);
        assertTrue(QueryBenchmark.ts(9).compareTo(QueryBenchmark.ts(10)) < 0);
        assertEquals(20, QueryBenchmark.ts(0).length());
        assertEquals(20, QueryBenchmark.ts(1_000_000).length());
    }
}

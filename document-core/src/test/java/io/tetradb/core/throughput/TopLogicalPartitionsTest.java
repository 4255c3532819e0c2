package io.tetradb.core.throughput;

import io.tetradb.core.partition.PartitionKeyValue;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fixed-size sketch behind a partition's "top logical partitions". */
class TopLogicalPartitionsTest {

    @Test
    void countsExactlyWhileFewKeysAreSeen() {
        TopLogicalPartitions t = new TopLogicalPartitions();
        for (int i = 0; i < 50; i++) {
            t.add(PartitionKeyValue.of(PartitionKeyValue.component("k" + i)), i + 1);
            t.add(PartitionKeyValue.of(PartitionKeyValue.component("k" + i)), i + 1); // a new but equal value
        }
        List<Map.Entry<String, Double>> top = t.top(3);
        assertEquals(List.of("[\"k49\"]", "[\"k48\"]", "[\"k47\"]"), top.stream().map(Map.Entry::getKey).toList());
        assertEquals(100, top.get(0).getValue(), 1e-9);
    }

    @Test
    void aHotPartitionThatComesAfterManyColdOnesIsOnTop() {
        PartitionBudget b = new PartitionBudget("p", 10_000, 0);
        for (int i = 0; i < 100_000; i++) { // far more distinct keys than the sketch holds
            b.settle(1, PartitionKeyValue.of(PartitionKeyValue.component("cold-" + i)), 0);
        }
        PartitionKeyValue hot = PartitionKeyValue.of(PartitionKeyValue.component("hot"));
        for (int i = 0; i < 20_000; i++) {
            b.settle(1, hot, 0);
            b.settle(1, PartitionKeyValue.of(PartitionKeyValue.component("late-cold-" + i)), 0);
        }
        List<Map.Entry<String, Double>> top = b.topLogicalPartitions(5);
        assertEquals("[\"hot\"]", top.get(0).getKey());
        double ru = top.get(0).getValue();
        assertTrue(ru >= 20_000, "a count is never below what the key consumed: " + ru);
        // over-counting is bounded by the count it took over: at most its set's share of the RU before it came
        assertTrue(ru <= 20_000 + 2.0 * 140_000 / TopLogicalPartitions.SETS, "over-counted: " + ru);
    }
}

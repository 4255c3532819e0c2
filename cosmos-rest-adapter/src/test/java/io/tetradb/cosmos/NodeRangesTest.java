package io.tetradb.cosmos;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code @azure/cosmos} 4.10.1 against physical partition ranges ({@code cosmos-ranges.mjs}): feed ranges, the change
 * feed per range and for the container, queries over several ranges, a paged query and a change feed across a split.
 */
class NodeRangesTest extends ServerFixture {
    @Override
    CosmosRestOptions options() {
        return CosmosRestOptions.defaults().withPhysicalPartitionRanges(true);
    }

    @Test
    void nodeSdkOverPhysicalRanges() throws Exception {
        String out = NodeSdkTest.runScript("cosmos-ranges.mjs", Map.of(), endpoint(), KEY);
        assertTrue(out.contains("OK node ranges"), out);
    }
}

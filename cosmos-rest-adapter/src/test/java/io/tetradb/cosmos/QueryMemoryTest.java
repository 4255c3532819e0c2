package io.tetradb.cosmos;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import io.tetradb.core.query.eval.QueryMemory;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A query that must hold more than the query memory bound to sort, group or de-duplicate fails with 400 and says
 * why, through the azure-cosmos SDK; queries that stream, or sort only their TOP n, are not limited.
 */
class QueryMemoryTest extends ServerFixture {

    @Test
    void aSortOverTheBoundIs400AndATopNSortIsNot() {
        sdk.createDatabaseIfNotExists("qm");
        sdk.getDatabase("qm").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"));
        CosmosContainer c = sdk.getDatabase("qm").getContainer("c");
        String pad = "x".repeat(20_000);
        for (int i = 0; i < 120; i++) { // about 2.4 MB in one logical partition
            c.upsertItem(Map.of("id", "d" + i, "pk", "p", "n", i, "pad", pad));
        }
        long before = QueryMemory.limitBytes();
        QueryMemory.setLimitBytes(1024 * 1024);
        try {
            CosmosQueryRequestOptions inP = new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey("p"));
            CosmosException e = assertThrows(CosmosException.class, () -> c.queryItems(
                    "SELECT * FROM c ORDER BY c.n DESC", inP, JsonNode.class).stream().count());
            assertEquals(400, e.getStatusCode());
            assertTrue(e.getMessage().contains("exceeded the maximum allowed memory usage of 1 MB"), e.getMessage());
            CosmosException distinct = assertThrows(CosmosException.class, () -> c.queryItems(
                    "SELECT DISTINCT c.pad, c.n FROM c", inP, JsonNode.class).stream().count());
            assertEquals(400, distinct.getStatusCode());

            List<Integer> top = c.queryItems("SELECT TOP 3 c.n FROM c ORDER BY c.n DESC", inP, JsonNode.class)
                    .stream().map(n -> n.get("n").asInt()).toList();
            assertEquals(List.of(119, 118, 117), top);
            assertEquals(120, c.queryItems("SELECT * FROM c", inP, JsonNode.class).stream().count(),
                    "a streamed query is not limited");
        } finally {
            QueryMemory.setLimitBytes(before);
        }
        assertEquals(120, c.queryItems("SELECT * FROM c ORDER BY c.n", new CosmosQueryRequestOptions()
                .setPartitionKey(new PartitionKey("p")), JsonNode.class).stream().count());
    }
}

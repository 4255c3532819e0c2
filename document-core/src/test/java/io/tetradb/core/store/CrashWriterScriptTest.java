package io.tetradb.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.core.script.ScriptLimits;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosException;
import io.tetradb.document.CosmosStoredProcedureProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link CrashWriter}'s stored procedure batch when the script's bounds refuse one of its operations (Cosmos DB's
 * bounded execution: past 80 % of the time bound, or past the operation count, an operation returns false and does
 * nothing). The refusal is made here by the operation count (2), which is the same refusal a slow child meets by time:
 * the batch must write nothing and fail (the writer runs it again), never commit the operations before the refusal
 * and be acknowledged as a whole batch. With the script before (it ignored the return value) this run committed 2 of
 * the 10 items and returned success: CrashTest's "acknowledged batch of 10 found with 2 items".
 */
class CrashWriterScriptTest {
    private static final ObjectMapper M = new ObjectMapper();

    @TempDir
    Path dir;

    private static CosmosContainer container(CosmosClient client) {
        client.createDatabaseIfNotExists("crash");
        client.getDatabase("crash").createContainerIfNotExists("c", "/pk");
        CosmosContainer c = client.getDatabase("crash").getContainer("c");
        c.getScripts().createStoredProcedure(new CosmosStoredProcedureProperties("writeBatch", CrashWriter.WRITE_BATCH));
        c.createItem(M.createObjectNode().put("id", "counter").put("pk", "p1").put("v", 0));
        return c;
    }

    /** Items per batch label, and the counter, as the store holds them (the check CrashTest makes). */
    private static Map<String, Integer> stored(CosmosClient client) {
        ContainerStore store = client.coreStore().container("crash", "c");
        Map<String, Integer> perBatch = new HashMap<>();
        store.scan(io.tetradb.core.partition.EpkRange.FULL, bytes -> {
            var item = store.codec().parse(bytes);
            perBatch.merge(item.has("batch") ? item.get("batch").asText() : "counter=" + item.get("v").asInt(), 1,
                    Integer::sum);
            return true;
        });
        return perBatch;
    }

    @Test
    void aBatchWhoseOperationIsRefusedWritesNothingAndFails() {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir)
                .scriptLimits(ScriptLimits.DEFAULTS.withMaxOperations(2)).buildClient()) {
            CosmosContainer c = container(client);
            CosmosException refused = null;
            try {
                CrashWriter.executeWriteBatch(c, 0, 1, "p1"); // refused on every attempt: it gives up
            } catch (CosmosException e) {
                refused = e;
            }
            assertEquals(Map.of("counter=0", 1), stored(client), "nothing of the refused batch is stored");
            assertNotNull(refused, "the refused batch failed: the writer would not acknowledge it");
            assertTrue(refused.getMessage().contains(CrashWriter.NOT_ACCEPTED), refused.getMessage());
        }
    }

    @Test
    void aBatchWithinTheBoundsWritesItsTenItemsAndTheCounter() {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            CrashWriter.executeWriteBatch(container(client), 0, 1, "p1");
            assertEquals(Map.of("0-1", CrashWriter.ITEMS, "counter=1", 1), stored(client));
        }
    }
}

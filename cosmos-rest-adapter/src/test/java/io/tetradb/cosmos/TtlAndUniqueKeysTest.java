package io.tetradb.cosmos;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosBatch;
import com.azure.cosmos.models.CosmosBatchResponse;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.UniqueKey;
import com.azure.cosmos.models.UniqueKeyPolicy;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.ttl.ManualClock;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Time to live and unique keys through the azure-cosmos SDK: both enforced by the core, seen by the REST face. */
class TtlAndUniqueKeysTest extends ServerFixture {
    static final ObjectMapper M = new ObjectMapper();
    final ManualClock manual = new ManualClock();

    @Override
    Clock clock() {
        return manual;
    }

    private CosmosContainer container(Integer ttl, List<String> uniquePaths) {
        String db = unique("db");
        sdk.createDatabase(db);
        CosmosContainerProperties p = new CosmosContainerProperties("c", "/pk");
        if (ttl != null) {
            p.setDefaultTimeToLiveInSeconds(ttl);
        }
        if (uniquePaths != null) {
            p.setUniqueKeyPolicy(new UniqueKeyPolicy().setUniqueKeys(List.of(new UniqueKey(uniquePaths))));
        }
        sdk.getDatabase(db).createContainer(p);
        return sdk.getDatabase(db).getContainer("c");
    }

    private static ObjectNode item(String id, String pk) {
        return M.createObjectNode().put("id", id).put("pk", pk);
    }

    private static Set<String> ids(CosmosContainer c) {
        return c.queryItems("SELECT * FROM c", new CosmosQueryRequestOptions(), ObjectNode.class).stream()
                .map(n -> n.path("id").asText()).collect(Collectors.toSet());
    }

    @Test
    void expiredItemsVanishFromReadsAndQueries() {
        CosmosContainer c = container(10, null);
        c.createItem(item("a", "p"));
        c.createItem(item("b", "p").put("ttl", -1));
        assertEquals(10, c.read().getProperties().getDefaultTimeToLiveInSeconds());
        CosmosException bad = assertThrows(CosmosException.class, () -> c.createItem(item("z", "p").put("ttl", 0)));
        assertEquals(400, bad.getStatusCode());
        assertTrue(bad.getMessage().contains("The input ttl '0' is invalid"), bad.getMessage());
        manual.advance(Duration.ofSeconds(9));
        assertEquals(Set.of("a", "b"), ids(c));
        manual.advance(Duration.ofSeconds(1));
        assertEquals(Set.of("b"), ids(c));
        assertEquals(404, assertThrows(CosmosException.class,
                () -> c.readItem("a", new PartitionKey("p"), ObjectNode.class)).getStatusCode());
        assertEquals(1, c.readAllItems(new PartitionKey("p"), ObjectNode.class).stream().count());
    }

    @Test
    void uniqueKeysAreEnforcedByTheCoreForTheSdk() throws Exception {
        CosmosContainer c = container(null, List.of("/email"));
        c.createItem(item("u1", "t1").put("email", "a@x"));
        CosmosException dup = assertThrows(CosmosException.class,
                () -> c.createItem(item("u2", "t1").put("email", "a@x")));
        assertEquals(409, dup.getStatusCode());
        assertTrue(dup.getMessage().contains("Unique index constraint violation."), dup.getMessage());
        c.createItem(item("u2", "t2").put("email", "a@x"));
        CosmosBatch b = CosmosBatch.createCosmosBatch(new PartitionKey("t1"));
        b.createItemOperation(item("u3", "t1").put("email", "new@x"));
        b.createItemOperation(item("u4", "t1").put("email", "new@x"));
        CosmosBatchResponse r = c.executeCosmosBatch(b);
        assertFalse(r.isSuccessStatusCode());
        assertEquals(424, r.getResults().get(0).getStatusCode());
        assertEquals(409, r.getResults().get(1).getStatusCode());
        int writers = 8;
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        List<Future<Integer>> results = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            String id = "race" + w;
            results.add(pool.submit(() -> {
                go.await();
                try {
                    return c.createItem(item(id, "t3").put("email", "race@x")).getStatusCode();
                } catch (CosmosException e) {
                    return e.getStatusCode();
                }
            }));
        }
        go.countDown();
        int won = 0;
        for (Future<Integer> f : results) {
            int s = f.get();
            assertTrue(s == 201 || s == 409, "status " + s);
            won += s == 201 ? 1 : 0;
        }
        pool.shutdown();
        assertEquals(1, won);
    }
}

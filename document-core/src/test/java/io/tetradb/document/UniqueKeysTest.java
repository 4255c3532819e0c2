package io.tetradb.document;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Unique keys enforced by the core: per logical partition, missing = null, in batches, scripts, races, restarts. */
class UniqueKeysTest {
    static final ObjectMapper M = new ObjectMapper();
    @TempDir
    Path dir;
    CosmosClient client;
    CosmosContainer c;

    @BeforeEach
    void open() {
        client = new CosmosClientBuilder().dataDirectory(dir)
                .scriptLimits(StoredProcedureTest.limits()).buildClient();
        client.createDatabase("db");
        client.getDatabase("db").createContainer(new CosmosContainerProperties("users", "/tenant")
                .setUniqueKeyPolicy(new UniqueKeyPolicy().setUniqueKeys(List.of(
                        new UniqueKey(List.of("/email")),
                        new UniqueKey(List.of("/first", "/last"))))));
        c = client.getDatabase("db").getContainer("users");
    }

    @AfterEach
    void close() {
        client.close();
    }

    static ObjectNode user(String id, String tenant, String email) {
        ObjectNode n = M.createObjectNode().put("id", id).put("tenant", tenant);
        if (email != null) {
            n.put("email", email);
        }
        n.put("first", id).put("last", "x");
        return n;
    }

    private static void assertViolation(Runnable write) {
        CosmosException e = assertThrows(CosmosException.class, write::run);
        assertEquals(409, e.getStatusCode());
        assertEquals("Unique index constraint violation.", e.getMessage());
    }

    @Test
    void uniqueWithinALogicalPartitionOnly() {
        c.createItem(user("u1", "t1", "a@x"));
        assertViolation(() -> c.createItem(user("u2", "t1", "a@x")));
        assertViolation(() -> c.upsertItem(user("u2", "t1", "a@x")));
        assertEquals(201, c.createItem(user("u2", "t2", "a@x")).getStatusCode());
        // the policy reads back as given
        assertEquals(List.of("/first", "/last"), c.read().getProperties().getUniqueKeyPolicy().getUniqueKeys().get(1)
                .getPaths());
    }

    @Test
    void compositeKeysCompareAllTheirPaths() {
        c.createItem(user("u1", "t1", "1@x").put("first", "Ann").put("last", "Lee"));
        c.createItem(user("u2", "t1", "2@x").put("first", "Ann").put("last", "Kim"));
        assertViolation(() -> c.createItem(user("u3", "t1", "3@x").put("first", "Ann").put("last", "Lee")));
    }

    @Test
    void aMissingValueCountsAsNull() {
        c.createItem(user("u1", "t1", null));
        assertViolation(() -> c.createItem(user("u2", "t1", null)));
        assertViolation(() -> c.createItem(user("u3", "t1", null).putNull("email")));
        // numbers compare as numbers: 1 and 1.0 are the same value
        c.createItem(user("n1", "t1", null).put("email", 1));
        assertViolation(() -> c.createItem(user("n2", "t1", null).put("email", 1.0)));
    }

    @Test
    void changesAndDeletesFreeTheirValues() {
        c.createItem(user("u1", "t1", "a@x"));
        c.upsertItem(user("u1", "t1", "a@x").put("age", 3)); // keeps its own value
        c.replaceItem(user("u1", "t1", "b@x"), "u1", new PartitionKey("t1"), new CosmosItemRequestOptions());
        c.createItem(user("u2", "t1", "a@x"));
        assertViolation(() -> c.patchItem("u2", new PartitionKey("t1"),
                CosmosPatchOperations.create().set("/email", "b@x"), ObjectNode.class));
        c.deleteItem("u1", new PartitionKey("t1"), new CosmosItemRequestOptions());
        c.patchItem("u2", new PartitionKey("t1"), CosmosPatchOperations.create().set("/email", "b@x"), ObjectNode.class);
        c.createItem(user("u3", "t1", "a@x"));
    }

    @Test
    void aBatchThatWouldDuplicateFailsWholeWithFourTwentyFours() {
        c.createItem(user("u0", "t1", "zero@x"));
        CosmosBatch b = CosmosBatch.createCosmosBatch(new PartitionKey("t1"));
        b.createItemOperation(user("u1", "t1", "a@x"));
        b.createItemOperation(user("u2", "t1", "a@x"));
        b.createItemOperation(user("u3", "t1", "c@x"));
        CosmosBatchResponse r = c.executeCosmosBatch(b);
        assertFalse(r.isSuccessStatusCode());
        assertEquals(424, r.getResults().get(0).getStatusCode());
        assertEquals(409, r.getResults().get(1).getStatusCode());
        assertEquals(424, r.getResults().get(2).getStatusCode());
        assertEquals(404, assertThrows(CosmosException.class,
                () -> c.readItem("u1", new PartitionKey("t1"), ObjectNode.class)).getStatusCode());
        // inside one batch a value freed by an earlier operation can be taken by a later one
        CosmosBatch swap = CosmosBatch.createCosmosBatch(new PartitionKey("t1"));
        swap.deleteItemOperation("u0");
        swap.createItemOperation(user("u1", "t1", "zero@x"));
        assertTrue(c.executeCosmosBatch(swap).isSuccessStatusCode());
    }

    @Test
    void aStoredProcedureThatWouldDuplicateCommitsNothing() {
        String body = "function two(a, b) { var coll = getContext().getCollection();"
                + " coll.createDocument(coll.getSelfLink(), a, function (err) { if (err) throw err;"
                + "  coll.createDocument(coll.getSelfLink(), b, function (err2) { if (err2) throw err2; }); }); }";
        c.getScripts().createStoredProcedure(new CosmosStoredProcedureProperties("two", body));
        CosmosStoredProcedureRequestOptions o = new CosmosStoredProcedureRequestOptions()
                .setPartitionKey(new PartitionKey("t1"));
        CosmosException e = assertThrows(CosmosException.class, () -> c.getScripts().getStoredProcedure("two")
                .execute(List.of(user("s1", "t1", "s@x"), user("s2", "t1", "s@x")), o));
        assertTrue(e.getStatusCode() >= 400, e.toString());
        assertEquals(404, assertThrows(CosmosException.class,
                () -> c.readItem("s1", new PartitionKey("t1"), ObjectNode.class)).getStatusCode());
        c.getScripts().getStoredProcedure("two").execute(List.of(user("s1", "t1", "s@x"), user("s2", "t1", "t@x")), o);
        c.readItem("s2", new PartitionKey("t1"), ObjectNode.class);
    }

    @Test
    void concurrentWritersOfTheSameValueHaveExactlyOneWinner() throws Exception {
        int writers = 16;
        for (int round = 0; round < 20; round++) {
            String email = "race" + round + "@x";
            CountDownLatch go = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(writers);
            List<Future<Integer>> results = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                String id = "r" + round + "-" + w;
                results.add(pool.submit(() -> {
                    go.await();
                    try {
                        return c.createItem(user(id, "t1", email)).getStatusCode();
                    } catch (CosmosException e) {
                        return e.getStatusCode();
                    }
                }));
            }
            go.countDown();
            int won = 0;
            int conflicts = 0;
            for (Future<Integer> f : results) {
                int s = f.get();
                won += s == 201 ? 1 : 0;
                conflicts += s == 409 ? 1 : 0;
            }
            pool.shutdown();
            assertEquals(1, won, "round " + round);
            assertEquals(writers - 1, conflicts, "round " + round);
        }
    }

    @Test
    void restartKeepsTheIndex() {
        c.createItem(user("u1", "t1", "a@x"));
        client.close();
        client = new CosmosClientBuilder().dataDirectory(dir)
                .scriptLimits(StoredProcedureTest.limits()).buildClient();
        c = client.getDatabase("db").getContainer("users");
        assertViolation(() -> c.createItem(user("u2", "t1", "a@x")));
    }

    @Test
    void policiesBeyondCosmosLimitsAreRefused() {
        List<UniqueKey> eleven = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            eleven.add(new UniqueKey(List.of("/k" + i)));
        }
        CosmosDatabase db = client.getDatabase("db");
        assertEquals(400, assertThrows(CosmosException.class, () -> db.createContainer(
                new CosmosContainerProperties("x", "/pk").setUniqueKeyPolicy(new UniqueKeyPolicy().setUniqueKeys(eleven))))
                .getStatusCode());
        List<String> seventeen = new ArrayList<>();
        for (int i = 0; i < 17; i++) {
            seventeen.add("/p" + i);
        }
        assertEquals(400, assertThrows(CosmosException.class, () -> db.createContainer(
                new CosmosContainerProperties("y", "/pk").setUniqueKeyPolicy(new UniqueKeyPolicy()
                        .setUniqueKeys(List.of(new UniqueKey(seventeen)))))).getStatusCode());
        List<UniqueKey> ten = new ArrayList<>(eleven.subList(0, 10));
        db.createContainer(new CosmosContainerProperties("z", "/pk").setUniqueKeyPolicy(new UniqueKeyPolicy()
                .setUniqueKeys(ten)));
    }
}

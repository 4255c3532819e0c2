package io.tetradb.document;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.storage.Durability;
import io.tetradb.testing.TestTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ConcurrencyAndDurabilityTest {
    static final ObjectMapper M = new ObjectMapper();

    @Test
    void concurrentIncrementsOfOneItemAreNeverLost(@TempDir Path dir) throws Exception {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).durability(Durability.ASYNC).buildClient()) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer("c", "/pk");
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            c.createItem(M.createObjectNode().put("id", "counter").put("pk", "p").put("n", 0));
            ExecutorService pool = Executors.newFixedThreadPool(4);
            List<Future<Set<String>>> futures = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                futures.add(pool.submit(() -> {
                    Set<String> etags = new HashSet<>();
                    for (int i = 0; i < 250; i++) {
                        etags.add(c.patchItem("counter", new PartitionKey("p"),
                                CosmosPatchOperations.create().increment("/n", 1), ObjectNode.class).getETag());
                    }
                    return etags;
                }));
            }
            Set<String> all = new HashSet<>();
            for (Future<Set<String>> f : futures) {
                all.addAll(f.get(TestTime.patience(Duration.ofSeconds(60)).toSeconds(), TimeUnit.SECONDS));
            }
            pool.shutdown();
            assertEquals(1000, c.readItem("counter", new PartitionKey("p"), ObjectNode.class).getItem().get("n").asInt());
            assertEquals(1000, all.size(), "every write produced its own etag");
        }
    }

    @Test
    void optimisticConcurrencyLetsExactlyOneWriterWin(@TempDir Path dir) throws Exception {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer("c", "/pk");
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            c.createItem(M.createObjectNode().put("id", "doc").put("pk", "p").put("owner", "none"));
            String etag = c.readItem("doc", new PartitionKey("p"), ObjectNode.class).getETag();
            ExecutorService pool = Executors.newFixedThreadPool(4);
            List<Future<Integer>> futures = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                String owner = "w" + t;
                futures.add(pool.submit(() -> {
                    try {
                        return c.replaceItem(M.createObjectNode().put("id", "doc").put("pk", "p").put("owner", owner),
                                "doc", new PartitionKey("p"), new CosmosItemRequestOptions().setIfMatchETag(etag))
                                .getStatusCode();
                    } catch (CosmosException e) {
                        return e.getStatusCode();
                    }
                }));
            }
            int ok = 0;
            int conflicts = 0;
            for (Future<Integer> f : futures) {
                int s = f.get(TestTime.patience(Duration.ofSeconds(30)).toSeconds(), TimeUnit.SECONDS);
                if (s == 200) {
                    ok++;
                } else if (s == 412) {
                    conflicts++;
                }
            }
            pool.shutdown();
            assertEquals(1, ok);
            assertEquals(7, conflicts);
        }
    }

    @Test
    void asyncDurabilityKeepsEverythingAcrossACleanClose(@TempDir Path dir) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).durability(Durability.ASYNC).buildClient()) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer("c", "/pk");
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            for (int i = 0; i < 500; i++) {
                c.createItem(M.createObjectNode().put("id", "i" + i).put("pk", "p" + (i % 10)));
            }
        }
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            for (int i = 0; i < 500; i++) {
                assertEquals(200, c.readItem("i" + i, new PartitionKey("p" + (i % 10)), ObjectNode.class).getStatusCode());
            }
        }
    }

    @Test
    void requestChargesFollowTheDocumentedFormula(@TempDir Path dir) {
        try (CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient()) {
            client.createDatabase("db");
            client.getDatabase("db").createContainer("c", "/pk");
            CosmosContainer c = client.getDatabase("db").getContainer("c");
            // under 1 KB stored costs what 1 KB costs: 1 RU to read, 4.9 RU to write plus 0.1 RU for each of its
            // 4 index entries (id, pk, f, _ts)
            ObjectNode small = M.createObjectNode().put("id", "a").put("pk", "p").put("f", "x".repeat(700));
            assertEquals(5.3, c.createItem(small).getRequestCharge());
            assertEquals(1.0, c.readItem("a", new PartitionKey("p"), ObjectNode.class).getRequestCharge());
            // about 100 KB with 8 index entries: Cosmos DB's ~50 RU to write and 10 RU to read
            ObjectNode big = M.createObjectNode().put("id", "b").put("pk", "p").put("a", 1).put("b", 2).put("c", 3)
                    .put("d", 4).put("f", "x".repeat(100 * 1024 - 300));
            assertEquals(50.0, c.createItem(big).getRequestCharge(), 0.2);
            assertEquals(10.0, c.readItem("b", new PartitionKey("p"), ObjectNode.class).getRequestCharge(), 0.05);
            assertEquals(50.0, c.deleteItem("b", new PartitionKey("p"), null).getRequestCharge(), 0.2);
        }
    }

    @Test
    void aClosedClientThrowsInsteadOfCrashingAndASecondOpenIsRefused(@TempDir Path dir) {
        CosmosClient client = new CosmosClientBuilder().dataDirectory(dir).buildClient();
        client.createDatabase("db");
        client.getDatabase("db").createContainer("c", "/pk");
        io.tetradb.core.storage.StorageException inUse = org.junit.jupiter.api.Assertions.assertThrows(
                io.tetradb.core.storage.DataDirectoryInUseException.class,
                () -> new CosmosClientBuilder().dataDirectory(dir).buildClient());
        org.junit.jupiter.api.Assertions.assertTrue(inUse.getMessage().contains("in use"), inUse.getMessage());
        client.close();
        client.close();
        org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class, client::readAllPartitionStatistics);
        org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class, () -> client.getDatabase("db")
                .getContainer("c").createItem(M.createObjectNode().put("id", "x").put("pk", "p")));
    }
}

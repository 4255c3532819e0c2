package io.tetradb.server;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.cassandra.cluster.LocalCluster;
import io.tetradb.testing.TestTime;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two TetraDB servers started with {@code --storage cassandra} on one keyspace of the JVM's local 3-node cluster
 * ({@link SharedTestCluster}), used
 * through the azure-cosmos Java SDK: a database and container made through one serve at once through the other, item
 * CRUD and an indexed query, a TTL container made on one whose TTL change through the other is served and seen by
 * the first, and If-Match races through both
 * servers with exactly one winner each. Only with {@code -Pcluster} (three Cassandra JVMs).
 */
@Tag("cluster")
@Timeout(900)
class CassandraServerClusterTest {
    private static final String EMULATOR_KEY =
            "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";
    @TempDir
    static Path dir;
    static LocalCluster cluster;
    static TetraDbServer a;
    static TetraDbServer b;
    static CosmosClient onA;
    static CosmosClient onB;
    private final ObjectMapper json = new ObjectMapper();

    @BeforeAll
    static void start() {
        cluster = SharedTestCluster.get();
        CassandraStorage.Options options = new CassandraStorage.Options(cluster.contactPoints(), "tetradb_servers", 3,
                "quorum");
        a = server("a", options);
        b = server("b", options);
        onA = cosmos(a);
        onB = cosmos(b);
    }

    private static TetraDbServer server(String name, CassandraStorage.Options options) {
        return new TetraDbServer(ServerConfig.ephemeral(dir.resolve(name)).withCosmosPort(0)).onCassandra(options)
                .start();
    }

    private static CosmosClient cosmos(TetraDbServer s) {
        return new CosmosClientBuilder().endpoint("http://" + Endpoint.hostPort(s.endpoint("cosmos").address()))
                .key(EMULATOR_KEY).gatewayMode().buildClient();
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable c : new AutoCloseable[]{onA, onB, a, b}) { // the cluster stays for the next class
            if (c != null) {
                try {
                    c.close();
                } catch (Exception ignored) {
                    // closing the rest matters more
                }
            }
        }
    }

    @Test
    void cosmosSdkServesItemsQueriesTtlContainersAndTtlChangesThroughBothServers() throws Exception {
        onA.createDatabaseIfNotExists("shop");
        onA.getDatabase("shop").createContainer("orders", "/pk");
        CosmosContainer ordersA = onA.getDatabase("shop").getContainer("orders");
        CosmosContainer ordersB = onB.getDatabase("shop").getContainer("orders");
        ObjectNode item = (ObjectNode) json.readTree("{\"id\":\"o1\",\"pk\":\"p1\",\"qty\":3,\"city\":\"Oslo\"}");
        ordersA.createItem(item);
        ordersA.createItem(json.readTree("{\"id\":\"o2\",\"pk\":\"p2\",\"qty\":5,\"city\":\"Rome\"}"));
        // made through a, read through b at once
        JsonNode read = ordersB.readItem("o1", new PartitionKey("p1"), JsonNode.class).getItem();
        assertEquals(3, read.get("qty").asInt());
        item.put("qty", 4);
        String etag = ordersB.replaceItem(item, "o1", new PartitionKey("p1"), new CosmosItemRequestOptions()).getETag();
        assertEquals(etag, ordersA.readItem("o1", new PartitionKey("p1"), JsonNode.class).getETag());
        List<JsonNode> rome = ordersA.queryItems("SELECT * FROM c WHERE c.city = 'Rome'",
                new CosmosQueryRequestOptions(), JsonNode.class).stream().toList();
        assertEquals(1, rome.size());
        assertEquals("o2", rome.get(0).get("id").asText());
        ordersB.deleteItem("o2", new PartitionKey("p2"), new CosmosItemRequestOptions());
        assertEquals(404, assertThrows(CosmosException.class,
                () -> ordersA.readItem("o2", new PartitionKey("p2"), JsonNode.class)).getStatusCode());

        // a TTL container is served on Cassandra, and so is a TTL change (SharedExpiryRebuild), seen by the other server
        onA.getDatabase("shop").createContainer(new CosmosContainerProperties("expiring", "/pk")
                .setDefaultTimeToLiveInSeconds(60));
        CosmosContainer expiringB = onB.getDatabase("shop").getContainer("expiring");
        assertEquals(200, expiringB.replace(expiringB.read().getProperties().setDefaultTimeToLiveInSeconds(120))
                .getStatusCode());
        CosmosContainer expiringA = onA.getDatabase("shop").getContainer("expiring");
        long until = System.nanoTime() + TestTime.patience(java.time.Duration.ofSeconds(10)).toNanos();
        while (expiringA.read().getProperties().getDefaultTimeToLiveInSeconds() != 120 && System.nanoTime() < until) {
            Thread.sleep(50);
        }
        assertEquals(120, expiringA.read().getProperties().getDefaultTimeToLiveInSeconds());
    }

    @Test
    void ifMatchRacesThroughBothServersHaveOneWinnerEach() throws Exception {
        onA.createDatabaseIfNotExists("race");
        onB.getDatabase("race").createContainerIfNotExists("counters", "/pk");
        CosmosContainer[] through = {onA.getDatabase("race").getContainer("counters"),
                onB.getDatabase("race").getContainer("counters")};
        through[0].createItem(json.readTree("{\"id\":\"c\",\"pk\":\"k\",\"n\":0}"));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (int round = 1; round <= 5; round++) {
                String etag = through[round % 2].readItem("c", new PartitionKey("k"), JsonNode.class).getETag();
                CountDownLatch go = new CountDownLatch(1);
                List<Future<Integer>> racers = new ArrayList<>();
                for (int r = 0; r < 4; r++) {
                    CosmosContainer c = through[r % 2];
                    ObjectNode next = (ObjectNode) json.readTree("{\"id\":\"c\",\"pk\":\"k\",\"n\":" + round
                            + ",\"by\":" + r + "}");
                    Callable<Integer> replace = () -> {
                        go.await();
                        try {
                            return c.replaceItem(next, "c", new PartitionKey("k"),
                                    new CosmosItemRequestOptions().setIfMatchETag(etag)).getStatusCode();
                        } catch (CosmosException e) {
                            return e.getStatusCode();
                        }
                    };
                    racers.add(pool.submit(replace));
                }
                go.countDown();
                int won = 0;
                for (Future<Integer> f : racers) {
                    int status = f.get();
                    if (status == 200) {
                        won++;
                    } else {
                        assertEquals(412, status, "a loser gets 412 PreconditionFailed");
                    }
                }
                assertEquals(1, won, "round " + round + ": exactly one winner");
                assertEquals(round, through[0].readItem("c", new PartitionKey("k"), JsonNode.class).getItem()
                        .get("n").asInt());
            }
        } finally {
            pool.shutdownNow();
        }
    }
}

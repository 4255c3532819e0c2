package io.tetradb.server.fuzz;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import io.tetradb.cosmos.CosmosRestOptions;
import io.tetradb.server.TestGremlin;
import io.tetradb.table.http.AccountKeys;
import io.tetradb.testing.fuzz.FuzzSettings;
import io.tetradb.testing.fuzz.FuzzTally;
import io.tetradb.testing.fuzz.HttpFuzzer;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.Result;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 19's measurement: {@code tetradb start --memory BUDGET} as its own process ({@link ServerProcess}), fuzzed
 * over the network one face at a time with the fuzz harness's inputs, its memory read from outside: VmRSS before,
 * the largest during the run and after, {@code /health}'s RSS, the live heap after a full GC (jcmd). Per face: no
 * hang, the process alive, the canary data unchanged, the face's real client served throughout and after, the live
 * heap flat and the RSS within the budget.
 * <p>
 * Short form (every build): a few hundred inputs per face on one process. Long form, one face per process:
 * {@code mvn -pl server -am verify -Dtest='ProcessFuzzTest#mongo' -Dsurefire.failIfNoSpecifiedTests=false
 * -Dtetradb.fuzz.inputs=1000000} (also {@code #tables}, {@code #cosmos}, {@code #gremlin};
 * {@code -Dtetradb.fuzz.memory=1g} the budget, {@code -Dtetradb.fuzz.seed}, {@code -Dtetradb.fuzz.minutes}), or
 * {@code bench/run fuzz-process [FACE]}.
 */
class ProcessFuzzTest {
    private static final long SHORT_INPUTS = 600;
    private static final Duration SHORT_BUDGET = Duration.ofSeconds(8);
    /** Threads of the fuzzers that keep their connections (Mongo, Gremlin frames). */
    private static final int MONGO_THREADS = Integer.getInteger("tetradb.fuzz.streamThreads", 8);
    private static final int FRAME_THREADS = Integer.getInteger("tetradb.fuzz.frameThreads", 32);

    @TempDir
    static Path tmp;
    static ServerProcess server;
    static FuzzSettings settings;

    @BeforeAll
    static void start() throws Exception {
        FuzzSettings given = FuzzSettings.fromSystemProperties();
        settings = given.longForm() ? given : new FuzzSettings(SHORT_INPUTS, given.seed(), SHORT_BUDGET);
        Path data = Files.createDirectories(tmp.resolve("data"));
        server = ServerProcess.start(data, System.getProperty("tetradb.fuzz.memory", "1g"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            boolean alive = server.isAlive();
            server.close();
            assertTrue(alive, "the server process died: " + server.stderrTail());
            assertEquals(0, server.exitCode(), "SIGTERM stops the server cleanly; stderr " + server.stderrTail());
        }
    }

    @Test
    void mongo() throws Exception {
        try (MongoClient client = MongoClients.create("mongodb://127.0.0.1:" + server.port("mongo"))) {
            MongoCollection<Document> canary = client.getDatabase("canary").getCollection("c");
            for (int i = 0; i < 50; i++) {
                canary.insertOne(new Document("_id", i).append("v", "canary-" + i).append("n", i * 7));
            }
            List<Document> before = canary.find().into(new ArrayList<>());
            client.getDatabase("fuzz").getCollection("c").insertOne(new Document("_id", "seed").append("x", 1));
            Runnable alive = () -> assertEquals(1, client.getDatabase("admin").runCommand(new Document("ping", 1))
                    .get("ok", Number.class).intValue(), "the MongoDB driver is still served");
            measure("mongo", () -> List.of(MongoWireFuzzer.run(target("mongo"), settings, MONGO_THREADS, alive)));
            // what the live heap holds for Mongo: open cursors (at most --max-open-cursors and --max-cursor-memory)
            System.out.println("FUZZ-PROCESS mongo cursors " + client.getDatabase("admin").runCommand(
                    new Document("serverStatus", 1)).get("metrics", Document.class).get("cursor", Document.class)
                    .toJson());
            if (settings.longForm()) {
                // the fuzzed connections' session cursors (lsid) outlive them, as on mongod, until their 10 minutes
                // idle: ending every session shows what of the live heap they were
                client.getDatabase("admin").runCommand(new Document("killAllSessions", List.of()));
                System.out.printf("FUZZ-PROCESS mongo after killAllSessions liveHeapMb=%d openCursors=%s%n",
                        ProcessMemory.mb(server.liveHeapAfterGcBytes()), client.getDatabase("admin").runCommand(
                                new Document("serverStatus", 1)).get("metrics", Document.class)
                                .get("cursor", Document.class).get("open", Document.class).get("total"));
            }
            assertEquals(before, canary.find().into(new ArrayList<>()), "the canary data is unchanged");
            alive.run();
        }
    }

    @Test
    void tables() throws Exception {
        TableServiceClient service = new TableServiceClientBuilder().connectionString(
                "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=" + AccountKeys.DEV_KEY
                        + ";TableEndpoint=http://127.0.0.1:" + server.port("table") + "/devstoreaccount1;")
                .buildClient();
        service.createTableIfNotExists("fuzz");
        TableClient canary = service.createTableIfNotExists("canary");
        for (int i = 0; i < 30; i++) {
            canary.upsertEntity(new TableEntity("p" + (i % 3), "r" + i).addProperty("v", "canary-" + i));
        }
        List<String> before = rows(canary);
        TableClient fuzz = service.getTableClient("fuzz");
        Runnable alive = () -> fuzz.upsertEntity(new TableEntity("alive", "1").addProperty("ok", true));
        measure("tables", () -> http("tables", HttpFuzzInputs::tables, null, settings, alive));
        assertEquals(before, rows(canary), "the canary data is unchanged");
        alive.run();
    }

    @Test
    void cosmos() throws Exception {
        try (CosmosClient sdk = new CosmosClientBuilder().endpoint(server.cosmosHttpUrl())
                .key(CosmosRestOptions.EMULATOR_KEY).gatewayMode().buildClient()) {
            // names of their own: the short form fuzzes every face on one server, and Mongo's are "fuzz"/"canary"
            sdk.createDatabaseIfNotExists("cosmosfuzz");
            sdk.getDatabase("cosmosfuzz").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"));
            sdk.createDatabaseIfNotExists("cosmoscanary");
            sdk.getDatabase("cosmoscanary").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"));
            CosmosContainer canary = sdk.getDatabase("cosmoscanary").getContainer("c");
            for (int i = 0; i < 30; i++) {
                canary.upsertItem(Map.of("id", "k" + i, "pk", "p" + (i % 3), "v", "canary-" + i));
            }
            List<String> before = items(canary);
            Runnable alive = () -> assertTrue(List.of(200, 201).contains(sdk.getDatabase("cosmosfuzz").getContainer("c")
                    .upsertItem(Map.of("id", "alive", "pk", "a")).getStatusCode()), "azure-cosmos is still served");
            measure("cosmos", () -> http("cosmos", HttpFuzzInputs::cosmos, null, settings, alive));
            assertEquals(before, items(canary), "the canary data is unchanged");
            alive.run();
        }
    }

    @Test
    void gremlin() throws Exception {
        Cluster cluster = TestGremlin.cluster("127.0.0.1", server.port("gremlin")).create();
        try {
            org.apache.tinkerpop.gremlin.driver.Client client = cluster.connect();
            Function<String, List<Object>> submit = script -> {
                try {
                    return client.submit(script).all().get().stream().map(Result::getObject).toList();
                } catch (Exception e) {
                    throw new AssertionError("gremlin-driver is no longer served: " + e, e);
                }
            };
            for (int i = 0; i < 20; i++) {
                submit.apply("g.addV('canary').property('pk','c').property(T.id,'canary" + i + "').property('n',"
                        + i + ")");
            }
            String canaryQuery = "g.V().hasLabel('canary').order().by(T.id).valueMap(true).toList().toString()";
            List<Object> before = submit.apply(canaryQuery);
            Runnable alive = () -> assertEquals(1, submit.apply("g.V('canary0').count().next()").size());
            // a tenth of the inputs (a quarter of the time) are mutated upgrade requests, a WebSocket handshake each;
            // the rest mutated frames on upgraded connections kept while the server keeps them
            // -Dtetradb.fuzz.gremlinUpgrades=false: frames only (a replay of the frame half, with skipPerThread)
            // -Dtetradb.fuzz.upgradeInputs=N: how many of the inputs are upgrades (a tenth by default)
            long upgradeInputs = Boolean.parseBoolean(System.getProperty("tetradb.fuzz.gremlinUpgrades", "true"))
                    ? Long.getLong("tetradb.fuzz.upgradeInputs", settings.inputs() / 10) : 0;
            FuzzSettings upgrades = new FuzzSettings(upgradeInputs, settings.seed(), settings.budget().dividedBy(4));
            measure("gremlin", () -> {
                List<FuzzTally> tallies = new ArrayList<>(http("gremlin-upgrade",
                        () -> uncheckedInputs(GremlinFuzzInputs::upgrades), null, upgrades, alive));
                long left = settings.inputs() - tallies.stream().mapToLong(FuzzTally::inputs).sum();
                FuzzSettings frames = new FuzzSettings(left, settings.seed(), upgradeInputs == 0 ? settings.budget()
                        : settings.budget().multipliedBy(3).dividedBy(4));
                tallies.add(new WebSocketFrameFuzzer().onFirstHang(ProcessFuzzTest::printThreadDump)
                        .fuzzAll(target("gremlin"), GremlinFuzzInputs.frames(), frames, FRAME_THREADS, alive));
                return tallies;
            });
            assertEquals(before, submit.apply(canaryQuery), "the canary vertices are unchanged");
            alive.run();
        } finally {
            cluster.close();
        }
    }

    /** The separate admin port ({@code --http-port}) of a loopback server: open, no key required. */
    @Test
    void admin() throws Exception {
        String admin = "http://127.0.0.1:" + server.port("admin");
        Runnable alive = () -> assertEquals(200, io.tetradb.server.TestHttp.get(admin, "/health").statusCode(),
                "the admin port is still served");
        measure("admin", () -> FuzzRun.http("admin", target("admin"),
                () -> AuthHttpInputs.admin(CosmosRestOptions.EMULATOR_KEY, CosmosRestOptions.EMULATOR_KEY), null,
                settings, alive, javax.net.SocketFactory.getDefault()));
        alive.run();
    }

    /** The server's thread stacks at the first hang: what its event loops were doing. */
    private static void printThreadDump() {
        try {
            System.out.println("FUZZ-PROCESS thread dump at the first hang:\n" + server.threadDump());
        } catch (Exception e) {
            System.out.println("FUZZ-PROCESS no thread dump: " + e);
        }
    }

    private interface Function<A, B> extends java.util.function.Function<A, B> {
    }

    private static void measure(String face, Callable<List<FuzzTally>> fuzz) throws Exception {
        FuzzRun.measure(server, settings, face, fuzz);
    }

    private static List<FuzzTally> http(String face, Supplier<List<byte[]>> inputs, byte[] preamble,
                                        FuzzSettings settings, Runnable alive) throws Exception {
        InetSocketAddress target = target(face.startsWith("gremlin") ? "gremlin" : face.equals("tables") ? "table"
                : face);
        return FuzzRun.http(face, target, inputs, preamble, settings, alive, javax.net.SocketFactory.getDefault());
    }

    private static List<byte[]> uncheckedInputs(Callable<List<byte[]>> inputs) {
        try {
            return inputs.call();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static InetSocketAddress target(String face) {
        return server.address(face);
    }

    static List<String> rows(TableClient table) {
        List<String> rows = new ArrayList<>();
        table.listEntities().forEach(e -> rows.add(e.getPartitionKey() + "/" + e.getRowKey() + "="
                + new TreeMap<>(e.getProperties()).toString().replaceAll("Timestamp=[^,}]*", "")));
        return rows;
    }

    static List<String> items(CosmosContainer c) {
        List<String> items = new ArrayList<>();
        c.queryItems("SELECT c.id, c.pk, c.v FROM c ORDER BY c.id", new CosmosQueryRequestOptions(),
                ObjectNode.class).forEach(n -> items.add(n.toString()));
        return items;
    }
}

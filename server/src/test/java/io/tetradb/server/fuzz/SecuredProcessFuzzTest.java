package io.tetradb.server.fuzz;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosPermissionProperties;
import com.azure.cosmos.models.CosmosUserProperties;
import com.azure.cosmos.models.PermissionMode;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableServiceException;
import com.azure.data.tables.sas.TableAccountSasPermission;
import com.azure.data.tables.sas.TableAccountSasResourceType;
import com.azure.data.tables.sas.TableAccountSasService;
import com.azure.data.tables.sas.TableAccountSasSignatureValues;
import com.azure.data.tables.sas.TableSasPermission;
import com.azure.data.tables.sas.TableSasSignatureValues;
import com.mongodb.MongoCommandException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import io.tetradb.server.ServerConfig;
import io.tetradb.server.TestGremlin;
import io.tetradb.server.TestHttp;
import io.tetradb.server.TetraDbServer;
import io.tetradb.server.config.BindBeyondLoopbackTest;
import io.tetradb.testing.fuzz.EphemeralPortBudget;
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

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 19's fuzz with credentials and TLS: {@code tetradb start} as its own process ({@link ServerProcess}) with
 * credentials on every face ({@code tetradb.yaml}: a Cosmos key pair, a Tables account with two keys, Gremlin
 * authentication; a Mongo user made first) and bound beyond loopback ({@code 0.0.0.0}), as a server beyond loopback
 * must be — so the admin routes need the Cosmos key too. The real clients and the kept connections come in through
 * this machine's non-loopback address; the one-input connections rotate over it and 127.0.0.1 … 127.0.0.7
 * ({@link EphemeralPortBudget}), so that their TIME_WAITs do not exhaust the client's ports. Each face is fuzzed in four parts: its inputs with
 * the authentication handshakes a client may mangle ({@link MongoAuthInputs}, {@link GremlinAuthInputs},
 * {@link AuthHttpInputs}) over plain TCP, the same inside TLS, TLS garbage as a connection's first bytes
 * ({@link TlsFuzzInputs#handshakes()}), and mangled records after a complete handshake ({@link TlsRecordFuzzer}).
 * Then: no hang, the process alive, the canaries unchanged, the real clients with credentials served throughout,
 * and missing or wrong credentials still refused.
 * <p>
 * Short form in every build; long form one face per process:
 * {@code -Dtest='SecuredProcessFuzzTest#mongo' -Dtetradb.fuzz.inputs=1000000} (also {@code #tables},
 * {@code #cosmos}, {@code #gremlin}, {@code #admin}).
 */
class SecuredProcessFuzzTest {
    private static final long SHORT_INPUTS = 800;
    private static final Duration SHORT_BUDGET = Duration.ofSeconds(12);
    private static final int STREAM_THREADS = Integer.getInteger("tetradb.fuzz.streamThreads", 8);
    private static final int FRAME_THREADS = Integer.getInteger("tetradb.fuzz.frameThreads", 32);
    private static final int TLS_RECORD_THREADS = 8;
    private static final String USER = "fuzzer";
    private static final String PASSWORD = "fuzzer-secret-pw";
    private static final String ACCOUNT = "fuzzacct";
    private static final String COSMOS_KEY = newKey();
    private static final String READ_ONLY_KEY = newKey();
    private static final String TABLE_KEY1 = newKey();
    private static final String TABLE_KEY2 = newKey();

    @TempDir
    static Path tmp;
    static ServerProcess server;
    static FuzzSettings settings;
    static String host;

    @BeforeAll
    static void start() throws Exception {
        FuzzSettings given = FuzzSettings.fromSystemProperties();
        settings = given.longForm() ? given : new FuzzSettings(SHORT_INPUTS, given.seed(), SHORT_BUDGET);
        Path data = Files.createDirectories(tmp.resolve("data"));
        // MongoDB's localhost exception: the first user is made over loopback, before the server goes beyond it
        try (TetraDbServer local = new TetraDbServer(ServerConfig.ephemeral(data).withMongoPort(0)).start();
             MongoClient mongo = MongoClients.create(local.endpoint("mongo").url())) {
            mongo.getDatabase("admin").runCommand(new Document("createUser", USER).append("pwd", PASSWORD)
                    .append("roles", List.of("root")));
        }
        Path config = tmp.resolve("tetradb.yaml");
        Files.writeString(config, "cosmos:\n  key: " + COSMOS_KEY + "\n  readOnlyKey: " + READ_ONLY_KEY + "\n"
                + "tables:\n  accounts:\n    - name: " + ACCOUNT + "\n      key1: " + TABLE_KEY1 + "\n      key2: "
                + TABLE_KEY2 + "\ngremlin:\n  auth: true\n");
        Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-------"));
        InetAddress address = BindBeyondLoopbackTest.nonLoopbackAddress();
        host = address.getHostAddress();
        // every address, so that the fuzz's connections can go to several (EphemeralPortBudget); the real clients
        // use this machine's non-loopback address
        server = ServerProcess.start(data, System.getProperty("tetradb.fuzz.memory", "1g"), true,
                List.of("--config", config.toString(), "--bind", "0.0.0.0"))
                .adminAuthorization(AuthHttpInputs.basic("admin", COSMOS_KEY).substring("Authorization: ".length()));
    }

    /** How often a real client with credentials was served during the current test's fuzz (every 500 inputs). */
    private static final java.util.concurrent.atomic.AtomicLong SERVED = new java.util.concurrent.atomic.AtomicLong();

    private static Runnable served(Runnable realClient) {
        SERVED.set(0);
        return () -> {
            realClient.run();
            SERVED.incrementAndGet();
        };
    }

    @org.junit.jupiter.api.AfterEach
    void printServed(org.junit.jupiter.api.TestInfo test) {
        System.out.printf("FUZZ-PROCESS %s real client with credentials served %d times%n",
                test.getTestMethod().map(java.lang.reflect.Method::getName).orElse("?"), SERVED.get());
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
        String url = "mongodb://" + USER + ":" + PASSWORD + "@" + host + ":" + server.port("mongo")
                + "/?authSource=admin";
        try (MongoClient client = MongoClients.create(url)) {
            MongoCollection<Document> canary = client.getDatabase("canary").getCollection("c");
            for (int i = 0; i < 50; i++) {
                canary.insertOne(new Document("_id", i).append("v", "canary-" + i));
            }
            List<Document> before = canary.find().into(new ArrayList<>());
            Runnable alive = served(() -> assertEquals(1, client.getDatabase("admin").runCommand(new Document("ping",
                    1)).get("ok", Number.class).intValue(), "the MongoDB driver with credentials is still served"));
            MongoAuthInputs auth = new MongoAuthInputs(USER, PASSWORD);
            InetSocketAddress target = target("mongo");
            assertTrue(auth.logsIn(target), "the fuzz's own SCRAM conversation with the right proof logs in, so the "
                    + "inputs after it on its connection run authenticated");
            FuzzRun.measure(server, settings, "mongo-secured", () -> {
                List<FuzzTally> tallies = new ArrayList<>();
                MongoWireFuzzer plain = new MongoWireFuzzer(auth);
                plain.onFirstHang(HangDump.of(server, "mongo"));
                tallies.add(plain.fuzzAll(target, plain.seeds(), part(0.45, 0.45), STREAM_THREADS, alive));
                MongoWireFuzzer tls = new MongoWireFuzzer(auth);
                tls.over(TlsFuzzInputs.sockets()).onFirstHang(HangDump.of(server, "mongo-tls"));
                tallies.add(tls.fuzzAll(target, tls.seeds(), part(0.45, 0.45), STREAM_THREADS, alive));
                tallies.addAll(tlsGarbage("mongo", "mongo", alive));
                return tallies;
            });
            assertEquals(before, canary.find().into(new ArrayList<>()), "the canary data is unchanged");
            alive.run();
            try (MongoClient anonymous = MongoClients.create("mongodb://" + host + ":" + server.port("mongo"));
                 MongoClient wrong = MongoClients.create("mongodb://" + USER + ":wrong@" + host + ":"
                         + server.port("mongo") + "/?authSource=admin")) {
                assertEquals(13, assertThrows(MongoCommandException.class,
                        () -> anonymous.getDatabase("canary").getCollection("c").countDocuments()).getErrorCode());
                assertThrows(com.mongodb.MongoSecurityException.class,
                        () -> wrong.getDatabase("canary").getCollection("c").countDocuments());
            }
            assertEquals(List.of(USER), client.getDatabase("admin").runCommand(new Document("usersInfo", 1))
                    .getList("users", Document.class).stream().map(u -> u.getString("user")).toList(),
                    "no user was made by the fuzz");
        }
    }

    @Test
    void tables() throws Exception {
        String endpoint = "http://" + host + ":" + server.port("table") + "/" + ACCOUNT;
        TableServiceClient service = new TableServiceClientBuilder().endpoint(endpoint)
                .credential(new AzureNamedKeyCredential(ACCOUNT, TABLE_KEY1)).buildClient();
        service.createTableIfNotExists("fuzz");
        TableClient canary = service.createTableIfNotExists("canary");
        for (int i = 0; i < 30; i++) {
            canary.upsertEntity(new TableEntity("p" + (i % 3), "r" + i).addProperty("v", "canary-" + i));
        }
        List<String> before = ProcessFuzzTest.rows(canary);
        TableClient fuzz = service.getTableClient("fuzz");
        Runnable alive = served(() -> fuzz.upsertEntity(new TableEntity("alive", "1").addProperty("ok", true)));
        java.util.function.Supplier<List<byte[]>> inputs = () -> AuthHttpInputs.tables(ACCOUNT, TABLE_KEY1,
                TABLE_KEY2, List.of(
                        service.generateAccountSas(new TableAccountSasSignatureValues(OffsetDateTime.now()
                                .plusHours(2), TableAccountSasPermission.parse("rwdlacu"),
                                TableAccountSasService.parse("t"), TableAccountSasResourceType.parse("sco"))),
                        "/" + ACCOUNT + "/fuzz()?" + fuzz.generateSas(new TableSasSignatureValues(
                                OffsetDateTime.now().plusHours(2), TableSasPermission.parse("raud")))));
        FuzzRun.measure(server, settings, "tables-secured", () -> httpParts("tables", "table", inputs, alive, true));
        assertEquals(before, ProcessFuzzTest.rows(canary), "the canary data is unchanged");
        alive.run();
        TableServiceException refused = assertThrows(TableServiceException.class, () -> new TableServiceClientBuilder()
                .endpoint(endpoint).credential(new AzureNamedKeyCredential(ACCOUNT, READ_ONLY_KEY)).buildClient()
                .getTableClient("canary").getEntity("p0", "r0"));
        assertEquals(403, refused.getResponse().getStatusCode(), "a wrong key is still refused");
    }

    @Test
    void cosmos() throws Exception {
        String endpoint = "http://" + host + ":" + server.port("cosmos");
        try (CosmosClient sdk = new CosmosClientBuilder().endpoint(endpoint).key(COSMOS_KEY).gatewayMode()
                .buildClient()) {
            sdk.createDatabaseIfNotExists("cosmosfuzz");
            sdk.getDatabase("cosmosfuzz").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"));
            sdk.createDatabaseIfNotExists("cosmoscanary");
            sdk.getDatabase("cosmoscanary").createContainerIfNotExists(new CosmosContainerProperties("c", "/pk"));
            CosmosContainer canary = sdk.getDatabase("cosmoscanary").getContainer("c");
            for (int i = 0; i < 30; i++) {
                canary.upsertItem(Map.of("id", "k" + i, "pk", "p" + (i % 3), "v", "canary-" + i));
            }
            sdk.getDatabase("cosmosfuzz").getContainer("c").upsertItem(Map.of("id", "d1", "pk", "p1"));
            sdk.getDatabase("cosmosfuzz").createUser(new CosmosUserProperties().setId("reader"));
            String token;
            try (com.azure.cosmos.CosmosAsyncClient async = new CosmosClientBuilder().endpoint(endpoint)
                    .key(COSMOS_KEY).gatewayMode().buildAsyncClient()) {
                token = async.getDatabase("cosmosfuzz").getUser("reader").createPermission(
                        new CosmosPermissionProperties().setId("read-c").setPermissionMode(PermissionMode.READ)
                                .setContainerName("c"), new com.azure.cosmos.models.CosmosPermissionRequestOptions())
                        .block().getProperties().getToken();
            }
            List<String> before = ProcessFuzzTest.items(canary);
            Runnable alive = served(() -> assertTrue(List.of(200, 201).contains(sdk.getDatabase("cosmosfuzz")
                    .getContainer("c").upsertItem(Map.of("id", "alive", "pk", "a")).getStatusCode()),
                    "azure-cosmos with the key is still served"));
            FuzzRun.measure(server, settings, "cosmos-secured", () -> httpParts("cosmos", "cosmos",
                    () -> AuthHttpInputs.cosmos(COSMOS_KEY, READ_ONLY_KEY, token, "/dbs/cosmosfuzz/colls/c/docs/d1"),
                    alive, true));
            assertEquals(before, ProcessFuzzTest.items(canary), "the canary data is unchanged");
            alive.run();
            try (CosmosClient readOnly = new CosmosClientBuilder().endpoint(endpoint).key(READ_ONLY_KEY)
                    .gatewayMode().buildClient()) {
                assertEquals(401, assertThrows(CosmosException.class, () -> readOnly.getDatabase("cosmoscanary")
                        .getContainer("c").upsertItem(Map.of("id", "k0", "pk", "p0", "v", "changed")))
                        .getStatusCode(), "the read-only key still cannot write");
            }
        }
    }

    @Test
    void gremlin() throws Exception {
        Cluster cluster = TestGremlin.cluster(host, server.port("gremlin")).credentials(USER, PASSWORD).create();
        try {
            org.apache.tinkerpop.gremlin.driver.Client client = cluster.connect();
            Function<String, List<Object>> submit = script -> {
                try {
                    return client.submit(script).all().get().stream().map(Result::getObject).toList();
                } catch (Exception e) {
                    throw new AssertionError("gremlin-driver with credentials is no longer served: " + e, e);
                }
            };
            for (int i = 0; i < 20; i++) {
                submit.apply("g.addV('canary').property('pk','c').property(T.id,'canary" + i + "').property('n',"
                        + i + ")");
            }
            String canaryQuery = "g.V().hasLabel('canary').order().by(T.id).valueMap(true).toList().toString()";
            List<Object> before = submit.apply(canaryQuery);
            Runnable alive = served(() -> assertEquals(1, submit.apply("g.V('canary0').count().next()").size()));
            InetSocketAddress target = target("gremlin");
            List<byte[]> frames = GremlinAuthInputs.frames(USER, PASSWORD, COSMOS_KEY);
            FuzzRun.measure(server, settings, "gremlin-secured", () -> {
                List<FuzzTally> tallies = new ArrayList<>(FuzzRun.http("gremlin-upgrade", ports("gremlin"),
                        () -> upgrades(), null, part(0.1, 0.2), alive, javax.net.SocketFactory.getDefault(),
                        HangDump.of(server, "gremlin-upgrade")));
                tallies.add(new WebSocketFrameFuzzer().onFirstHang(HangDump.of(server, "gremlin-frames"))
                        .fuzzAll(target, frames, part(0.4, 0.3), FRAME_THREADS, alive));
                tallies.add(new WebSocketFrameFuzzer().over(TlsFuzzInputs.sockets())
                        .onFirstHang(HangDump.of(server, "gremlin-frames-tls"))
                        .fuzzAll(target, frames, part(0.4, 0.3), FRAME_THREADS, alive));
                tallies.addAll(tlsGarbage("gremlin", "gremlin", alive));
                return tallies;
            });
            assertEquals(before, submit.apply(canaryQuery), "the canary vertices are unchanged");
            alive.run();
            Cluster wrong = TestGremlin.cluster(host, server.port("gremlin")).credentials(USER, "wrong").create();
            try {
                assertThrows(Exception.class, () -> wrong.connect().submit("g.V().count()").all().get(),
                        "a wrong password is still refused");
            } finally {
                wrong.close();
            }
        } finally {
            cluster.close();
        }
    }

    /** The separate admin port (plain HTTP only), which needs the Cosmos key on a server beyond loopback. */
    @Test
    void admin() throws Exception {
        String admin = "http://" + host + ":" + server.port("admin");
        HttpClient http = HttpClient.newBuilder().connectTimeout(TestHttp.TIMEOUT).build();
        Function<String, Integer> health = authorization -> {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(admin + "/health"))
                    .timeout(TestHttp.TIMEOUT);
            if (authorization != null) {
                b.header("Authorization", authorization);
            }
            try {
                return http.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
            } catch (Exception e) {
                throw new AssertionError("the admin port is no longer served: " + e, e);
            }
        };
        String key = AuthHttpInputs.basic("admin", COSMOS_KEY).substring("Authorization: ".length());
        Runnable alive = served(() -> assertEquals(200, health.apply(key),
                "the admin port with the key is still served"));
        FuzzRun.measure(server, settings, "admin-secured", () -> httpParts("admin", "admin",
                () -> AuthHttpInputs.admin(COSMOS_KEY, READ_ONLY_KEY), alive, false));
        alive.run();
        assertEquals(401, health.apply(null), "without the key: still 401");
        assertEquals(401, health.apply(AuthHttpInputs.basic("admin", TABLE_KEY1)
                .substring("Authorization: ".length())), "with another key: still 401");
    }

    /**
     * The HTTP parts: the face's inputs over plain TCP, the same inside TLS (when the port serves TLS), TLS garbage
     * as the first bytes, and mangled records after a handshake (when the port serves TLS).
     */
    private static List<FuzzTally> httpParts(String face, String port,
                                             java.util.function.Supplier<List<byte[]>> inputs, Runnable alive,
                                             boolean servesTls) throws Exception {
        List<FuzzTally> tallies = new ArrayList<>(FuzzRun.http(face, ports(port), inputs, null,
                servesTls ? part(0.75, 0.5) : part(0.95, 0.9), alive, javax.net.SocketFactory.getDefault(),
                HangDump.of(server, face)));
        if (servesTls) {
            tallies.addAll(FuzzRun.http(face + "-tls", ports(port), inputs, null, part(0.15, 0.3), alive,
                    TlsFuzzInputs.sockets(), HangDump.of(server, face + "-tls")));
            tallies.addAll(tlsGarbage(face, port, alive));
        } else {
            tallies.add(HttpFuzzer.run(face + "-tls-handshakes", ports(port), null, TlsFuzzInputs.handshakes(),
                    part(0.05, 0.1), alive, FuzzRun.HTTP_THREADS, javax.net.SocketFactory.getDefault(),
                    HangDump.of(server, face + "-tls-handshakes")));
        }
        return tallies;
    }

    /** TLS garbage as a connection's first bytes (5% of the inputs), mangled records after a handshake (5%). */
    private static List<FuzzTally> tlsGarbage(String face, String port, Runnable alive) throws Exception {
        return List.of(
                HttpFuzzer.run(face + "-tls-handshakes", ports(port), null, TlsFuzzInputs.handshakes(),
                        part(0.05, 0.1), alive, FuzzRun.HTTP_THREADS, javax.net.SocketFactory.getDefault(),
                        HangDump.of(server, face + "-tls-handshakes")),
                TlsRecordFuzzer.run(face, ports(port), part(0.05, 0.1), TLS_RECORD_THREADS, alive,
                        HangDump.of(server, face + "-tls-records")));
    }

    /**
     * {@code -Dtetradb.fuzz.destinations=N} (8 by default; 1 = this machine's address only, as before): the
     * addresses the fuzz's one-input connections rotate over — this machine's non-loopback address, then
     * 127.0.0.1, 127.0.0.2, … (all of 127/8 is this host's; the server listens on 0.0.0.0).
     */
    private static final int DESTINATIONS = Integer.getInteger("tetradb.fuzz.destinations", 8);
    private static final Map<String, EphemeralPortBudget> PORTS = new java.util.concurrent.ConcurrentHashMap<>();

    /** One budget per face's port for the whole run: the ports a part held are still held in the next part. */
    private static EphemeralPortBudget ports(String face) {
        return PORTS.computeIfAbsent(face, f -> {
            List<InetAddress> addresses = new ArrayList<>();
            try {
                addresses.add(InetAddress.getByName(host));
                for (int i = 1; i < DESTINATIONS; i++) {
                    addresses.add(InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) i}));
                }
            } catch (java.net.UnknownHostException e) {
                throw new IllegalStateException(e);
            }
            return new EphemeralPortBudget(addresses, server.port(f));
        });
    }

    /** This face's port on this machine's non-loopback address (the real clients' way in). */
    private static InetSocketAddress target(String face) {
        return new InetSocketAddress(host, server.port(face));
    }

    /** A share of the run's inputs and of its time bound (seed as given: each part draws its own inputs). */
    private static FuzzSettings part(double inputs, double time) {
        return new FuzzSettings(Math.max(1, (long) (settings.inputs() * inputs)), settings.seed(),
                Duration.ofMillis((long) (settings.budget().toMillis() * time)));
    }

    private static List<byte[]> upgrades() {
        try {
            return GremlinAuthInputs.upgrades(COSMOS_KEY);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String newKey() {
        byte[] key = new byte[64];
        new SecureRandom().nextBytes(key);
        return Base64.getEncoder().encodeToString(key);
    }
}

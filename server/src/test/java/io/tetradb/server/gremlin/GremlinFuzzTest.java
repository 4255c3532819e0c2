package io.tetradb.server.gremlin;

import io.tetradb.server.ServerConfig;
import io.tetradb.server.TestGremlin;
import io.tetradb.server.TetraDbServer;
import io.tetradb.server.fuzz.GremlinFuzzInputs;
import io.tetradb.testing.fuzz.FuzzSettings;
import io.tetradb.testing.fuzz.FuzzTally;
import io.tetradb.testing.fuzz.HttpFuzzer;
import io.tetradb.testing.fuzz.MemoryProbe;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.Result;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Gremlin face under hostile input, in two parts: the WebSocket upgrade request itself mutated, and, after a valid
 * upgrade, mutated WebSocket frames (GraphSON text and binary, GraphBinary), frames declaring 2^62 bytes, 10,000
 * levels of JSON, bad UTF-8 and SASL garbage. gremlin-driver must keep working, the canary vertices must read back
 * unchanged, no connection may hang, the heap after GC stays flat. Long form:
 * {@code mvn -pl server verify -Dtest=GremlinFuzzTest -Dtetradb.fuzz.inputs=1000000}.
 */
class GremlinFuzzTest {
    @TempDir
    static Path dataDir;
    static TetraDbServer server;
    static Cluster cluster;
    static Client client;

    @BeforeAll
    static void start() {
        server = new TetraDbServer(ServerConfig.ephemeral(dataDir).withGremlinPort(0)).start();
        InetSocketAddress a = server.endpoint("gremlin").address();
        cluster = TestGremlin.cluster(a).create();
        client = cluster.connect();
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static List<Object> submit(String script) {
        try {
            return client.submit(script).all().get().stream().map(Result::getObject).toList();
        } catch (Exception e) {
            throw new AssertionError("gremlin-driver is no longer served: " + e, e);
        }
    }

    @Test
    void hostileFramesNeitherCrashNorHangNorLeak() throws Exception {
        for (int i = 0; i < 20; i++) {
            submit("g.addV('canary').property('pk','c').property(T.id,'canary" + i + "').property('n'," + i + ")");
        }
        String canaryQuery = "g.V().hasLabel('canary').order().by(T.id).valueMap(true).toList().toString()";
        List<Object> before = submit(canaryQuery);

        FuzzSettings settings = FuzzSettings.fromSystemProperties();
        // the short form keeps to a few hundred upgrades: each costs a WebSocket handshake on a loaded machine
        long perPart = settings.longForm() ? settings.inputs() / 2 : 300;
        FuzzSettings half = new FuzzSettings(perPart, settings.seed(), settings.budget());
        InetSocketAddress target = server.endpoint("gremlin").address();
        Runnable alive = () -> assertEquals(1, submit("g.V('canary0').count().next()").size());
        byte[] upgrade = GremlinFuzzInputs.upgrade();
        List<byte[]> frames = GremlinFuzzInputs.frames();
        List<byte[]> upgrades = GremlinFuzzInputs.upgrades();
        FuzzTally handshakes = HttpFuzzer.run("gremlin-upgrade", target, upgrades, half, alive);
        FuzzTally framed = HttpFuzzer.run("gremlin-frames", target, upgrade, frames, half, alive);
        long heapAfter = MemoryProbe.heapUsedAfterGc();

        assertTrue(handshakes.hangs().isEmpty(), "hangs: " + handshakes.hangs());
        assertTrue(framed.hangs().isEmpty(), "hangs: " + framed.hangs());
        assertEquals(before, submit(canaryQuery), "the canary vertices are unchanged");
        assertTrue(heapAfter - handshakes.heapBefore() < 64L * 1024 * 1024, "live heap grew by "
                + (heapAfter - handshakes.heapBefore()) / (1024 * 1024) + " MB");
    }
}

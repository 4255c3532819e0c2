package io.tetradb.server.gremlin;

import io.tetradb.server.gremlin.security.AbandonedEvaluations;
import io.tetradb.testing.TestTime;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.Result;
import org.apache.tinkerpop.gremlin.structure.T;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Clients that send endless requests and disconnect must not starve a real client: with the server's evaluation
 * timeout at 10 minutes, six connections each send an endless script and go away while two of them run; the running
 * ones are interrupted when their connections close, the queued ones are never started, and a real client's request
 * is answered at once instead of after the abandoned work.
 */
class GremlinAbandonedRequestsTest {
    /** How long the test waits for a connection or an answer: only a hung server takes that long. */
    private static final long PATIENCE_SECONDS = TestTime.patience(Duration.ZERO).toSeconds();
    @TempDir
    static Path dataDir;

    static TimedGremlinServer server;
    static GremlinEndpoint gremlin;
    static Cluster cluster;
    static Client client;

    @BeforeAll
    static void start() throws Exception {
        server = new TimedGremlinServer(dataDir, Duration.ofMinutes(10), local -> local
                .addV("n").property("pk", "a").property(T.id, "one").as("one")
                .addV("n").property("pk", "a").property(T.id, "two").addE("e").from("one").iterate());
        gremlin = server.gremlin;
        cluster = server.cluster;
        client = cluster.connect();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    private static String request(String script, String language) {
        return "{\"requestId\":\"" + UUID.randomUUID() + "\",\"op\":\"eval\",\"processor\":\"\",\"args\":{"
                + "\"gremlin\":\"" + script + "\",\"language\":\"" + language + "\"}}";
    }

    private static long busyWorkers() {
        return Arrays.stream(ManagementFactory.getThreadMXBean().dumpAllThreads(false, false))
                .filter(t -> t.getThreadName().startsWith("gremlin-server-exec"))
                .map(ThreadInfo::getStackTrace)
                .filter(stack -> Arrays.stream(stack).anyMatch(f -> f.getClassName().startsWith("Script")
                        || f.getClassName().contains("RepeatStep")))
                .count();
    }

    /** Polls a condition until it holds; fails only when it never does ({@link TestTime#patience}). */
    private static void await(String what, java.util.function.BooleanSupplier condition) {
        TestTime.waitUntil(what, condition);
    }

    @Test
    void endlessRequestsOfClientsThatLeftNeitherRunOnNorWaitAheadOfARealClient() throws Exception {
        assertEquals(2L, client.submit("g.V().count()").all().get(PATIENCE_SECONDS, TimeUnit.SECONDS).get(0)
                .getLong());
        long skippedBefore = AbandonedEvaluations.skipped();
        long interruptedBefore = AbandonedEvaluations.interrupted();
        HttpClient http = HttpClient.newHttpClient();
        URI uri = URI.create("ws://" + gremlin.address().getAddress().getHostAddress() + ":"
                + gremlin.address().getPort() + "/gremlin");
        List<WebSocket> floods = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            WebSocket ws = http.newWebSocketBuilder().buildAsync(uri, new WebSocket.Listener() { }).get(PATIENCE_SECONDS,
                    TimeUnit.SECONDS);
            String script = i % 2 == 0 ? request("while (true) { }", "gremlin-groovy")
                    : request("g.V().repeat(both()).times(2000000000).count()", "gremlin-lang");
            ws.sendText(script, true).get(PATIENCE_SECONDS, TimeUnit.SECONDS);
            floods.add(ws);
        }
        // an endless request of each kind runs (both() alternates between the two vertices for ever)
        await("the endless requests occupy the evaluation threads", () -> busyWorkers() >= 2);
        floods.forEach(WebSocket::abort);

        // answered well before even one abandoned request could have reached its 10-minute timeout: a fifth of it,
        // far above a loaded machine's delay (not scaled by tetradb.test.timeScale: it must stay below 10 minutes)
        List<Result> r = client.submit("g.V().count()").all().get(120, TimeUnit.SECONDS);
        assertEquals(2L, r.get(0).getLong());
        // every abandoned request is skipped when it leaves the queue or was stopped while it ran
        await("all six abandoned requests skipped or stopped", () -> AbandonedEvaluations.skipped() - skippedBefore
                + AbandonedEvaluations.interrupted() - interruptedBefore == 6);
        await("no evaluation thread still runs abandoned work", () -> busyWorkers() == 0);
        long interrupted = AbandonedEvaluations.interrupted() - interruptedBefore;
        assertTrue(interrupted >= 1, "the running requests were interrupted: " + interrupted);
    }
}

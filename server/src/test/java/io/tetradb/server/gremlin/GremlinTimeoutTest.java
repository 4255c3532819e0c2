package io.tetradb.server.gremlin;

import io.tetradb.testing.TestTime;
import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.RequestOptions;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.driver.exception.ResponseException;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A script runs at most the configured time (500 ms here), is then answered with 598 SERVER_TIMEOUT, and really
 * stops: no thread is left running its code (checked through the JVM's thread stacks, with a bounded wait).
 */
class GremlinTimeoutTest {
    private static final Duration TIMEOUT = Duration.ofMillis(500);
    /** The longest a stopped evaluation may take to unwind before the test calls it still running: hung, not slow. */
    private static final long UNWIND_LIMIT_NANOS = TestTime.patience(Duration.ZERO).toNanos();
    /** How long the test waits for an answer: only a hung server takes that long. */
    private static final long ANSWER_WAIT_SECONDS = TestTime.patience(Duration.ZERO).toSeconds();
    /**
     * What tells the server's limit from the client's 600 s: 240 times the limit, so a loaded machine still answers
     * within it, and a fifth of what the client asked for, so an answer at the client's time cannot pass. Not scaled
     * by {@code tetradb.test.timeScale}: it must stay below 600 s.
     */
    private static final Duration SERVER_LIMIT_NOT_CLIENTS = Duration.ofSeconds(120);
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    @TempDir
    static Path dataDir;

    static TimedGremlinServer server;
    static GremlinEndpoint gremlin;
    static Cluster cluster;
    static Client client;
    static GraphTraversalSource g;

    @BeforeAll
    static void start() throws Exception {
        // the server's own setting (what --gremlin-timeout-ms gives), so the test also covers its plumbing
        server = new TimedGremlinServer(dataDir, TIMEOUT, local -> local
                .addV("n").property("pk", "t").property(T.id, "a").as("a")
                .addV("n").property("pk", "t").property(T.id, "b").addE("e").from("a").iterate());
        gremlin = server.gremlin;
        cluster = server.cluster;
        client = cluster.connect();
        g = server.g();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    /**
     * A Gremlin Server worker (its evaluation and session threads) that is doing anything but waiting for work: an
     * idle worker's stack is only the JDK's pool and queue frames.
     */
    private static boolean busyWorker(ThreadInfo thread) {
        return (thread.getThreadName().startsWith("gremlin-server-exec")
                || thread.getThreadName().startsWith("gremlin-server-session"))
                && Arrays.stream(thread.getStackTrace()).anyMatch(f -> !f.getClassName().startsWith("java.")
                && !f.getClassName().startsWith("jdk.") && !f.getClassName().startsWith("io.netty."));
    }

    private static ResponseException timesOut(Client c, String script, RequestOptions options) {
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> c.submit(script, options).all().get(ANSWER_WAIT_SECONDS, TimeUnit.SECONDS));
        ResponseException timeout = assertInstanceOf(ResponseException.class, e.getCause(), String.valueOf(e.getCause()));
        assertEquals(ResponseStatusCode.SERVER_ERROR_TIMEOUT, timeout.getResponseStatusCode(), timeout.getMessage());
        return timeout;
    }

    /** Polls the JVM's threads until no Gremlin worker is busy; fails after the unwind limit. */
    private static void noWorkerBusy(String what) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long deadline = System.nanoTime() + UNWIND_LIMIT_NANOS;
        while (true) {
            List<String> busy = Arrays.stream(threads.dumpAllThreads(false, false))
                    .filter(GremlinTimeoutTest::busyWorker).map(ThreadInfo::getThreadName).toList();
            if (busy.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                fail(what + " still runs after its timeout answered, on " + busy);
            }
            LockSupport.parkNanos(POLL_NANOS);  // a bounded poll of a condition, not a timing assumption
        }
    }

    @Test
    void anEndlessGroovyLoopIsAnsweredWith598AndStops() throws Exception {
        ResponseException e = timesOut(client, "while (true) { }", RequestOptions.EMPTY);
        assertTrue(e.getMessage().contains("500"), e.getMessage());
        noWorkerBusy("while (true) { }");
        assertEquals(2L, g.V().count().next());
    }

    @Test
    void aClientCannotAskForMoreTimeThanTheServerAllows() throws Exception {
        long started = System.nanoTime();
        timesOut(client, "long i = 0; while (true) { i++ }", RequestOptions.build().timeout(600_000).create());
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertTrue(took.compareTo(SERVER_LIMIT_NOT_CLIENTS) < 0, "answered at the server's limit, not the client's "
                + "600 s: after " + took);
        noWorkerBusy("while (true) { i++ }");
    }

    @Test
    void anEndlessClosureLoopStopsToo() throws Exception {
        timesOut(client, "(1..Integer.MAX_VALUE).each { int x = it * 2 }; (1..Integer.MAX_VALUE).each { }",
                RequestOptions.EMPTY);
        noWorkerBusy("(1..MAX).each { }");
    }

    @Test
    void anEndlessLoopInASessionStops() throws Exception {
        Client session = cluster.connect("timeout-session");
        try {
            timesOut(session, "while (true) { }", RequestOptions.EMPTY);
            noWorkerBusy("while (true) { } in a session");
            assertEquals(2L, g.V().count().next());
        } finally {
            session.close();
        }
    }

    @Test
    void aLongGremlinLangTraversalStops() throws Exception {
        timesOut(client, "g.V().repeat(both()).times(2000000000).count()",
                RequestOptions.build().language("gremlin-lang").create());
        noWorkerBusy("repeat(both()).times(2000000000)");
    }
}

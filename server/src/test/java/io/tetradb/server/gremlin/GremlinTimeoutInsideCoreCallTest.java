package io.tetradb.server.gremlin;

import io.tetradb.core.cancel.CallStop;
import org.apache.tinkerpop.gremlin.driver.exception.ResponseException;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Gremlin's evaluation timeout interrupts the worker; the core's loops now see that interrupt inside one core call
 * (a page of {@code g.V().limit(1000).count()} over 300 vertices) and stop there. The test holds the traversal at the core's
 * first poll until the interrupt comes (Gremlin Server's own 500 ms timer; the wait is bounded, nothing asserted on
 * time): the client is answered 598 and the core polls no more on that thread. Before, the core never polled, so the
 * traversal was never held and answered its count.
 */
class GremlinTimeoutInsideCoreCallTest {
    @TempDir
    static Path dataDir;
    static TimedGremlinServer server;
    static GraphTraversalSource g;

    @BeforeAll
    static void start() throws Exception {
        server = new TimedGremlinServer(dataDir, Duration.ofMillis(500), local -> {
            for (int i = 0; i < 300; i++) {
                local.addV("n").property("pk", "t").property(T.id, "v" + i).iterate();
            }
        });
        g = server.g();
    }

    @AfterAll
    static void stop() throws Exception {
        CallStop.pollHook(null);
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theEvaluationTimeoutStopsTheCoreLoopItInterrupts() throws Exception {
        AtomicInteger polls = new AtomicInteger();
        AtomicBoolean interrupted = new AtomicBoolean();
        CountDownLatch woke = new CountDownLatch(1);
        CallStop.pollHook(() -> {
            String name = Thread.currentThread().getName();
            if (!name.startsWith("gremlin-server-exec") && !name.startsWith("gremlin-server-session")) {
                return;
            }
            if (polls.incrementAndGet() == 1) {
                // held until the server's 500 ms timeout interrupts it; the bound only ends a hung test
                long until = System.nanoTime() + io.tetradb.testing.TestTime.patience(java.time.Duration.ZERO).toNanos();
                while (!Thread.currentThread().isInterrupted() && System.nanoTime() < until) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
                }
                interrupted.set(Thread.currentThread().isInterrupted());
                woke.countDown();
            }
        });
        try {
            // limit() keeps TetraCountStrategy's one COUNT query out: the vertices are read in pages
            Exception e = assertThrows(Exception.class, () -> g.V().limit(1000).count().next());
            Throwable cause = e;
            while (!(cause instanceof ResponseException) && cause.getCause() != null) {
                cause = cause.getCause();
            }
            ResponseException r = assertInstanceOf(ResponseException.class, cause, String.valueOf(e));
            assertEquals(ResponseStatusCode.SERVER_ERROR_TIMEOUT, r.getResponseStatusCode(), r.getMessage());
            assertTrue(woke.await(io.tetradb.testing.TestTime.patience(java.time.Duration.ZERO).toSeconds(),
                    TimeUnit.SECONDS), "the held poll ended"); // 598 may come first
            assertTrue(interrupted.get(), "Gremlin Server's timeout interrupted the worker inside the core call");
            assertEquals(1, polls.get(), "the core stopped at the poll that saw the interrupt");
        } finally {
            CallStop.pollHook(null);
        }
        assertEquals("t", servedOn(), "the server serves on");
    }

    /** A point read; retried when the loaded machine makes even it miss the 500 ms bound. */
    private static Object servedOn() {
        for (int attempt = 1; ; attempt++) {
            try {
                return g.V("v1").values("pk").next();
            } catch (RuntimeException e) {
                if (attempt == 5) {
                    throw e;
                }
            }
        }
    }
}

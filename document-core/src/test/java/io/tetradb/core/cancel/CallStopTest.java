package io.tetradb.core.cancel;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.Status;
import io.tetradb.core.query.sql.SqlParser;
import io.tetradb.core.store.ContainerQuery;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.document.CosmosClient;
import io.tetradb.document.CosmosClientBuilder;
import io.tetradb.document.CosmosContainer;
import io.tetradb.document.CosmosException;
import io.tetradb.document.CosmosQueryRequestOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One core call stops inside its loop when its request's {@link StopSignal} says so or its thread is interrupted —
 * not only between calls. The triggers count polls (a row-count trigger, no timers): a signal that says stop at its
 * n-th poll. On the code before core-deadline (no checks) every call here runs to its end and the tests that expect a
 * stop fail.
 */
class CallStopTest {
    static final ObjectMapper M = new ObjectMapper();
    static final int ITEMS = 2_000;

    @TempDir
    static Path dir;
    static CosmosClient client;
    static CosmosContainer container;
    static ContainerStore store;

    @BeforeAll
    static void load() throws Exception {
        client = new CosmosClientBuilder().dataDirectory(dir).buildClient();
        client.createDatabase("db");
        client.getDatabase("db").createContainer("c", "/pk");
        container = client.getDatabase("db").getContainer("c");
        for (int i = 0; i < ITEMS; i++) {
            container.createItem(M.readTree("{\"id\":\"i" + i + "\",\"pk\":\"p" + (i % 7) + "\",\"n\":" + i + "}"));
        }
        ObjectNode wide = M.createObjectNode().put("id", "wide").put("pk", "w");
        ArrayNode arr = wide.putArray("arr");
        for (int i = 0; i < 100; i++) {
            arr.add(i);
        }
        container.createItem(wide);
        store = client.coreStore().container("db", "c");
    }

    @AfterEach
    void clearHook() {
        CallStop.pollHook(null);
        Thread.interrupted();
    }

    /** Says {@code reason} from its {@code n}-th poll on, and counts its polls. */
    static final class AfterPolls implements StopSignal {
        final AtomicInteger polls = new AtomicInteger();
        final int n;
        final StopReason reason;

        AfterPolls(int n, StopReason reason) {
            this.n = n;
            this.reason = reason;
        }

        @Override
        public StopReason poll() {
            return polls.incrementAndGet() >= n ? reason : null;
        }
    }

    private static ContainerQuery.Page page(String sql) {
        return store.queryPage(SqlParser.parse(sql), Map.of(), null, null, null, 100, 4L * 1024 * 1024);
    }

    @Test
    void aFullScanThatMatchesNothingStopsInsideItsOnePage() {
        // one page: the filter rejects every item, so the core reads all 2,001 before it can answer
        AfterPolls signal = new AfterPolls(4, StopReason.TIME_LIMIT);
        CallStoppedException e;
        try (CallStop.Scope s = CallStop.install(signal)) {
            e = assertThrows(CallStoppedException.class, () -> page("SELECT * FROM c WHERE c.n * 2 = -1"));
        }
        assertEquals(StopReason.TIME_LIMIT, e.reason());
        assertEquals(Status.REQUEST_TIMEOUT, e.status());
        assertEquals(4, signal.polls.get(), "stopped at the poll that said so: within 4 x 64 of 2,001 rows");
        assertEquals(0, page("SELECT * FROM c WHERE c.n * 2 = -1").results().size(), "without the signal it answers");
    }

    @Test
    void anAggregateOverAJoinOfLargeArraysStops() {
        // 100 x 100 x 100 rows from one item: a million rows folded in one call
        AfterPolls signal = new AfterPolls(10, StopReason.KILLED);
        CallStoppedException e;
        try (CallStop.Scope s = CallStop.install(signal)) {
            e = assertThrows(CallStoppedException.class, () -> page(
                    "SELECT VALUE COUNT(1) FROM c JOIN a IN c.arr JOIN b IN c.arr JOIN d IN c.arr WHERE a + b + d < 0"));
        }
        assertEquals(StopReason.KILLED, e.reason());
        assertEquals(10, signal.polls.get());
    }

    @Test
    void theInterpreterStopsToo() {
        // a subquery as the FROM source runs in the in-memory interpreter: 10,000 rows of one item
        AfterPolls signal = new AfterPolls(5, StopReason.TIME_LIMIT);
        try (CallStop.Scope s = CallStop.install(signal)) {
            assertThrows(CallStoppedException.class, () -> page(
                    "SELECT VALUE COUNT(1) FROM (SELECT a, b FROM c JOIN a IN c.arr JOIN b IN c.arr) t"));
        }
        assertEquals(5, signal.polls.get());
    }

    @Test
    void anInterruptedThreadStopsItsCallAndKeepsTheFlag() {
        Thread.currentThread().interrupt();
        CallStoppedException e = assertThrows(CallStoppedException.class,
                () -> page("SELECT * FROM c WHERE c.n * 2 = -1"));
        assertEquals(StopReason.INTERRUPTED, e.reason());
        assertTrue(Thread.interrupted(), "the caller still sees the interrupt");
    }

    @Test
    void theDocumentApiAnswers408WithTheCoreStopAsCause() {
        AtomicInteger polls = new AtomicInteger();
        CallStop.pollHook(polls::incrementAndGet);
        CosmosException e;
        try (CallStop.Scope s = CallStop.install(new AfterPolls(3, StopReason.TIME_LIMIT))) {
            e = assertThrows(CosmosException.class, () -> container.queryItems("SELECT * FROM c WHERE c.n * 2 = -1",
                    new CosmosQueryRequestOptions(), ObjectNode.class).iterator().hasNext());
        }
        assertEquals(408, e.getStatusCode());
        assertInstanceOf(CallStoppedException.class, e.getCause());
        assertEquals(3, polls.get());
    }

    @Test
    void aScopeRestoresTheSignalBeforeIt() {
        AfterPolls outer = new AfterPolls(1, StopReason.KILLED);
        try (CallStop.Scope o = CallStop.install(outer)) {
            try (CallStop.Scope i = CallStop.install(() -> null)) {
                assertEquals(0, page("SELECT * FROM c WHERE c.n * 2 = -1").results().size(), "the inner signal goes on");
            }
            assertThrows(CallStoppedException.class, CallStop::checkNow);
        }
        CallStop.checkNow(); // nothing installed, not interrupted: nothing thrown
    }

    @org.junit.jupiter.api.AfterAll
    static void close() {
        client.close();
    }
}

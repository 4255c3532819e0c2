package io.tetradb.server.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.tetradb.testing.TestTime;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server's log under a client's flood, on Logback's own objects (a context of the test's, not the process's):
 * {@link RepeatedLineFilter} keeps the first lines of each pattern per window and reports how many it left out;
 * {@link CountedAsyncAppender} never makes the logging thread wait for a stalled stderr and counts what it drops.
 */
@Timeout(600) // a hung test's bound, above the waits on TestTime's patience (2 min)
class FloodSafeLoggingTest {
    @Test
    void firstLinesOfEachWindowAreWrittenTheRestCountedAndReported() {
        LoggerContext context = newContext();
        AtomicLong now = new AtomicLong();
        RepeatedLineFilter filter = new RepeatedLineFilter();
        filter.setBurst(3);
        filter.setWindowSeconds(1);
        filter.setClock(now::get);
        filter.setContext(context);
        filter.start();
        context.addTurboFilter(filter);
        ListAppender<ILoggingEvent> lines = listAppender(context);
        Logger log = context.getLogger("io.tetradb.test.Face");
        log.setLevel(Level.INFO);
        log.addAppender(lines);

        AtomicInteger built = new AtomicInteger();
        for (int i = 0; i < 10; i++) {
            int n = i;
            log.warn("bad request {}", new Object() {
                @Override
                public String toString() {
                    built.incrementAndGet();
                    return Integer.toString(n);
                }
            });
        }
        log.warn("another call site {}", 1); // its own budget
        log.debug("bad request {}", 99); // a level not enabled is not counted
        assertEquals(List.of("bad request 0", "bad request 1", "bad request 2", "another call site 1"),
                messages(lines));
        assertEquals(3, built.get(), "a line not written is never formatted");

        now.addAndGet(1_000_000_000L); // the next window
        log.warn("bad request {}", 10);
        List<String> after = messages(lines).subList(4, 6);
        assertEquals("7 more lines like \"bad request {}\" were not logged (at most 3 a window of 1 s)", after.get(0));
        assertEquals("bad request 10", after.get(1));
        assertEquals(Level.WARN, lines.list.get(4).getLevel(), "the report at the level of the lines it counts");
    }

    @Test
    void aStalledStderrNeverBlocksTheCallerAndTheFirstLinesSurvive() throws Exception {
        LoggerContext context = newContext();
        CountDownLatch stderrStalled = new CountDownLatch(1);
        List<String> written = new CopyOnWriteArrayList<>();
        CountedAsyncAppender async = asyncOverStalledStderr(context, 4, stderrStalled, written);
        Logger log = context.getLogger("io.tetradb.test.Face");
        log.addAppender(async);

        // the caller must come back from every call although nothing can be written (a hang fails here)
        assertTimeoutPreemptively(TestTime.patience(Duration.ZERO), () -> {
            for (int i = 0; i < 100; i++) {
                log.error("line {}", i, new IllegalStateException("boom"));
            }
        });
        assertEquals(96, async.droppedCount(), "four queued (one of them at the stalled sink), the rest dropped");
        stderrStalled.countDown();
        awaitSize(written, 5);
        assertEquals("line 0", written.get(0), "the first occurrence is kept");
        assertEquals("96 log lines dropped (96 since the start): the log queue was full, stderr not read fast enough",
                written.get(1), "the loss is reported once stderr moves again");
        assertEquals(List.of("line 1", "line 2", "line 3"), written.subList(2, 5));
        async.stop();
    }

    @Test
    void belowAFifthOfTheQueueFreeLinesUnderWarnAreDroppedAndCounted() throws Exception {
        LoggerContext context = newContext();
        CountDownLatch stderrStalled = new CountDownLatch(1);
        List<String> written = new CopyOnWriteArrayList<>();
        CountedAsyncAppender async = asyncOverStalledStderr(context, 10, stderrStalled, written); // threshold 2
        Logger log = context.getLogger("io.tetradb.test.Face");
        log.addAppender(async);
        for (int i = 0; i < 8; i++) {
            log.info("info {}", i); // 8 slots taken, 2 free: at the threshold
        }
        log.info("info {}", 8); // 1 would be free: dropped (INFO)
        log.warn("warn {}", 9); // kept: WARN takes the slots below the threshold
        log.warn("warn {}", 10); // the last slot
        log.warn("warn {}", 11); // none free: dropped
        assertEquals(2, async.droppedCount());
        stderrStalled.countDown();
        awaitSize(written, 11); // 8 + 2 lines and the report
        assertTrue(written.containsAll(List.of("warn 9", "warn 10")) && !written.contains("info 8")
                && !written.contains("warn 11"), written.toString());
        async.stop();
    }

    /** The appender as logback.xml sets it up, over a stderr whose writes do not return until {@code stalled} opens. */
    private static CountedAsyncAppender asyncOverStalledStderr(LoggerContext context, int queueSize,
            CountDownLatch stalled, List<String> written) {
        AppenderBase<ILoggingEvent> stderr = new AppenderBase<>() {
            @Override
            protected void append(ILoggingEvent event) {
                try {
                    stalled.await(); // a full pipe: write(2) does not return
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                written.add(event.getFormattedMessage());
            }
        };
        stderr.setContext(context);
        stderr.start();
        CountedAsyncAppender async = new CountedAsyncAppender();
        async.setContext(context);
        async.setName("ASYNC");
        async.setQueueSize(queueSize);
        async.addAppender(stderr);
        async.start();
        return async;
    }

    /** The worker writes once stderr moves again; a bounded wait, so that a lost line fails instead of hanging. */
    private static void awaitSize(List<String> written, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TestTime.patience(Duration.ZERO).toNanos();
        while (written.size() < n) {
            assertTrue(System.nanoTime() < deadline, "only " + written + " written");
            Thread.sleep(5);
        }
    }

    private static LoggerContext newContext() {
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter()); // set by Logback's own startup
        return context;
    }

    private static ListAppender<ILoggingEvent> listAppender(LoggerContext context) {
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.setContext(context);
        lines.start();
        return lines;
    }

    private static List<String> messages(ListAppender<ILoggingEvent> lines) {
        return lines.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }
}

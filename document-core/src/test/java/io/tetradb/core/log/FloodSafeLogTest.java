package io.tetradb.core.log;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FloodSafeLogTest {
    @Test
    void firstLinesOfEachWindowAreWrittenTheRestCountedAndReported() throws Exception {
        AtomicLong now = new AtomicLong();
        LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
        FloodSafeLog log = new FloodSafeLog((line, error) -> lines.add(line), 3, 1_000, now::get,
                new FloodSafeLog.Writer(100));
        AtomicInteger built = new AtomicInteger();
        for (int i = 0; i < 10; i++) {
            int n = i;
            log.log(() -> {
                built.incrementAndGet();
                return "bad request " + n;
            }, null);
        }
        assertEquals(List.of("bad request 0", "bad request 1", "bad request 2"), take(lines, 3));
        assertEquals(3, built.get(), "a line not written is never built");
        now.addAndGet(1_000); // the next window
        log.log(() -> "bad request 10", null);
        assertEquals(List.of("bad request 10 (7 more like this not logged before it)"), take(lines, 1));
    }

    @Test
    void aStalledSinkNeverBlocksTheCallerAndTheFirstLinesSurvive() throws Exception {
        CountDownLatch stderrStalled = new CountDownLatch(1);
        List<String> written = new CopyOnWriteArrayList<>();
        FloodSafeLog.Writer writer = new FloodSafeLog.Writer(4);
        FloodSafeLog log = new FloodSafeLog((line, error) -> {
            try {
                stderrStalled.await(); // a full pipe: write(2) does not return
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            written.add(line);
        }, 1_000, 60_000_000_000L, System::nanoTime, writer);
        // the caller must come back from every call although nothing can be written (a hang fails here)
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            for (int i = 0; i < 100; i++) {
                int n = i;
                log.log(() -> "line " + n, new IllegalStateException("boom"));
            }
        });
        long dropped = writer.dropped.get();
        assertTrue(dropped == 95 || dropped == 96, "one line at the stalled sink, four queued, the rest dropped: "
                + dropped);
        stderrStalled.countDown();
        long accepted = 100 - dropped;
        while (written.size() < accepted) {
            Thread.onSpinWait();
        }
        assertEquals("line 0", written.get(0), "the first occurrence is kept");
    }

    private static List<String> take(LinkedBlockingQueue<String> lines, int n) throws InterruptedException {
        List<String> out = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            String line = lines.poll(30, TimeUnit.SECONDS);
            if (line == null) {
                break;
            }
            out.add(line);
        }
        return out;
    }
}

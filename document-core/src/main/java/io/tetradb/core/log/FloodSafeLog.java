package io.tetradb.core.log;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A log line that a client's requests trigger (a command that failed, a 500, a validator warning), written so that
 * a flood of such requests can neither slow the server nor block it: the first {@code burst} lines of each window
 * (a minute by default) are written in full, later ones are only counted and the count is added to the next line
 * written; lines are handed to one daemon writer thread through a bounded queue, so a request thread never waits on
 * stderr (a stalled log reader fills the pipe and would block the writer in {@code write(2)}: then the queue fills and
 * lines are dropped and counted, not waited for). A suppressed line costs a counter: its text is never built.
 */
public final class FloodSafeLog {
    /** Where a line finally goes (the face's slf4j or System.Logger call), on the writer thread. */
    @FunctionalInterface
    public interface Sink {
        void write(String line, Throwable error);
    }

    static final int DEFAULT_BURST = 20;
    static final long DEFAULT_WINDOW_NANOS = 60_000_000_000L;
    private static final Writer SHARED = new Writer(4096);
    /** {@code -Dtetradb.log.floodSafe=false}: every line written at once on the caller's thread, as before (A/B runs). */
    private static final boolean ENABLED = !"false".equals(System.getProperty("tetradb.log.floodSafe"));

    private final Sink sink;
    private final int burst;
    private final long windowNanos;
    private final LongSupplier clock;
    private final Writer writer;
    private long windowStart;
    private int written;
    private long suppressed;
    private long suppressedBefore;

    /** The first 20 lines a minute, through the process's shared writer thread. */
    public FloodSafeLog(Sink sink) {
        this(sink, DEFAULT_BURST, DEFAULT_WINDOW_NANOS, System::nanoTime, SHARED);
    }

    FloodSafeLog(Sink sink, int burst, long windowNanos, LongSupplier clock, Writer writer) {
        this.sink = sink;
        this.burst = burst;
        this.windowNanos = windowNanos;
        this.clock = clock;
        this.writer = writer;
        this.windowStart = clock.getAsLong();
    }

    /** Logs the line (built only if it is written) with its exception, unless this window's burst is spent. */
    public void log(Supplier<String> line, Throwable error) {
        if (!ENABLED && writer == SHARED) {
            sink.write(line.get(), error);
            return;
        }
        long before;
        synchronized (this) {
            long now = clock.getAsLong();
            if (now - windowStart >= windowNanos) {
                windowStart = now;
                written = 0;
                suppressedBefore += suppressed;
                suppressed = 0;
            }
            if (written >= burst) {
                suppressed++;
                return;
            }
            written++;
            before = suppressedBefore;
            suppressedBefore = 0;
        }
        String text = line.get();
        if (before > 0) {
            text += " (" + before + " more like this not logged before it)";
        }
        writer.offer(text, error, sink);
    }

    /** How many lines were dropped because the writer could not keep up (stderr not read), in this process. */
    public static long dropped() {
        return SHARED.dropped.get();
    }

    /** One daemon thread writing queued lines; a full queue drops (and counts) instead of waiting. */
    static final class Writer {
        private final BlockingQueue<Runnable> queue;
        final AtomicLong dropped = new AtomicLong();
        private volatile Thread thread;

        Writer(int capacity) {
            this.queue = new ArrayBlockingQueue<>(capacity);
        }

        void offer(String text, Throwable error, Sink sink) {
            long lost = dropped.get();
            String line = lost > 0 ? text + " (" + lost + " log lines dropped so far: stderr is not keeping up)" : text;
            if (!queue.offer(() -> sink.write(line, error))) {
                dropped.incrementAndGet();
                return;
            }
            if (thread == null) {
                start();
            }
        }

        private synchronized void start() {
            if (thread != null) {
                return;
            }
            Thread t = new Thread(this::drain, "tetradb-log-writer");
            t.setDaemon(true);
            t.start();
            thread = t;
        }

        private void drain() {
            while (true) {
                try {
                    queue.take().run();
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    dropped.incrementAndGet(); // a sink that failed: the line is lost, the writer goes on
                }
            }
        }
    }
}

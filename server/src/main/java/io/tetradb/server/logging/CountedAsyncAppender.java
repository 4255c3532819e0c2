package io.tetradb.server.logging;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.UnsynchronizedAppenderBase;

import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Logback's {@link AsyncAppender} with {@code neverBlock} (a request thread hands its line to the queue and goes on;
 * one worker thread writes to stderr, and only that thread waits when nobody reads stderr), and the lines it drops
 * counted and reported. Logback's own appender drops silently when the queue is full; here a slot is reserved before
 * a line is queued (a line without a free slot is dropped and counted, exactly: the queue itself is never full when
 * offered to), and below a fifth of the slots free, lines under WARN are dropped too (Logback's discarding threshold,
 * counted). Once the worker writes again, a line "N log lines dropped" follows.
 */
public final class CountedAsyncAppender extends AsyncAppender {
    static final String REPORT_LOGGER = "io.tetradb.log";
    private final AtomicLong dropped = new AtomicLong();
    private Semaphore slots;
    private int threshold = -1;

    /** Lines lost since the start: no free slot, or below the threshold and under WARN. */
    public long droppedCount() {
        return dropped.get();
    }

    @Override
    public void setDiscardingThreshold(int discardingThreshold) {
        this.threshold = discardingThreshold; // decided here; the base class never discards (its threshold is 0)
    }

    @Override
    public int getDiscardingThreshold() {
        return threshold;
    }

    @Override
    public void start() {
        if (isStarted()) {
            return;
        }
        slots = new Semaphore(getQueueSize());
        if (threshold < 0) {
            threshold = getQueueSize() / 5;
        }
        super.setDiscardingThreshold(0);
        setNeverBlock(true);
        super.start();
    }

    /** Logback's AsyncAppender takes one appender; it is wrapped so that each line written frees its slot. */
    @Override
    public void addAppender(Appender<ILoggingEvent> appender) {
        Delivered delivered = new Delivered(appender);
        delivered.setContext(appender.getContext() != null ? appender.getContext() : getContext());
        delivered.setName(appender.getName());
        delivered.start();
        super.addAppender(delivered);
    }

    @Override
    protected void append(ILoggingEvent event) {
        if (!slots.tryAcquire()) {
            dropped.incrementAndGet();
            return;
        }
        if (slots.availablePermits() < threshold && isDiscardable(event)) {
            slots.release();
            dropped.incrementAndGet();
            return;
        }
        try {
            super.append(event);
        } catch (RuntimeException e) {
            slots.release(); // not queued: its slot back, the line counted as lost
            dropped.incrementAndGet();
            throw e;
        }
    }

    /** On the worker thread: writes the line, frees its slot, reports drops not yet reported. */
    private final class Delivered extends UnsynchronizedAppenderBase<ILoggingEvent> {
        private final Appender<ILoggingEvent> out;
        private long reported;

        Delivered(Appender<ILoggingEvent> out) {
            this.out = out;
        }

        @Override
        protected void append(ILoggingEvent event) {
            try {
                out.doAppend(event);
            } finally {
                slots.release();
            }
            long lost = dropped.get();
            if (lost > reported) {
                long since = lost - reported;
                reported = lost;
                out.doAppend(new LoggingEvent(REPORT_LOGGER,
                        ((LoggerContext) getContext()).getLogger(REPORT_LOGGER), Level.WARN,
                        "{} log lines dropped ({} since the start): the log queue was full, stderr not read fast enough",
                        null, new Object[] {since, lost}));
            }
        }

        @Override
        public void stop() {
            out.stop();
            super.stop();
        }
    }
}

package io.tetradb.server.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import org.slf4j.Marker;
import org.slf4j.MarkerFactory;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Lines a client can provoke at will (a validator warning per invalid insert, a 500 per bad request) limited per
 * call site: of each logger's message pattern the first {@code burst} lines of a window (20 a minute by default) are
 * logged, later ones only counted; the next line of that pattern logged after them is preceded by one line saying how
 * many were left out. Logback's {@code DuplicateMessageFilter} keys by pattern too but passes a fixed number of
 * repetitions for as long as the pattern stays in its cache and never says how many it dropped, so a warning that
 * recurs all day would be logged five times and then never again, silently. A denied line is never formatted.
 * Patterns are the call sites' {@code {}} formats, so call sites must pass what varies as arguments; at most
 * {@code maxPatterns} patterns are tracked (the least recently logged forgotten first).
 */
public final class RepeatedLineFilter extends TurboFilter {
    /** Marks this filter's own summary lines, which pass it. */
    static final Marker SUMMARY = MarkerFactory.getMarker("TETRADB_REPEATS");
    private static final String FQCN = RepeatedLineFilter.class.getName();

    private int burst = 20;
    private long windowNanos = 60_000_000_000L;
    private int maxPatterns = 1_000;
    private LongSupplier clock = System::nanoTime;
    private Map<String, Window> windows;

    /** Lines of one pattern passed in full per window (logback.xml: {@code <burst>}). */
    public void setBurst(int burst) {
        this.burst = burst;
    }

    /** The window in seconds (logback.xml: {@code <windowSeconds>}). */
    public void setWindowSeconds(long seconds) {
        this.windowNanos = seconds * 1_000_000_000L;
    }

    public void setMaxPatterns(int maxPatterns) {
        this.maxPatterns = maxPatterns;
    }

    /** Tests move time themselves. */
    void setClock(LongSupplier clock) {
        this.clock = clock;
    }

    @Override
    public void start() {
        int cap = maxPatterns;
        windows = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Window> eldest) {
                return size() > cap;
            }
        };
        super.start();
    }

    @Override
    public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params,
            Throwable t) {
        // isXxxEnabled() asks with no format; disabled levels are not counted (their lines would not be written)
        if (!isStarted() || format == null || level == null || marker == SUMMARY
                || !level.isGreaterOrEqual(logger.getEffectiveLevel())) {
            return FilterReply.NEUTRAL;
        }
        String key = logger.getName() + '\u0000' + format;
        long now = clock.getAsLong();
        long leftOut;
        synchronized (windows) {
            Window w = windows.computeIfAbsent(key, k -> new Window(now));
            if (now - w.start >= windowNanos) {
                w.start = now;
                w.written = 0;
            }
            if (w.written >= burst) {
                w.suppressed++;
                return FilterReply.DENY;
            }
            w.written++;
            leftOut = w.suppressed;
            w.suppressed = 0;
        }
        if (leftOut > 0) {
            logger.log(SUMMARY, FQCN, Level.toLocationAwareLoggerInteger(level),
                    "{} more lines like \"{}\" were not logged (at most {} a window of {} s)",
                    new Object[] {leftOut, format, burst, windowNanos / 1_000_000_000L}, null);
        }
        return FilterReply.NEUTRAL;
    }

    private static final class Window {
        long start;
        int written;
        long suppressed;

        Window(long start) {
            this.start = start;
        }
    }
}

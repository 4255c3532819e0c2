package io.tetradb.mongo.command;

import java.time.Clock;
import java.time.Duration;

/**
 * What open cursors may hold: at most {@code maxOpen} at once (opening one more closes the least recently used), at
 * most {@code maxBytes} of documents buffered between their batches, all cursors together (a command that would
 * go beyond is refused with ExceededMemoryLimit, 146), each closed after {@code idleTimeout} without a getMore
 * (MongoDB's {@code cursorTimeoutMillis}, 10 minutes), measured on {@code clock} (tests move it). Besides these, a
 * cursor opened without a session ends with its connection, and a session's cursors end with the session
 * ({@code endSessions}, {@code killSessions}).
 *
 * @param maxOpen     open cursors kept at most (the whole face), at least 1
 * @param idleTimeout how long a cursor may sit unused
 * @param clock       what idleness is measured on
 * @param maxBytes    document bytes all open cursors may hold together (see {@link io.tetradb.mongo.store.HeldBytes})
 */
public record CursorLimits(int maxOpen, Duration idleTimeout, Clock clock, long maxBytes) {
    /** MongoDB's idle timeout. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(10);
    /**
     * An abandoned cursor holds its continuation's buffered page (up to 1,000 documents, about 290 KB in the fuzz
     * run), so 1,000 of them bound that heap to a few hundred MB on a 2-core machine's default heap.
     */
    public static final int DEFAULT_MAX_OPEN = 1000;

    public CursorLimits {
        if (maxOpen < 1) {
            throw new IllegalArgumentException("at least one cursor must be allowed, not " + maxOpen);
        }
        if (idleTimeout == null || idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("the cursor idle timeout must be positive");
        }
        if (maxBytes < 1) {
            throw new IllegalArgumentException("the cursors' memory limit must be positive, not " + maxBytes);
        }
        clock = clock == null ? Clock.systemUTC() : clock;
    }

    public CursorLimits(int maxOpen, Duration idleTimeout, Clock clock) {
        this(maxOpen, idleTimeout, clock, defaultMaxBytes());
    }

    /**
     * A quarter of the heap, at least 16 MiB (128 MiB of documents with {@code --memory 1g}'s 512 MiB heap): room for
     * one sorted result at MongoDB's 100 MB sort limit, while abandoned cursors cannot take the heap over.
     */
    public static long defaultMaxBytes() {
        return Math.max(16L * 1024 * 1024, Runtime.getRuntime().maxMemory() / 4);
    }

    public static CursorLimits defaults() {
        return new CursorLimits(DEFAULT_MAX_OPEN, DEFAULT_IDLE_TIMEOUT, Clock.systemUTC(), defaultMaxBytes());
    }

    public CursorLimits withMaxOpen(int max) {
        return new CursorLimits(max, idleTimeout, clock, maxBytes);
    }

    public CursorLimits withIdleTimeout(Duration timeout) {
        return new CursorLimits(maxOpen, timeout, clock, maxBytes);
    }

    public CursorLimits withClock(Clock c) {
        return new CursorLimits(maxOpen, idleTimeout, c, maxBytes);
    }

    public CursorLimits withMaxBytes(long bytes) {
        return new CursorLimits(maxOpen, idleTimeout, clock, bytes);
    }
}

package io.tetradb.core.script;

import java.time.Duration;

/**
 * The bounds of one script execution.
 *
 * @param timeout            past it the script is stopped, rolled back, and the caller gets 408 (Cosmos DB: 5 s)
 * @param acceptFraction     after this fraction of {@code timeout}, collection operations answer "not accepted"
 * @param maxOperations      after this many collection operations, further ones answer "not accepted"
 * @param maxAllocatedBytes  the script's thread may allocate at most this many bytes (heap churn, not live size)
 * @param maxResponseBytes   the largest response body (and request body a pre-trigger may set)
 * @param maxLogBytes        the script log is cut after this many characters
 * @param clock              what {@code timeout} and {@code acceptFraction} are measured on ({@link ScriptClock#SYSTEM})
 */
public record ScriptLimits(Duration timeout, double acceptFraction, int maxOperations, long maxAllocatedBytes,
                           int maxResponseBytes, int maxLogBytes, ScriptClock clock) {
    public static final ScriptLimits DEFAULTS = new ScriptLimits(Duration.ofSeconds(5), 0.8, 10_000,
            1L << 30, 2 * 1024 * 1024, 64 * 1024);

    public ScriptLimits(Duration timeout, double acceptFraction, int maxOperations, long maxAllocatedBytes,
                        int maxResponseBytes, int maxLogBytes) {
        this(timeout, acceptFraction, maxOperations, maxAllocatedBytes, maxResponseBytes, maxLogBytes, ScriptClock.SYSTEM);
    }

    public ScriptLimits {
        if (clock == null) {
            throw new IllegalArgumentException("the script clock must not be null");
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the script timeout must be positive");
        }
        if (acceptFraction <= 0 || acceptFraction > 1) {
            throw new IllegalArgumentException("acceptFraction must be in (0, 1]");
        }
    }

    public ScriptLimits withTimeout(Duration d) {
        return new ScriptLimits(d, acceptFraction, maxOperations, maxAllocatedBytes, maxResponseBytes, maxLogBytes, clock);
    }

    public ScriptLimits withMaxOperations(int n) {
        return new ScriptLimits(timeout, acceptFraction, n, maxAllocatedBytes, maxResponseBytes, maxLogBytes, clock);
    }

    public ScriptLimits withMaxAllocatedBytes(long n) {
        return new ScriptLimits(timeout, acceptFraction, maxOperations, n, maxResponseBytes, maxLogBytes, clock);
    }

    /** The same bounds measured on {@code c} (tests: a clock that moves with the script's work, not the machine's speed). */
    public ScriptLimits withClock(ScriptClock c) {
        return new ScriptLimits(timeout, acceptFraction, maxOperations, maxAllocatedBytes, maxResponseBytes, maxLogBytes, c);
    }
}

package io.tetradb.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Patience for tests that wait on another thread or process: bounds that only a hung test reaches, never a slow
 * machine. {@code -Dtetradb.test.timeScale=N} multiplies every one (a very slow CI machine); no test asserts that
 * anything was fast.
 */
public final class TestTime {
    /** The factor from {@code tetradb.test.timeScale} (default 1). */
    public static final double SCALE = scale();

    /** What a test waits at most for something that must happen: long past any loaded machine's delay. */
    public static final Duration HUNG = Duration.ofMinutes(2);

    private TestTime() {
    }

    private static double scale() {
        String s = System.getProperty("tetradb.test.timeScale", "1");
        try {
            double v = Double.parseDouble(s);
            return v >= 1 ? v : 1;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("tetradb.test.timeScale must be a number ≥ 1, not " + s);
        }
    }

    /** {@code d} times the scale. */
    public static Duration scaled(Duration d) {
        return Duration.ofNanos((long) (d.toNanos() * SCALE));
    }

    /** The scaled {@link #HUNG} bound, or the scaled {@code atLeast} when longer. */
    public static Duration patience(Duration atLeast) {
        return scaled(atLeast.compareTo(HUNG) > 0 ? atLeast : HUNG);
    }

    /**
     * Polls {@code condition} until it holds; fails naming {@code what} only past {@link #patience} of
     * {@code atLeast}, i.e. when it is hung, not slow.
     */
    public static void waitUntil(String what, Duration atLeast, BooleanSupplier condition) {
        long deadline = System.nanoTime() + patience(atLeast).toNanos();
        long pause = 1;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("still not " + what + " after " + patience(atLeast).toSeconds() + " s: hung");
            }
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted waiting until " + what);
            }
            pause = Math.min(50, pause * 2);
        }
    }

    /** {@link #waitUntil(String, Duration, BooleanSupplier)} with the default patience. */
    public static void waitUntil(String what, BooleanSupplier condition) {
        waitUntil(what, HUNG, condition);
    }
}

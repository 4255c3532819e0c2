package io.tetradb.bench.graph;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WarmLoadsTest {
    /** Loads of 1,000 elements whose wall times (ms) are given; CPU twice the wall time. */
    private static WarmLoads.Load loads(long... millis) {
        return i -> new long[] {1_000, millis[i] * 1_000_000L, 2 * millis[i] * 1_000_000L};
    }

    @Test
    void loadsGoOnUntilTheLastThreeRatesSettleAndTheirMedianIsReported() throws Exception {
        List<String> progress = new ArrayList<>();
        // rates 100, 200, 500, 950, 1000, 1050, (never reached) 10 el/s
        WarmLoads.Result r = WarmLoads.run(3, 8, loads(10_000, 5_000, 2_000, 1_053, 1_000, 952, 100_000), progress::add);
        assertTrue(r.settled());
        assertEquals(6, r.loads());
        assertEquals(6, progress.size());
        assertEquals(1_000, r.rate(), 1e-6);
        assertEquals(500, r.cpuRate(), 1e-6);
        assertEquals(1_000, r.elements());
    }

    @Test
    void noFewerThanTheMinimumAndNoMoreThanTheMaximum() throws Exception {
        WarmLoads.Result early = WarmLoads.run(5, 8, loads(1_000, 1_000, 1_000, 1_000, 1_000, 1_000), s -> { });
        assertEquals(5, early.loads());
        WarmLoads.Result never = WarmLoads.run(3, 4, loads(1_000, 2_000, 4_000, 8_000), s -> { });
        assertFalse(never.settled());
        assertEquals(4, never.loads());
        assertEquals(1_000 / 4.0, never.rate(), 1e-9); // median of 500, 250, 125 el/s
    }

    @Test
    void loadsOfDifferentSizesAreRefused() {
        WarmLoads.Load shrinking = i -> new long[] {1_000 - i, 1_000_000L, 1_000_000L};
        assertThrows(IllegalStateException.class, () -> WarmLoads.run(3, 4, shrinking, s -> { }));
        assertThrows(IllegalArgumentException.class, () -> WarmLoads.run(2, 4, loads(1, 1, 1, 1), s -> { }));
    }
}

package io.tetradb.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SamplesTest {
    @Test
    void medianOfRoundsAndPercentilesOfLatencies() {
        Samples s = new Samples();
        for (int i = 1; i <= 10_000; i++) {
            s.latency(i * 1_000L); // 1..10000 us
        }
        s.round(100, 1_000_000_000L);
        s.round(300, 1_000_000_000L);
        s.round(200, 1_000_000_000L);
        assertEquals(200, s.medianRate(), 1e-9);
        assertEquals(5_000.0, s.percentileMicros(0.50), 1e-9);
        assertEquals(9_900.0, s.percentileMicros(0.99), 1e-9);
        s.round(400, 1_000_000_000L);
        assertEquals(250, s.medianRate(), 1e-9);
    }
}

package io.tetradb.bench.mongo;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The mongo benchmark's server CPU figure: the median of the rounds' CPU per unit, not all CPU over all units. */
class ServerCpuRoundsTest {
    /** A round of {@code units} in which the groups spent these µs in all (the counters start at 0). */
    private static void round(ServerCpuRounds cpu, long units, long commandMicros, long loopMicros) {
        cpu.add(units, Map.of(), Map.of("command", commandMicros * 1000, "event-loop", loopMicros * 1000));
    }

    @Test
    void oneInflatedRoundMovesTheMedianNotTheFigure() {
        ServerCpuRounds cpu = new ServerCpuRounds();
        round(cpu, 1000, 8_000, 2_000);   // 10 µs per unit
        round(cpu, 1000, 9_000, 2_000);   // 11
        round(cpu, 1000, 60_000, 20_000); // 80: a window where the same work cost 8x the CPU time
        assertEquals(11.0, cpu.microsPerUnit(), 1e-9);
        assertEquals((10 + 11 + 80) / 3.0, cpu.meanMicrosPerUnit(), 1e-9);
        assertEquals("10.0-80.0", cpu.range());
        assertEquals("command=9.0 event-loop=2.0", cpu.byGroup());
        assertEquals(3, cpu.count());
    }

    @Test
    void anEvenCountTakesTheMiddleTwoAndRoundsOfOtherSizesCountPerUnit() {
        ServerCpuRounds cpu = new ServerCpuRounds();
        round(cpu, 1000, 10_000, 0); // 10 µs per unit
        round(cpu, 500, 6_000, 0);   // 12
        round(cpu, 2000, 40_000, 0); // 20
        round(cpu, 100, 10_000, 0);  // 100
        assertEquals(16.0, cpu.microsPerUnit(), 1e-9);
        cpu.reset();
        assertEquals(0, cpu.count());
        assertTrue(Double.isNaN(cpu.microsPerUnit()));
        assertTrue(Double.isNaN(cpu.meanMicrosPerUnit()));
    }
}

package io.tetradb.bench.mongo;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The mongo benchmark's server CPU figure: the median of the rounds' CPU per unit, not all CPU over all units. */
class ServerCpuRoundsTest {
    /** A round of {@code units} in which the groups spent these µs in all (the counters start at 0). */
    private static void round(ServerCpuRounds cpu, long units, long commandMicros, long loopMicros) {
        cpu.add(units, Map.of(), Map.of("command", commandMicros * 1000, "event-loop", loopMicros * 1000), 0);
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

    /**
     * Insert's figure is the lower quartile: with the dear mode at about half the batches (the VM's first touch of heap
     * pages), the median lands in either mode from run to run, the lower quartile stays in the cheap one.
     */
    @Test
    void insertTakesTheLowerQuartileAndTheOtherOperationsTheMedian() {
        ServerCpuRounds cpu = new ServerCpuRounds();
        double[] perUnit = {8, 60, 9, 70, 7, 55, 10, 65, 8.5}; // 5 cheap batches, 4 dear ones, alternating
        for (int i = 0; i < perUnit.length; i++) {
            cpu.add(1000, Map.of(), Map.of("server", (long) (perUnit[i] * 1000 * 1000)), i % 2 == 0 ? 11 : 1655);
        }
        // sorted: 7 8 8.5 9 10 55 60 65 70; rank (9 - 1) * 0.25 = 2 -> 8.5; the median is rank 4 -> 10
        assertEquals(8.5, cpu.figure("insert"), 1e-9);
        assertEquals(10.0, cpu.figure("find-id"), 1e-9);
        assertEquals("11 (11-1655)", cpu.faults());
        // one dear batch more and the median jumps to the dear mode; the lower quartile stays cheap
        cpu.add(1000, Map.of(), Map.of("server", 75_000_000L), 1700);
        assertEquals(32.5, cpu.figure("find-id"), 1e-9);
        // rank (10 - 1) * 0.25 = 2.25 -> 8.5 + 0.25 * (9 - 8.5)
        assertEquals(8.625, cpu.figure("insert"), 1e-9);
    }

    /** Faults are counted per unit of each round, so a round of another size weighs as its rate, not its count. */
    @Test
    void faultsPerUnitIsTheMedianOfEachRoundsRate() {
        ServerCpuRounds cpu = new ServerCpuRounds();
        cpu.add(1000, Map.of(), Map.of("server", 1_000_000L), 342);
        cpu.add(500, Map.of(), Map.of("server", 1_000_000L), 100); // 0.2 per unit
        cpu.add(2000, Map.of(), Map.of("server", 1_000_000L), 900); // 0.45 per unit
        assertEquals(0.342, cpu.faultsPerUnit(), 1e-9);
        cpu.reset();
        assertEquals(Double.NaN, cpu.faultsPerUnit());
    }

    /** The calibration measures something: a fresh page costs a thread some CPU, and far less than a millisecond. */
    @Test
    void aFreshPageCostsSomeCpu() {
        double micros = FreshPageCost.microsPerPage(3);
        org.junit.jupiter.api.Assertions.assertTrue(micros > 0 && micros < 1000, "us per fresh page: " + micros);
    }
}

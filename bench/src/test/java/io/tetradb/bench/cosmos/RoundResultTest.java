package io.tetradb.bench.cosmos;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the benchmark reads from the node driver and from /proc. */
class RoundResultTest {
    @Test
    void parsesARoundAnswer() {
        RoundResult r = RoundResult.parse(
                "{\"ops\":3,\"elapsedNs\":5000000,\"clientCpuUs\":1200,\"latNs\":[1000,2000,3000],\"ok\":true}");
        assertEquals(3, r.ops());
        assertEquals(5_000_000, r.elapsedNanos());
        assertEquals(1200, r.clientCpuMicros());
        assertArrayEquals(new long[]{1000, 2000, 3000}, r.latencyNanos());
    }

    @Test
    void aFailedOrMalformedAnswerFailsTheRun() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> RoundResult.parse("{\"ok\":false,\"error\":\"Error: query grp=7: 9 items\"}"));
        assertTrue(e.getMessage().contains("query grp=7: 9 items"), e.getMessage());
        // a latency missing for an operation counted
        assertThrows(IllegalStateException.class, () -> RoundResult.parse(
                "{\"ops\":2,\"elapsedNs\":5,\"clientCpuUs\":1,\"latNs\":[1],\"ok\":true}"));
        assertThrows(IllegalStateException.class, () -> RoundResult.parse(null));
        assertThrows(RuntimeException.class, () -> RoundResult.parse("Warning: something on stdout"));
    }

    @Test
    void readsUserAndSystemTicksOfProcStat() {
        // pid (comm with a space and a parenthesis) state ppid ... utime=150 stime=50 (fields 14, 15)
        String stat = "4242 (node (x) y) S 1 4242 4242 0 -1 4194560 1000 0 0 0 150 50 0 0 20 0 11 0 100 0 0";
        assertEquals(200 * 10_000_000L, ProcessCpu.fromProcStat(stat));
    }

    @Test
    void smallRatesKeepDecimals() {
        assertEquals("0.28", CosmosBenchmark.rate(0.2849));
        assertEquals("1322", CosmosBenchmark.rate(1321.6));
    }
}

package io.tetradb.bench.core;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class ThreadSchedTest {
    @Test
    void theSplitAddsUpAndBlockedTimeIsWhatIsLeftOfTheWall() {
        ThreadSched a = new ThreadSched(100, 30, 2, 1, 0, 5, 3);
        ThreadSched b = new ThreadSched(350, 80, 5, 1, 0, 9, 6);
        ThreadSched d = b.minus(a).withWall(400);
        assertEquals(250, d.onCpuNanos());
        assertEquals(50, d.runQueueNanos());
        assertEquals(3, d.voluntary());
        assertEquals(100, d.blockedNanos()); // 400 - 250 - 50
        assertEquals(3.0 / 7, d.systemShare(), 1e-12);
        assertEquals(0, d.withWall(200).blockedNanos()); // counters over a longer span than the wall: never negative
        ThreadSched sum = d.plus(d);
        assertEquals(800, sum.wallNanos());
        assertEquals(200, sum.blockedNanos());
        assertEquals(900, d.withOnCpu(900).onCpuNanos());
    }

    @Test
    void theCountersOfTheCallingThreadAreReadAndOnlyGrow() {
        assumeTrue(Files.isReadable(Path.of("/proc/thread-self/schedstat")), "Linux /proc only");
        ThreadSched before = ThreadSched.now();
        long x = 0;
        for (int i = 0; i < 5_000_000; i++) {
            x += i * 31L ^ (x >>> 3); // some work on this thread
        }
        ThreadSched after = ThreadSched.now();
        assertTrue(x != 1); // keeps the loop
        assertTrue(before.onCpuNanos() > 0);
        assertTrue(after.onCpuNanos() >= before.onCpuNanos());
        assertTrue(after.runQueueNanos() >= before.runQueueNanos());
        assertTrue(after.voluntary() >= before.voluntary());
        assertTrue(after.userTicks() + after.systemTicks() >= before.userTicks() + before.systemTicks());
        ThreadSched times = ThreadSched.times();
        assertTrue(times.onCpuNanos() >= after.onCpuNanos());
    }
}

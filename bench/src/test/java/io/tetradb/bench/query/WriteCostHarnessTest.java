package io.tetradb.bench.query;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The harness's minor-fault count is the calling thread's own (index-rocks). */
class WriteCostHarnessTest {
    /** 16 MiB: 4,096 pages, each touched once by the zeroing of a fresh direct buffer (mapped, not reused heap). */
    private static final int FRESH = 16 << 20;

    @Test
    void freshMemoryTouchedByThisThreadCountsAsItsMinorFaults() {
        long before = WriteCostHarness.threadMinorFaults();
        ByteBuffer fresh = ByteBuffer.allocateDirect(FRESH);
        long faults = WriteCostHarness.threadMinorFaults() - before;
        assertTrue(fresh.capacity() == FRESH && faults >= FRESH / 4096 / 2,
                "16 MiB of fresh pages gave " + faults + " minor faults");
    }

    @Test
    void anotherThreadsFaultsAreNotCounted() throws Exception {
        long before = WriteCostHarness.threadMinorFaults();
        Thread other = new Thread(() -> ByteBuffer.allocateDirect(FRESH));
        other.start();
        other.join();
        long faults = WriteCostHarness.threadMinorFaults() - before;
        assertTrue(faults < FRESH / 4096 / 4, "another thread's 16 MiB counted here: " + faults + " minor faults");
    }
}

package io.tetradb.bench;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class ProcTasksTest {
    /** 16 MiB: 4,096 pages, each touched once by the zeroing of a fresh direct buffer (mapped, not reused heap). */
    private static final int FRESH = 16 << 20;

    @Test
    void aStatLineIsReadFromAfterTheNameWhateverTheNameHolds() {
        // a thread may name itself with spaces and parentheses; fields: state ppid pgrp session tty tpgid flags
        // minflt cminflt majflt cmajflt utime stime
        String line = "4242 (C2 Comp) (x 9) S 1 2 3 4 5 6 777 8 9 10 1234 56 0 0 20 0 1 0 100 2000 30";
        ProcTasks.TaskStat t = ProcTasks.parse("4242", line);
        assertEquals("C2 Comp) (x 9", t.name());
        assertEquals(777, t.minorFaults());
        assertEquals(1234, t.userTicks());
        assertEquals(56, t.systemTicks());
        assertEquals(1290 * ProcTasks.NANOS_PER_TICK, t.cpuNanos());
        assertThrows(IllegalArgumentException.class, () -> ProcTasks.parse("1", "1 (short) S 1 2 3"));
    }

    @Test
    void everyThreadIsListedByItsNameAndItsCpuTicksGrowAsItWorks() throws Exception {
        assumeLinux();
        CountDownLatch named = new CountDownLatch(1);
        CountDownLatch measured = new CountDownLatch(1);
        AtomicLong burnedNanos = new AtomicLong();
        Thread worker = new Thread(() -> {
            named.countDown();
            long cpu0 = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            long x = 0;
            while (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu0 < 300_000_000L) {
                for (int i = 0; i < 100_000; i++) {
                    x += i * 31L ^ (x >>> 3);
                }
            }
            burnedNanos.set(ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu0 + (x == 1 ? 1 : 0));
            try {
                measured.await(); // stay listed until the test has read its counters
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "proc-tasks-test-worker");
        worker.start();
        named.await();
        ProcTasks.TaskStat before = find("proc-tasks-test");
        while (burnedNanos.get() == 0) {
            Thread.onSpinWait();
        }
        ProcTasks.TaskStat after = find("proc-tasks-test");
        measured.countDown();
        worker.join();
        assertEquals(before.tid(), after.tid());
        // the kernel names a thread by the Java name's first 15 characters
        assertEquals("proc-tasks-test", after.name());
        long ticks = after.cpuTicks() - before.cpuTicks();
        assertTrue(ticks >= 10, "300 ms of a thread's CPU counted as " + ticks + " ticks of 10 ms");
        assertTrue(Long.parseLong(after.tid()) > 0, after.tid());
    }

    @Test
    void cpuIsSummedByTheGroupOfEachThreadsName() {
        assumeLinux();
        Map<String, Long> groups = ProcTasks.sumByGroup(new HashMap<>(),
                name -> name.equals("main") || name.startsWith("Test worker") ? "test" : "other", t -> 1);
        long all = ProcTasks.threads().size();
        assertTrue(groups.getOrDefault("other", 0L) >= 2, "a JVM runs GC and compiler threads: " + groups);
        assertEquals(all, groups.values().stream().mapToLong(Long::longValue).sum(), 2.0,
                "one count per listed thread (threads may start or end between the two listings)");
    }

    @Test
    void freshMemoryTouchedByThisThreadCountsAsItsMinorFaults() {
        assumeLinux();
        long before = ProcTasks.currentThread().minorFaults();
        ByteBuffer fresh = ByteBuffer.allocateDirect(FRESH);
        long faults = ProcTasks.currentThread().minorFaults() - before;
        assertTrue(fresh.capacity() == FRESH && faults >= FRESH / 4096 / 2,
                "16 MiB of fresh pages gave " + faults + " minor faults");
    }

    @Test
    void anotherThreadsFaultsAreNotCounted() throws Exception {
        assumeLinux();
        long before = ProcTasks.currentThread().minorFaults();
        Thread other = new Thread(() -> ByteBuffer.allocateDirect(FRESH));
        other.start();
        other.join();
        long faults = ProcTasks.currentThread().minorFaults() - before;
        assertTrue(faults < FRESH / 4096 / 4, "another thread's 16 MiB counted here: " + faults + " minor faults");
    }

    @Test
    void theCallingThreadsSchedulerTimesOnlyGrow() {
        assumeLinux();
        ProcTasks.Schedstat before = ProcTasks.currentThreadSchedstat();
        long x = 0;
        for (int i = 0; i < 5_000_000; i++) {
            x += i * 31L ^ (x >>> 3);
        }
        ProcTasks.Schedstat after = ProcTasks.currentThreadSchedstat();
        assertTrue(x != 1);
        assertTrue(before.onCpuNanos() > 0 && before.timeslices() > 0, before.toString());
        assertTrue(after.onCpuNanos() >= before.onCpuNanos());
        assertTrue(after.runQueueNanos() >= before.runQueueNanos());
        assertTrue(after.timeslices() >= before.timeslices());
    }

    private static ProcTasks.TaskStat find(String name) {
        return ProcTasks.threads().stream().filter(t -> t.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no thread named " + name + " in " + ProcTasks.threads()));
    }

    private static void assumeLinux() {
        assumeTrue(Files.isReadable(Path.of("/proc/thread-self/schedstat")), "Linux /proc only");
    }
}

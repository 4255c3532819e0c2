package io.tetradb.core.storage;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every waiter returns only after a sync that started after its write; concurrent waiters share syncs. */
class WalGroupSyncTest {
    @Test
    void everyWriteIsCoveredByASyncThatStartedAfterIt() throws Exception {
        AtomicLong appliedCount = new AtomicLong();
        AtomicLong durableUpTo = new AtomicLong();
        AtomicInteger syncs = new AtomicInteger();
        WalGroupSync[] group = new WalGroupSync[1];
        group[0] = new WalGroupSync(() -> {
            long covered = appliedCount.get();   // what is in the "WAL" when the sync starts
            syncs.incrementAndGet();
            Thread.sleep(2);                     // an fsync takes a while: writers pile up meanwhile
            durableUpTo.accumulateAndGet(covered, Math::max);
        });
        int threads = 8;
        int writesEach = 50;
        CountDownLatch start = new CountDownLatch(1);
        List<Throwable> failures = new ArrayList<>();
        List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread w = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < writesEach; i++) {
                        long ticket;
                        synchronized (appliedCount) {   // the write itself, then its ticket, as RocksEngine does
                            appliedCount.incrementAndGet();
                            ticket = group[0].applied();
                        }
                        group[0].await(ticket);
                        assertTrue(durableUpTo.get() >= ticket, "acknowledged before its sync");
                    }
                } catch (Throwable e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            });
            writers.add(w);
            w.start();
        }
        start.countDown();
        for (Thread w : writers) {
            w.join();
        }
        assertEquals(List.of(), failures);
        assertTrue(syncs.get() < threads * writesEach, "concurrent writers share syncs: " + syncs.get());
    }

    /** The lazy sync (for writes nobody waits for) syncs only when a write is not yet covered. */
    @Test
    void syncIfBehindSyncsOnlyUncoveredWrites() {
        AtomicInteger calls = new AtomicInteger();
        WalGroupSync group = new WalGroupSync(calls::incrementAndGet);
        group.syncIfBehind();
        assertEquals(0, calls.get(), "nothing written");
        long ticket = group.applied();
        group.syncIfBehind();
        assertEquals(1, calls.get());
        group.syncIfBehind();
        assertEquals(1, calls.get(), "already covered");
        group.await(ticket);
        assertEquals(1, calls.get(), "a waiter whose write is covered does not sync again");
    }

    @Test
    void aFailingSyncFailsTheWaiterAndTheNextWaiterSyncsAgain() {
        AtomicInteger calls = new AtomicInteger();
        WalGroupSync group = new WalGroupSync(() -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("disk gone");
            }
        });
        long first = group.applied();
        assertThrows(StorageException.class, () -> group.await(first));
        group.await(group.applied());
        assertEquals(2, calls.get());
    }
}

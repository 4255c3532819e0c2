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

    /**
     * Writers that find nobody syncing write with an inline sync (as RocksEngine does with RocksDB's synced write);
     * the others write without one and wait for a group sync. Mixed, every write is acknowledged only once a sync that
     * started after its append to the log finished.
     */
    @Test
    void inlineSyncedAndGroupSyncedWritesAreAllCovered() throws Exception {
        java.util.Set<Long> log = new java.util.HashSet<>();     // tickets appended to the "WAL"
        java.util.Set<Long> durable = java.util.concurrent.ConcurrentHashMap.newKeySet();
        AtomicInteger inline = new AtomicInteger();
        AtomicInteger groupSyncs = new AtomicInteger();
        WalGroupSync group = new WalGroupSync(() -> {
            List<Long> covered;
            synchronized (log) {
                covered = new ArrayList<>(log);
            }
            groupSyncs.incrementAndGet();
            Thread.sleep(1);
            durable.addAll(covered);
        });
        int threads = 6;
        int writesEach = 60;
        CountDownLatch start = new CountDownLatch(1);
        List<Throwable> failures = new ArrayList<>();
        List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread w = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < writesEach; i++) {
                        long ticket = group.claimInlineSync();
                        if (ticket > 0) { // append and sync in one call: everything in the log is durable after it
                            List<Long> covered;
                            synchronized (log) {
                                log.add(ticket);
                                covered = new ArrayList<>(log);
                            }
                            Thread.sleep(1);
                            durable.addAll(covered);
                            group.inlineSyncDone(ticket, true);
                            inline.incrementAndGet();
                        } else {
                            synchronized (log) { // the write, then its ticket, as RocksEngine does
                                ticket = group.applied();
                                log.add(ticket);
                            }
                        }
                        group.await(ticket);
                        assertTrue(durable.contains(ticket), "acknowledged before a sync covered it: " + ticket);
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
        assertTrue(inline.get() > 0 && groupSyncs.get() > 0, inline + " inline, " + groupSyncs + " group syncs");
    }

    @Test
    void aWriterAloneSyncsInlineAndWaitsForNothing() {
        AtomicInteger calls = new AtomicInteger();
        WalGroupSync group = new WalGroupSync(calls::incrementAndGet);
        long ticket = group.claimInlineSync();
        assertTrue(ticket > 0);
        assertEquals(0, group.claimInlineSync(), "a second writer while the sync runs goes the group way");
        group.inlineSyncDone(ticket, true);
        group.await(ticket);
        assertEquals(0, calls.get(), "the inline sync covered it");
        long deferred = group.applied();
        assertEquals(0, group.claimInlineSync(), "an applied batch waits for a sync: no inline sync past it");
        group.await(deferred);
        assertEquals(1, calls.get());
        long failed = group.claimInlineSync();
        group.inlineSyncDone(failed, false);
        group.await(failed); // the failed inline write's ticket is synced by the group
        assertEquals(2, calls.get());
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

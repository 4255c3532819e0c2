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

    /**
     * A request that applies several batches and waits once (a Mongo insertMany) promises them: the lazy syncer's
     * ticks add no sync to the request's own, while a batch nobody waits for is still synced at the next tick, and a
     * promised batch never waited for is synced after {@link WalGroupSync#PROMISE_TICKS} ticks. Each tick is one call
     * of {@code syncIfBehind}, as the lazy syncer's period: exact counts, no clock.
     */
    @Test
    void theLazySyncerLeavesPromisedBatchesToTheirWriter() {
        AtomicInteger syncs = new AtomicInteger();
        WalGroupSync group = new WalGroupSync(syncs::incrementAndGet);
        long last = 0;
        for (int batch = 0; batch < 10; batch++) { // ten batches of one request, a tick after each
            last = group.applied();
            group.promise(last);
            group.syncIfBehind();
        }
        assertEquals(0, syncs.get(), "the lazy syncer synced batches their writer waits for");
        group.await(last);
        assertEquals(1, syncs.get(), "the request's one sync");
        group.syncIfBehind();
        assertEquals(1, syncs.get());

        long promised = group.applied();
        group.promise(promised);
        group.applied(); // a w:1 batch of another request: nobody waits for it
        group.syncIfBehind();
        assertEquals(2, syncs.get(), "a batch nobody waits for is synced at the next tick");
        group.await(promised);
        assertEquals(2, syncs.get(), "that sync covered the promised batch too");

        group.promise(group.applied()); // promised, never waited for (its writer failed)
        for (int tick = 0; tick < WalGroupSync.PROMISE_TICKS; tick++) {
            group.syncIfBehind();
            assertEquals(2, syncs.get(), "tick " + tick);
        }
        group.syncIfBehind();
        assertEquals(3, syncs.get(), "a promised batch is synced anyway after PROMISE_TICKS ticks");
        group.syncIfBehind();
        assertEquals(3, syncs.get());

        long covered = group.applied();
        group.syncIfBehind();
        assertEquals(4, syncs.get());
        group.promise(covered); // promised after a sync covered it: no lasting promise to count
        group.applied();
        group.syncIfBehind();
        assertEquals(5, syncs.get(), "the unpromised batch is synced though a stale promise was made");
    }

    /** An inline-synced batch leaves no promise behind; batches promised around it keep the lazy syncer idle. */
    @Test
    void promisesAroundAnInlineSyncKeepTheLazySyncerIdle() {
        AtomicInteger syncs = new AtomicInteger();
        WalGroupSync group = new WalGroupSync(syncs::incrementAndGet);
        long inline = group.claimInlineSync();
        group.inlineSyncDone(inline, true);
        long a = group.applied();
        group.promise(a);
        long b = group.applied();
        group.promise(b);
        group.promise(b); // promised twice: counted once
        group.syncIfBehind();
        assertEquals(0, syncs.get());
        group.applied();
        group.syncIfBehind();
        assertEquals(1, syncs.get(), "one unpromised batch among promised ones");
    }

    /**
     * A request promising 100,000 tickets (a Mongo insert of 100k documents): the lazy syncer stays idle, a sync covering
     * them drops every promise it covers — so a later unpromised batch is seen at once — and a ticket promised again
     * after it was synced leaves nothing behind. Exact counts, ticks called directly.
     */
    @Test
    void aHundredThousandPromisesAreCountedExactly() {
        AtomicInteger syncs = new AtomicInteger();
        WalGroupSync group = new WalGroupSync(syncs::incrementAndGet);
        long last = 0;
        for (int batch = 0; batch < 100_000; batch++) {
            last = group.applied();
            group.promise(last);
            group.promise(last); // promised twice: counted once
        }
        group.syncIfBehind();
        assertEquals(0, syncs.get(), "every applied batch is promised");
        group.await(last);
        assertEquals(1, syncs.get());
        group.promise(last); // stale: already synced
        long next = group.applied();
        group.promise(next);
        group.syncIfBehind();
        assertEquals(1, syncs.get(), "covered promises dropped, the stale one not kept, the new one counted");
        group.applied(); // nobody waits for it
        group.syncIfBehind();
        assertEquals(2, syncs.get(), "one unpromised batch after 100,001 promises");
    }

    /** {@link WalGroupSync#syncs()} counts every finished sync (a writer's, a lazy tick's, an inline one), no failed one. */
    @Test
    void syncsCountsEveryFinishedSyncOfEveryKind() {
        AtomicInteger calls = new AtomicInteger();
        WalGroupSync group = new WalGroupSync(() -> {
            if (calls.incrementAndGet() == 3) {
                throw new IllegalStateException("disk gone");
            }
        });
        group.await(group.applied()); // a writer's
        group.applied();
        group.syncIfBehind(); // a lazy tick's
        long inline = group.claimInlineSync();
        group.inlineSyncDone(inline, true);
        assertEquals(3, group.syncs());
        long failing = group.applied();
        assertThrows(StorageException.class, () -> group.await(failing));
        assertEquals(3, group.syncs(), "a failed sync is not counted");
        group.await(failing);
        assertEquals(4, group.syncs());
        assertEquals(4, calls.get(), "three syncer calls succeeded, one failed");
    }
}

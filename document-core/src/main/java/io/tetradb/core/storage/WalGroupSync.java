package io.tetradb.core.storage;

/**
 * Group commit for {@link Durability#SYNC}: writers apply their batch without an fsync (so they hold their logical
 * partition's lock only for the memtable and WAL append), then wait here until one fsync covers their batch. One
 * waiter at a time runs the fsync for every batch applied before it started; the others wait and return when a sync
 * that started after their write has finished. So N concurrent writers of one logical partition share fsyncs instead
 * of queueing one fsync each behind the partition lock.
 *
 * <p>The lazy syncer ({@link #syncIfBehind()}, every 100 ms) syncs only batches nobody has promised to wait for
 * ({@link #promise(long)}: a request that applies several batches and waits once at its end), so it does not add
 * an fsync to what such a request syncs itself; a promised batch still unsynced {@link #PROMISE_TICKS} ticks after it
 * was applied (a writer that failed before its wait) is synced by the lazy syncer all the same.
 */
final class WalGroupSync {
    /** Lazy ticks a promised batch may stay unsynced before the lazy syncer syncs it anyway (1 s at 100 ms). */
    static final int PROMISE_TICKS = 10;

    /** Makes every WAL record written so far durable. */
    interface Syncer {
        void sync() throws Exception;
    }

    private final Syncer syncer;
    /** Batches applied so far; a batch's ticket is this count just after its write returned. */
    private long written;
    /** The highest ticket a finished fsync covers. */
    private long synced;
    private boolean syncing;
    /**
     * Tickets above {@link #synced} whose writers promised to wait for them (each once). A sorted set: a promise and
     * its duplicate check are O(log n), a sync drops its covered head, so a request promising thousands of tickets
     * (a Mongo insert of 100k documents) does not scan the set per promise.
     */
    private final java.util.TreeSet<Long> promised = new java.util.TreeSet<>();
    /** {@link #written} as each of the last {@link #PROMISE_TICKS} lazy ticks found it, by tick number. */
    private final long[] writtenAtTick = new long[PROMISE_TICKS];
    private long ticks;
    /** WAL syncs finished so far, of every kind (a writer's, a lazy tick's, an inline one): exact counts for tests. */
    private long syncs;

    WalGroupSync(Syncer syncer) {
        this.syncer = syncer;
    }

    /**
     * A writer alone (nobody syncing, every applied batch synced) may write its batch with RocksDB's own sync instead
     * of a write and then a separate WAL sync: one call, as a plain synced put is, where the separate sync costs a
     * second pass through the WAL's locks. Returns the batch's ticket with the sync claimed (pass it to
     * {@link #inlineSyncDone}), or 0 when another writer's batch or sync is in flight (then write without sync, call
     * {@link #applied()} and {@link #await}).
     */
    synchronized long claimInlineSync() {
        if (syncing || synced < written) {
            return 0;
        }
        syncing = true;
        return ++written; // batches applied meanwhile get later tickets, which this sync does not cover
    }

    /** Ends a {@link #claimInlineSync()}: on success the batch (and everything before it) is durable. */
    synchronized void inlineSyncDone(long ticket, boolean synced) {
        if (synced) {
            this.synced = Math.max(this.synced, ticket);
            syncs++;
            dropSyncedPromises();
        }
        syncing = false;
        notifyAll();
    }

    /** Called right after a batch was applied (without sync): its ticket for {@link #await(long)}. */
    synchronized long applied() {
        return ++written;
    }

    /**
     * The writer of the batch {@code ticket} (from {@link #applied()}) will {@link #await} it: the lazy syncer leaves
     * it to that writer (see the class comment).
     */
    synchronized void promise(long ticket) {
        if (ticket > synced) {
            promised.add(ticket); // a set: a ticket promised twice counts once
        }
    }

    /**
     * One tick of the lazy syncer: syncs the WAL if no sync is running and a batch nobody promised to wait for was
     * applied since the last sync, or a promised one has stayed unsynced for {@link #PROMISE_TICKS} ticks — what bounds
     * how long a write nobody waits for (a Mongo {@code w: 1} write) stays only in the operating system's cache.
     */
    void syncIfBehind() {
        long target;
        synchronized (this) {
            int slot = (int) (ticks++ % PROMISE_TICKS);
            long overdue = writtenAtTick[slot]; // what was applied PROMISE_TICKS ticks ago
            writtenAtTick[slot] = written;
            // every ticket in (synced, written] is in `promised` unless nobody waits for it
            boolean unpromised = written - synced > promised.size();
            if (syncing || !(unpromised || synced < overdue)) {
                return;
            }
            target = written;
        }
        await(target);
    }

    /** The WAL syncs finished so far (see {@link #syncs}). */
    synchronized long syncs() {
        return syncs;
    }

    private void dropSyncedPromises() {
        promised.headSet(synced, true).clear();
    }

    /** Returns once a WAL sync that started after the batch {@code ticket} was applied has finished. */
    void await(long ticket) {
        while (true) {
            long target;
            synchronized (this) {
                while (syncing && synced < ticket) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new StorageException("interrupted before the write was made durable", e);
                    }
                }
                if (synced >= ticket) {
                    return;
                }
                syncing = true;
                target = written;
            }
            boolean done = false;
            try {
                syncer.sync();
                done = true;
            } catch (Exception e) {
                throw new StorageException("syncing the write-ahead log failed: " + e.getMessage(), e);
            } finally {
                synchronized (this) {
                    if (done) {
                        synced = Math.max(synced, target);
                        syncs++;
                        dropSyncedPromises();
                    }
                    syncing = false;
                    notifyAll();
                }
            }
        }
    }
}

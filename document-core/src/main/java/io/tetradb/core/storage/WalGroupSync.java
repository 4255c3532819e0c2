package io.tetradb.core.storage;

/**
 * Group commit for {@link Durability#SYNC}: writers apply their batch without an fsync (so they hold their logical
 * partition's lock only for the memtable and WAL append), then wait here until one fsync covers their batch. One
 * waiter at a time runs the fsync for every batch applied before it started; the others wait and return when a sync
 * that started after their write has finished. So N concurrent writers of one logical partition share fsyncs instead
 * of queueing one fsync each behind the partition lock.
 */
final class WalGroupSync {
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
        }
        syncing = false;
        notifyAll();
    }

    /** Called right after a batch was applied (without sync): its ticket for {@link #await(long)}. */
    synchronized long applied() {
        return ++written;
    }

    /**
     * Syncs the WAL if a batch was applied since the last sync and no sync is running: what bounds how long a write
     * nobody waited for (a Mongo {@code w: 1} write) stays only in the operating system's cache.
     */
    void syncIfBehind() {
        long target;
        synchronized (this) {
            if (syncing || synced >= written) {
                return;
            }
            target = written;
        }
        await(target);
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
                    }
                    syncing = false;
                    notifyAll();
                }
            }
        }
    }
}

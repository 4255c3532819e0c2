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

package io.tetradb.core.store;


/**
 * Commits made through {@link ContainerStore#executeBatch(io.tetradb.core.partition.PartitionKeyValue,
 * java.util.List, DeferredCommits)} that have been applied (visible) but not yet waited for: one
 * {@link #awaitDurable()} then covers all of them with one WAL sync, so a face that splits one request into several
 * core batches (a Mongo {@code insertMany} of 1000 documents) pays one fsync, not one per batch. The caller must
 * call {@link #awaitDurable()} before it acknowledges any of those writes — unless it acknowledges them unjournaled
 * on purpose (a Mongo {@code w: 1} write): in SYNC mode the store then syncs them within 100 ms
 * ({@code RocksEngine.LAZY_SYNC_INTERVAL_MS}), as MongoDB commits its journal. A caller that will wait (in a
 * {@code finally}) takes {@link ContainerStore#awaitedCommits()}: its commits are promised to the engine as they are
 * added, so the lazy syncer does not sync them while the request is still writing (an fsync the request's own wait
 * would repeat). Not thread-safe: one request's writes.
 */
public final class DeferredCommits {
    /** Where the commits applied: their tickets are that store's (the local engine's only when it is embedded). */
    private final io.tetradb.core.storage.partition.PartitionStore partitions;
    /** The caller will call {@link #awaitDurable()}: each commit is promised to the engine as it is added. */
    private final boolean awaited;
    private long ticket;

    DeferredCommits(io.tetradb.core.storage.partition.PartitionStore partitions, boolean awaited) {
        this.partitions = partitions;
        this.awaited = awaited;
    }

    void add(long commitTicket) {
        if (awaited && commitTicket > 0) {
            partitions.promiseAwait(commitTicket);
        }
        ticket = Math.max(ticket, commitTicket);
    }

    /** Returns once every commit added so far is as durable as the store's configuration says. */
    public void awaitDurable() {
        if (ticket > 0) {
            partitions.awaitDurable(ticket);
            ticket = 0;
        }
    }
}

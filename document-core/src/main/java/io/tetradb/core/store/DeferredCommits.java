package io.tetradb.core.store;


/**
 * Commits made through {@link ContainerStore#executeBatch(io.tetradb.core.partition.PartitionKeyValue,
 * java.util.List, DeferredCommits)} that have been applied (visible) but not yet waited for: one
 * {@link #awaitDurable()} then covers all of them with one WAL sync, so a face that splits one request into several
 * core batches (a Mongo {@code insertMany} of 1000 documents) pays one fsync, not one per batch. The caller must
 * call {@link #awaitDurable()} before it acknowledges any of those writes — unless it acknowledges them unjournaled
 * on purpose (a Mongo {@code w: 1} write): in SYNC mode the store then syncs them within 100 ms
 * ({@code RocksEngine.LAZY_SYNC_INTERVAL_MS}), as MongoDB commits its journal. Not thread-safe: one request's writes.
 */
public final class DeferredCommits {
    /** Where the commits applied: their tickets are that store's (the local engine's only when it is embedded). */
    private final io.tetradb.core.storage.partition.PartitionStore partitions;
    private long ticket;

    DeferredCommits(io.tetradb.core.storage.partition.PartitionStore partitions) {
        this.partitions = partitions;
    }

    void add(long commitTicket) {
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

package io.tetradb.core.store;

import io.tetradb.core.Status;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.partition.PhysicalPartition;
import io.tetradb.core.store.ContainerStore.Prepared;
import io.tetradb.core.store.ContainerStore.ViolatedResults;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A container's writes for the {@link io.tetradb.core.bulk.BulkLoad} holding it: the load's target, and each logical
 * partition's transaction — the normal one ({@link PartitionTransaction}), its write set handed to the chunk instead
 * of the WAL. Its container ({@link ContainerStore}) owns the load's exclusive mode and the locks.
 */
final class BulkLoadWrites {
    private final ContainerStore container;

    BulkLoadWrites(ContainerStore container) {
        this.container = container;
    }

    io.tetradb.core.bulk.BulkLoad.Target target(IndexingState at, io.tetradb.core.ttl.ExpiryRule ttlAt) {
        return new io.tetradb.core.bulk.BulkLoad.Target() {
            @Override
            public List<ItemResult> write(io.tetradb.core.bulk.BulkChunk chunk, PartitionKeyValue pk,
                                          List<ItemOperation> ops) {
                if (ops.isEmpty()) {
                    throw new StoreException(Status.BAD_REQUEST, "a bulk write needs at least one operation");
                }
                return container.run(pk, ops, false, null, chunk); // no batch byte limit
            }

            @Override
            public void commitUnchanged(Runnable ingest) {
                container.mapLock.readLock().lock(); // a policy or TTL replace takes it exclusively
                try {
                    container.checkNotDeleted();
                    if (container.indexing != at || container.expiry != ttlAt) {
                        throw new StoreException(Status.CONFLICT, "the container's indexing policy or time to "
                                + "live changed during the bulk load: its last chunk was not written");
                    }
                    ingest.run();
                } finally {
                    container.mapLock.readLock().unlock();
                }
            }

            @Override
            public void ended(io.tetradb.core.bulk.BulkLoad load) {
                container.mapLock.writeLock().lock();
                try {
                    if (container.bulk == load) {
                        container.bulk = null;
                    }
                } finally {
                    container.mapLock.writeLock().unlock();
                }
            }
        };
    }

    /** Under the map lock (shared): one partition's transaction into the chunk. */
    List<ItemResult> run(io.tetradb.core.bulk.BulkChunk chunk, PartitionKeyValue pk, byte[] lpPrefix,
                         List<Prepared> prepared) {
        if (!chunk.claim(lpPrefix)) {
            throw new IllegalStateException("logical partition " + pk + " was written already in this bulk "
                    + "chunk: commit the chunk first");
        }
        ReentrantLock lock = container.store.lockFor(lpPrefix);
        lock.lock();
        PartitionTransaction tx = null;
        boolean added = false;
        try {
            // core-write: the chunk writes the statistics when it commits, outside the transactions' path
            container.store.forgetPartitionStats(lpPrefix);
            tx = new PartitionTransaction(container, pk, lpPrefix, prepared);
            List<ItemResult> results = tx.run();
            if (tx.failedAt >= 0) {
                return tx.violation == null ? results : new ViolatedResults(results, tx.violation);
            }
            tx.statsRecordEveryWrite = true; // core-stats: the chunk's keys are ingested, not written as one batch
            tx.inBulkChunk = true; // graph-load: its creates keep no pruner note (ChangeFeed.Batch#inBulkChunk)
            io.tetradb.core.storage.WriteSet ws = tx.writeSet(); // takes the feed numbers: released below
            // graph-load: the completion keeps these numbers only, not the transaction: a transaction holds
            // its items, index entries and write set, which would otherwise live (and be copied by every young
            // collection) until the chunk commits
            long feedTicket = tx.feedTicket;
            long deltaBytes = tx.deltaBytes;
            long deltaItems = tx.deltaItems;
            long deltaLogicalPartitions = tx.deltaLogicalPartitions;
            chunk.add(ws, prepared.size(), new io.tetradb.core.bulk.BulkChunk.Completion() {
                @Override
                public void committed() {
                    container.feed.release(feedTicket);
                    container.writeStamps.bump(pk); // after the write is visible (see WriteStamps)
                    PhysicalPartition pp = container.map.route(pk.epk());
                    pp.add(deltaBytes, deltaItems, deltaLogicalPartitions);
                    if (deltaBytes > 0) {
                        container.store.splitter().maybeSplit(container, pp);
                    }
                }

                @Override
                public void dropped() {
                    container.feed.abandon(feedTicket); // not written: the pruner must not trust its records' notes
                }
            });
            added = true;
            return tx.results;
        } finally {
            ContainerStore.releaseFaceUnique(tx);
            lock.unlock();
            if (!added) {
                chunk.unclaim(lpPrefix);
            }
        }
    }
}

package io.tetradb.core.bulk;

import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.storage.RocksEngine;
import io.tetradb.core.store.ItemOperation;
import io.tetradb.core.store.ItemResult;

import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A container's exclusive bulk mode (graph-bulk, issue 18): creates written as sorted SST files ingested into the
 * store instead of WAL + memtable + flush + compaction. Made by {@code ContainerStore.beginBulkLoad()}, which
 * refuses containers it cannot serve (see there). While it is open the container's other writers wait for
 * {@link #close()}; readers read on and see each chunk once it is committed.
 *
 * <p>Each {@link #write} is one ordinary core transaction of one logical partition (its items, index entries,
 * adjacency entries, change records and statistics are built by the normal write path, so they are the same keys),
 * except that its write set joins the current {@link BulkChunk} instead of the WAL. A logical partition may be
 * written once per chunk; {@link #commit()} ingests the chunk (whole or not at all across a crash, durable when it
 * returns) and starts the next. A failed write (an id that exists: 409, as Cosmos DB's create) changes nothing and
 * is reported in its results, as a transactional batch's; {@link #close()} drops a chunk not committed.
 */
public final class BulkLoad implements AutoCloseable {
    /** The container's side (implemented by ContainerStore). */
    public interface Target {
        /** Runs {@code ops} as one transaction of {@code pk} whose write set joins {@code chunk}. */
        List<ItemResult> write(BulkChunk chunk, PartitionKeyValue pk, List<ItemOperation> ops);

        /**
         * Runs {@code ingest} while the container's definition cannot change (its map lock held shared); throws
         * without running it when the container can no longer take the chunk (deleted, its indexing policy or
         * default TTL replaced since the bulk mode began).
         */
        void commitUnchanged(Runnable ingest);

        /** The bulk mode ended: other writers may go on. */
        void ended(BulkLoad load);
    }

    private final Target target;
    private final RocksEngine engine;
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile BulkChunk chunk = new BulkChunk();
    private boolean closed;
    private long committedItems;
    private int committedChunks;

    public BulkLoad(Target target, RocksEngine engine) {
        this.target = target;
        this.engine = engine;
    }

    /**
     * One transaction of creates (or any operations) in logical partition {@code pk}, without the transactional
     * batch's 100-operation limit; thread-safe, for different partitions at once. Throws IllegalStateException when
     * {@code pk} was written already in the current chunk (commit first).
     */
    public List<ItemResult> write(PartitionKeyValue pk, List<ItemOperation> ops) {
        if (closed) {
            throw new IllegalStateException("the bulk load is closed");
        }
        return target.write(chunk, pk, ops);
    }

    /** Items in the current, uncommitted chunk. */
    public long pendingItems() {
        return chunk.elements();
    }

    /**
     * Ingests the current chunk: every write of it is visible and durable when this returns, or (it throws) none is.
     * Call when no {@link #write} of the chunk is under way.
     */
    public synchronized void commit() {
        BulkChunk c = chunk;
        if (c.isEmpty()) {
            return;
        }
        long items = c.elements();
        try {
            target.commitUnchanged(() -> c.commit(engine));
        } finally {
            c.drop(); // nothing left after a commit; a chunk refused or failed is dropped (its feed numbers given back)
        }
        committedItems += items;
        committedChunks++;
    }

    /** Items committed so far, and chunks. */
    public synchronized long committedItems() {
        return committedItems;
    }

    public synchronized int committedChunks() {
        return committedChunks;
    }

    /** Waits until this bulk mode has ended (a writer of the container that is not part of it). */
    public void awaitEnd() {
        try {
            ended.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while a bulk load holds the container", e);
        }
    }

    /** Ends the bulk mode; a chunk not committed is dropped (nothing of it was written). */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            chunk.drop();
        } finally {
            target.ended(this);
            ended.countDown();
        }
    }
}

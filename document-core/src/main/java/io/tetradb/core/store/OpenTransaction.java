package io.tetradb.core.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.StoreException;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.partition.PhysicalPartition;
import io.tetradb.core.store.ContainerStore.PartitionView;
import io.tetradb.core.store.ContainerStore.Prepared;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A transaction over one logical partition that takes its operations one at a time (a stored procedure or a trigger),
 * opened by {@link ContainerStore#begin(PartitionKeyValue)}: it holds the partition's lock and the container's map
 * lock shared until {@link #commit()}, which hands one {@link io.tetradb.core.storage.WriteSet} to the engine as a
 * batch does, or {@link #close()}. Must be closed by the thread that opened it.
 */
public final class OpenTransaction implements AutoCloseable {
    private final ContainerStore container;
    private final PartitionKeyValue pk;
    private final byte[] lpPrefix;
    private final ReentrantLock lock;
    private final PartitionTransaction tx;
    private boolean open = true;
    private ItemCodec.BodyWriter writer;

    OpenTransaction(ContainerStore container, PartitionKeyValue pk, byte[] lpPrefix, ReentrantLock lock,
                    PartitionTransaction tx) {
        this.container = container;
        this.pk = pk;
        this.lpPrefix = lpPrefix;
        this.lock = lock;
        this.tx = tx;
    }

    public PartitionKeyValue partitionKey() {
        return pk;
    }

    public ContainerStore container() {
        return container;
    }

    /** The factor on this transaction's read charges: 2 when the account reads at strong or bounded staleness. */
    public int readChargeFactor() { // consistency
        return tx.readFactor;
    }

    /**
     * Applies one operation inside the transaction; it sees the transaction's earlier writes. A failure is thrown
     * as a {@link StoreException} and leaves the transaction as it was (the caller decides whether to go on).
     */
    public ItemResult apply(ItemOperation op) {
        checkOpen();
        if (writer == null) {
            writer = container.store.codec().new BodyWriter(); // one generator for all the transaction's items
        }
        Prepared p = container.prepare(pk, op, writer);
        if (p.error() != null) {
            throw new StoreException(p.errorStatus(), p.error());
        }
        return tx.step(p);
    }

    /** The items of the partition as the transaction sees them now, in id order, with their stored bytes. */
    public PartitionView items() {
        checkOpen();
        java.util.TreeMap<String, byte[]> view = new java.util.TreeMap<>(ContainerStore::compareUtf8);
        container.reads.scanItems(lpPrefix, Keys.prefixEnd(lpPrefix), kv -> {
            view.put(new String(kv.key(), lpPrefix.length, kv.key().length - lpPrefix.length,
                    StandardCharsets.UTF_8), kv.value());
            return true;
        });
        view.values().removeIf(container::isExpired);
        for (Map.Entry<String, PartitionTransaction.Written> e : tx.after.entrySet()) {
            if (e.getValue().stored() == null) {
                view.remove(e.getKey());
            } else {
                view.put(e.getKey(), e.getValue().stored());
            }
        }
        List<ObjectNode> out = new ArrayList<>(view.size());
        long bytes = 0;
        for (byte[] stored : view.values()) {
            out.add(container.store.codec().parse(stored));
            bytes += stored.length;
        }
        return new PartitionView(out, bytes);
    }

    /** Makes every operation durable at once; returns after the WAL sync. */
    public void commit() {
        checkOpen();
        open = false;
        releaseWriter();
        if (tx.lsn == tx.stats.lsn()) { // nothing written: nothing to apply or wait for
            ContainerStore.releaseFaceUnique(tx);
            lock.unlock();
            container.mapLock.readLock().unlock();
            return;
        }
        long durable;
        try {
            durable = container.applyReleasingFeedOnFailure(tx);
            container.writeStamps.bump(pk, tx.after.keySet(), tx.adjacencyTouched,
                    tx.adjacencyTouchedCount); // after the write is visible (see WriteStamps)
        } finally {
            ContainerStore.releaseFaceUnique(tx);
            lock.unlock();
        }
        try {
            try {
                container.store.partitions().awaitDurable(durable);
            } finally {
                container.feed.release(tx.feedTicket);
            }
            PhysicalPartition pp = container.map.route(pk.epk());
            pp.add(tx.deltaBytes, tx.deltaItems, tx.deltaLogicalPartitions);
            if (tx.deltaBytes > 0) {
                container.store.splitter().maybeSplit(container, pp);
            }
        } finally {
            container.mapLock.readLock().unlock();
        }
    }

    /** Drops every operation not committed and releases the locks. */
    @Override
    public void close() {
        if (open) {
            open = false;
            releaseWriter();
            ContainerStore.releaseFaceUnique(tx);
            lock.unlock();
            container.mapLock.readLock().unlock();
        }
    }

    private void releaseWriter() {
        if (writer != null) {
            writer.close();
            writer = null;
        }
    }

    private void checkOpen() {
        if (!open) {
            throw new IllegalStateException("the transaction is already committed or rolled back");
        }
    }
}

package io.tetradb.core.store;

import io.tetradb.core.StoreException;
import io.tetradb.core.storage.WriteSet;
import io.tetradb.core.storage.partition.ApplyResult;
import io.tetradb.core.storage.partition.LogicalPartition;
import io.tetradb.core.storage.partition.PartitionStore;
import io.tetradb.core.storage.partition.PartitionWrite;

/**
 * Where a logical-partition transaction of {@link ContainerStore} meets the storage contract: its write set becomes
 * one {@link PartitionWrite} applied against the version (the partition's lsn) the transaction read. Under the core's
 * partition lock the embedded engine never refuses; an engine shared with other writers (several servers on one
 * Cassandra keyspace) may, and then nothing was written: the answer is Cosmos DB's 449 "retry with", the status its
 * gateway gives a write that lost a race on the same resource (the SDKs retry it), so the client retries the whole
 * operation against the new state (where an etag condition gives 412, a create 409).
 */
final class PartitionCommit {
    /** Cosmos DB's RetryWith. */
    static final int RETRY_WITH = 449;

    private PartitionCommit() {
    }

    /** Applies the transaction's write; returns the durability ticket to wait for before acknowledging. */
    static long apply(PartitionStore partitions, byte[] lpPrefix, long expected, long next, WriteSet writes,
            boolean othersWaiting) {
        return apply(partitions, lpPrefix, expected, next, writes, othersWaiting, false);
    }

    /** As above; {@code readUnderLock}: {@code expected} is current (see {@code CoreStore.versionsReadUnderOwnLock}). */
    static long apply(PartitionStore partitions, byte[] lpPrefix, long expected, long next, WriteSet writes,
            boolean othersWaiting, boolean readUnderLock) {
        return apply(partitions, LogicalPartition.ofPrefix(lpPrefix), expected, next, writes, othersWaiting,
                readUnderLock);
    }

    /** pw-lean: as above, for a transaction that built its partition already. */
    static long apply(PartitionStore partitions, LogicalPartition partition, long expected, long next, WriteSet writes,
            boolean othersWaiting, boolean readUnderLock) {
        ApplyResult r = partitions.apply(new PartitionWrite(partition, expected, next, writes)
                .othersWaiting(othersWaiting).expectedReadUnderLock(readUnderLock));
        if (!r.applied()) {
            throw new StoreException(RETRY_WITH, "the logical partition changed under this transaction (version "
                    + r.version() + ", read at " + expected + "): nothing was written; retry the operation");
        }
        return r.durableTicket();
    }
}

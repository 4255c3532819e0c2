package io.tetradb.core.store;

import io.tetradb.core.StoreException;
import io.tetradb.core.reads.ItemReads;
import io.tetradb.core.storage.Space;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * TTL purging when the container's items are on another engine (issue 20: Cassandra). The expiry entries are side
 * writes of the item's own transaction (META {@code 20 · collId · expiresAt · EPK · pk · id}), so they are as atomic
 * as the item; the purger lists them across the container's partitions by expiry time through the contract
 * ({@code PartitionStore.seekDerived}, on Cassandra a storage-attached index over those rows), checks each is still
 * current by reading it back from its partition ({@code readDerived}), and deletes through the partition's conditional
 * apply. Every server runs its purger: two purging one partition at once (or a writer and a purge) race on the
 * partition's version, the loser writes nothing and is dropped for this round, so an item is purged once and a purge
 * never undoes a write.
 */
final class TtlContractPath {
    private TtlContractPath() {
    }

    /** Each entry read back from its partition's side writes: the value, or null when it moved or went. */
    static List<byte[]> present(ItemReads reads, byte[] lpPrefix, List<byte[]> entries) {
        List<byte[]> out = new ArrayList<>(entries.size());
        for (byte[] e : entries) {
            out.add(reads.derived(lpPrefix, Space.META, e));
        }
        return out;
    }

    /** Runs a purge's apply; false when the engine refused it because the partition moved on (nothing written). */
    static boolean applied(LongSupplier apply) {
        try {
            apply.getAsLong();
            return true;
        } catch (StoreException e) {
            if (e.status() == PartitionCommit.RETRY_WITH) {
                return false;
            }
            throw e;
        }
    }
}

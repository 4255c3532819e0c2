package io.tetradb.core.store;

import io.tetradb.core.storage.KeyValue;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.WriteSet;

import java.util.Arrays;

/**
 * On a shared engine: whether a logical partition's edges carry graph adjacency entries, said by the partition itself
 * (a side write, META {@code 4E · collId · EPK · pk · 'A'} → 1), as its policy epoch says which index terms it holds
 * ({@link PartitionPolicyEpochs}). The adjacency backfill of another server writes the mark in the same conditional
 * apply that writes the entries and moves the partition's version on ({@link AdjacencyContractPath}). A writer reads
 * it after the partition's version, in the same slice as the epoch (one read, not two): a backfill committed after
 * that version read makes the writer's apply lose the race (449, run again); one committed before is what the writer
 * reads, and a writer whose container object still says "no adjacency" (it looked the container up before the
 * container's mark, and the catalog refresh since replaced that object) adopts adjacency for this transaction on,
 * so the edge it writes keeps its entries. Without the mark such a write, landing after the backfill passed its
 * partition, left an edge with no entries.
 */
final class AdjacencyPartitionMarks {
    private static final byte ADJACENCY = 0x41;

    private AdjacencyPartitionMarks() {
    }

    /** The mark's key: right after the partition's epoch key, so one slice reads both. */
    static byte[] key(byte[] lpPrefix) {
        return Keys.concat(PartitionPolicyEpochs.partitionKey(lpPrefix), new byte[]{ADJACENCY});
    }

    /** Adds the partition's mark to a backfill's write set. */
    static void addTo(WriteSet ws, byte[] lpPrefix) {
        ws.put(Space.META, key(lpPrefix), new byte[]{1});
    }

    /**
     * An edge written or removed ({@code old}, {@code now}) through a container object without adjacency, in a
     * partition without the mark (the backfill listed the partitions before this one was created): the container's
     * own mark is read in the metadata and, when another server has set it, this object adopts adjacency before the
     * write set is built, so the edge keeps its entries. Only an edge pays the read, once per transaction (returns
     * whether it read); items that are not edges need no entries. The mark precedes the backfill's listing by two
     * catalog-check intervals, so a transaction that reads it here and applies after the listing sees it unless
     * more than those two intervals pass between this read and its apply (the same bound as a lookup's).
     */
    static boolean followContainerMarkForEdge(ContainerStore container, CoreStore store, byte[] old, byte[] now) {
        if (!mayBeEdge(old) && !mayBeEdge(now)) {
            return false; // not an edge, before or after: no read
        }
        if (!AdjacencyContractPath.applies(container)) {
            return true; // the embedded engine's mark is followed under its locks
        }
        if (AdjacencyContractPath.marked(store, container.collId())) {
            container.adoptGraphAdjacencyInFlight();
        }
        return true;
    }

    private static boolean mayBeEdge(byte[] stored) {
        return stored != null && TopLevelFields.has(stored, ItemCodec.HEADER, GraphAdjacency.IS_EDGE_BYTES)
                != TopLevelFields.Presence.ABSENT;
    }

    /** A partition's side rows read in one slice: its policy epoch and expiry rule ({@link PartitionExpiryRules}). */
    record SideRows(byte[] epoch, byte[] expiryRule) {
    }

    /**
     * The partition's policy epoch and expiry rule as stored (null when none), read in one slice with its adjacency
     * mark; a marked partition of a container whose object has no adjacency makes it adopt adjacency before this
     * transaction writes.
     */
    static SideRows epochFollowingMark(ContainerStore container, byte[] lpPrefix) {
        byte[] epochKey = PartitionPolicyEpochs.partitionKey(lpPrefix);
        byte[] markKey = key(lpPrefix);
        byte[] ruleKey = PartitionExpiryRules.key(lpPrefix); // after the mark: the same slice
        byte[][] found = new byte[3][];
        container.reads().scanPartitionDerived(lpPrefix, Space.META, epochKey, Keys.concat(ruleKey, new byte[]{0}),
                (KeyValue kv) -> {
                    if (Arrays.equals(kv.key(), epochKey)) {
                        found[0] = kv.value();
                    } else if (Arrays.equals(kv.key(), markKey)) {
                        found[1] = kv.value();
                    } else if (Arrays.equals(kv.key(), ruleKey)) {
                        found[2] = kv.value();
                    }
                    return true;
                });
        if (found[1] != null && container.graphAdjacency() == null) {
            container.adoptGraphAdjacencyInFlight();
        }
        return new SideRows(found[0], found[2]);
    }
}

package io.tetradb.core.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.reads.ItemReads;
import io.tetradb.core.storage.KeyValue;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.WriteSet;
import io.tetradb.core.storage.meta.MetaWrite;
import io.tetradb.core.storage.partition.LogicalPartition;
import io.tetradb.core.storage.partition.PartitionStore;
import io.tetradb.core.storage.partition.PartitionVersion;
import io.tetradb.core.storage.partition.PartitionWrite;
import io.tetradb.core.storage.partition.StoredItem;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Graph adjacency ({@link GraphAdjacency}) when the container's items are not in the embedded engine's keys (issue
 * 20: Cassandra). The entries are already side writes of the edge's own conditional apply (the write set carries
 * them), so they are as atomic there as on the embedded engine: an out-entry is keyed under the source vertex, whose
 * partition holds the edge, so a vertex's out-entries are a range of its own partition's derived keys
 * ({@link PartitionStore#scanDerived}); an in-entry is keyed under the target vertex but written in the source's
 * partition, so a vertex's in-entries are found across the container's partitions ({@link PartitionStore#seekDerived},
 * which the Cassandra engine serves from a storage-attached index over those rows). The durable mark goes through
 * the metadata contract, and enabling adjacency on a container with edges backfills their entries partition by
 * partition through conditional applies that move each partition's version on and mark it
 * ({@link AdjacencyPartitionMarks}), so a writer whose container object predates the mark writes entries too.
 */
final class AdjacencyContractPath {
    /** Edges whose entries one backfill apply writes (two entries each): well within a Cassandra batch's limits. */
    static final int BACKFILL_EDGES_PER_APPLY = 64;

    private AdjacencyContractPath() {
    }

    /**
     * True when the container's item reads go through the partition contract (items on another engine, or
     * {@code -Dtetradb.itemReads=contract}): its adjacency then does too.
     */
    static boolean applies(ContainerStore container) {
        return !container.reads().embedded();
    }

    /**
     * At a catalog refresh: cached containers whose adjacency another server has since enabled (their mark is in the
     * shared metadata) keep entries for the edges this server writes from now on (that server backfills the rest).
     * One listing of the marks.
     */
    static void followMarks(CoreStore store, Iterable<ContainerStore> cached) {
        if (!store.metadata().isShared()) {
            return;
        }
        java.util.Set<Integer> marked = null;
        for (ContainerStore c : cached) {
            if (c.graphAdjacency() != null || !applies(c)) {
                continue;
            }
            if (marked == null) {
                marked = new java.util.HashSet<>();
                for (io.tetradb.core.storage.meta.MetaEntry e : store.metadata().list(
                        GraphAdjacency.metaKey(0), GraphAdjacency.metaKey(Integer.MAX_VALUE))) {
                    marked.add(io.tetradb.core.value.KeyBytes.getInt(e.key(), e.key().length - 4));
                }
            }
            if (marked.contains(c.collId())) {
                c.adoptGraphAdjacency();
            }
        }
    }

    /** Whether the container carries the adjacency mark, read through the metadata contract. */
    static boolean marked(CoreStore store, int collId) {
        return store.metadata().get(GraphAdjacency.metaKey(collId)) != null;
    }

    /**
     * Visits the entries of {@code [from, to)} under one vertex (whose partition prefix is {@code lpPrefix} and whose
     * entries all start with {@code vertexPrefix}): {@code dir} OUT from the vertex's partition, IN across the
     * container, 0 both in key order (OUT sorts before IN).
     */
    static void scan(ItemReads reads, byte[] lpPrefix, byte[] vertexPrefix, byte dir, byte[] from, byte[] to,
                     Predicate<KeyValue> visitor) {
        int collId = io.tetradb.core.value.KeyBytes.getInt(lpPrefix, 0);
        if (dir == GraphAdjacency.OUT) {
            reads.scanPartitionDerived(lpPrefix, Space.ADJACENCY, from, to, visitor);
        } else if (dir == GraphAdjacency.IN) {
            reads.scanContainerDerived(collId, Space.ADJACENCY, from, to, visitor);
        } else {
            boolean[] go = {true};
            reads.scanPartitionDerived(lpPrefix, Space.ADJACENCY, Keys.concat(vertexPrefix, new byte[]{GraphAdjacency.OUT}),
                    Keys.concat(vertexPrefix, new byte[]{GraphAdjacency.IN}), kv -> go[0] = visitor.test(kv));
            if (go[0]) {
                reads.scanContainerDerived(collId, Space.ADJACENCY, Keys.concat(vertexPrefix, new byte[]{GraphAdjacency.IN}),
                        Keys.concat(vertexPrefix, new byte[]{GraphAdjacency.IN + 1}), visitor);
            }
        }
    }

    /**
     * Marks the container (a catalog change: other servers' caches reload it and keep entries from then on), then
     * writes the entries of the edges already there, one partition at a time, each chunk a conditional apply at the
     * version it read (refused: the partition is read again). The caller keeps this server's writers out.
     */
    static void enable(CoreStore store, ContainerStore container, GraphAdjacency adjacency) {
        int collId = container.collId();
        if (!marked(store, collId)) {
            store.metadata().apply(new MetaWrite().put(GraphAdjacency.metaKey(collId), new byte[]{1}).catalogChange());
            if (store.metadata().isShared()) {
                // the other servers' lookups see the mark within their catalog check (followMarks) before the backfill
                // starts, so no edge they write after it lacks its entries (a request already past its lookup may)
                try {
                    Thread.sleep(2 * store.catalogCheckMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        PartitionStore partitions = store.partitions();
        for (PartitionVersion pv : partitions.partitions(collId, null, null)) {
            backfill(store, container, adjacency, partitions, pv.partition());
        }
    }

    private static void backfill(CoreStore store, ContainerStore container, GraphAdjacency adjacency,
                                 PartitionStore partitions, LogicalPartition p) {
        String after = null;
        byte[] lp = p.prefix();
        while (true) {
            io.tetradb.core.storage.partition.PartitionStats stats = partitions.stats(p);
            long version = stats.version();
            List<StoredItem> items = partitions.scan(p, after == null ? null : after + "\0", null,
                    BACKFILL_EDGES_PER_APPLY);
            if (items.isEmpty() && after != null) {
                return;
            }
            // each apply moves the version on and marks the partition (AdjacencyPartitionMarks): a writer that read
            // the version before it loses the race, one that reads after it finds the mark and writes entries too
            WriteSet ws = new WriteSet();
            AdjacencyPartitionMarks.addTo(ws, lp);
            ws.put(Space.META, Keys.withByte(Keys.LOGICAL_PARTITION_STATS, lp),
                    new LogicalPartitionStats(stats.bytes(), stats.items(), version + 1).encode());
            for (StoredItem item : items) {
                ObjectNode tree = store.codec().parse(item.value());
                for (Map.Entry<ByteBuffer, byte[]> e : adjacency.entriesOf(container.partitionKeyOf(tree), tree)
                        .entrySet()) {
                    ws.put(Space.ADJACENCY, e.getKey().array(), e.getValue());
                }
            }
            boolean applied = partitions.apply(new PartitionWrite(p, version, version + 1, ws)).applied();
            store.forgetPartitionStats(lp); // core-write: written outside the transactions
            if (applied) {
                if (items.size() < BACKFILL_EDGES_PER_APPLY) {
                    return;
                }
                after = items.get(items.size() - 1).id();
            } // refused: another writer moved the partition on; read the same chunk again at its new version
        }
    }
}

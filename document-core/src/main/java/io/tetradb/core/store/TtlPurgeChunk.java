package io.tetradb.core.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tetradb.core.feed.ChangeFeed;
import io.tetradb.core.index.CompiledIndexingPolicy;
import io.tetradb.core.partition.PartitionKeyValue;
import io.tetradb.core.partition.PartitionMap;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.StorageEngine;
import io.tetradb.core.storage.WriteSet;
import io.tetradb.core.ttl.ExpiryRule;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The TTL purge of one logical partition's expired items without the general transaction: the purge only deletes,
 * so the transaction's per-item maps (before/after versions, lsns, entry lists, expiry, parsed trees), its operation
 * results and its index diff's sets are not needed. It writes exactly the keys the general purge transaction writes
 * (proved key space by key space in {@code TtlPurgeChunkEquivalenceTest}): the item's delete, the deleted version's
 * index entries (under the policy its key follows, so during an index rebuild too), its expiry entry and stale
 * ones, the unique-key entries it still owns, one change record flagged {@code timeToLiveExpired} (with its previous
 * image when the container keeps all versions), the partition's statistics; then it releases the feed ticket, bumps
 * the write stamps and moves the physical partition's counters, as every write path does.
 *
 * <p>Containers with face-defined unique indexes or graph adjacency take the general transaction ({@link #fits}):
 * their entries need the owner checks and diffs only it has.
 */
final class TtlPurgeChunk {
    private static final byte[] NOTHING = new byte[0];

    private final ContainerStore container;
    private final CoreStore store;
    private final StorageEngine engine;
    private final PartitionKeyValue pk;
    private final byte[] lpPrefix;
    private final ExpiryRule rule;
    private final IndexingState policies;
    private final io.tetradb.core.unique.UniqueKeyPolicy uniqueKeys;
    private final long now;

    TtlPurgeChunk(ContainerStore container, CoreStore store, PartitionKeyValue pk, byte[] lpPrefix) {
        this.container = container;
        this.store = store;
        this.engine = store.engine();
        this.pk = pk;
        this.lpPrefix = lpPrefix;
        this.rule = container.expiryRule();
        this.policies = container.indexingState();
        this.uniqueKeys = container.uniqueKeyPolicy();
        this.now = store.config().clock().millis();
    }

    /** Whether the lean purge writes everything the container's deletes must write (see the class comment). */
    static boolean fits(ContainerStore c) {
        return c.graphAdjacency() == null && c.uniqueIndexes().isEmpty();
    }

    /**
     * Under the container's map lock (read): takes the partition's lock, deletes the expired items of
     * {@code entries} (expiry-index keys of this partition) in one write, and returns how many it deleted.
     */
    int run(List<byte[]> entries, ReentrantLock lock, PartitionMap map) {
        lock.lock();
        long deltaBytes = 0;
        long deltaItems = 0;
        long deltaLogicalPartitions = 0;
        int n = 0;
        try {
            int count = entries.size();
            List<byte[]> docKeys = new ArrayList<>(count);
            for (byte[] entry : entries) {
                docKeys.add(ExpiryIndex.docKeyOf(entry));
            }
            List<byte[]> stored = count == 1 ? Arrays.asList(engine.get(Space.DOCS, docKeys.get(0)))
                    : engine.multiGet(Space.DOCS, docKeys);
            // Whether an entry is still its item's expiry: read from the item when its delete parses it anyway,
            // otherwise from the entry itself read again under the lock (as the general purge decides)
            boolean parses = !uniqueKeys.isEmpty();
            for (byte[] k : docKeys) {
                parses |= policies.policyFor(k).enabled();
            }
            List<byte[]> present = parses ? null : engine.multiGet(Space.META, entries);
            byte[] statsKey = Keys.withByte(Keys.LOGICAL_PARTITION_STATS, lpPrefix);
            LogicalPartitionStats stats = LogicalPartitionStats.decode(engine.get(Space.META, statsKey));
            long lsn = stats.lsn();
            WriteSet ws = new WriteSet();
            List<byte[]> indexDeletes = new ArrayList<>(count * 8);
            List<byte[]> staleExpiry = new ArrayList<>();
            UniqueKeyIndex.Changes unique = uniqueKeys.isEmpty() ? null
                    : new UniqueKeyIndex.Changes(engine, id -> true); // a delete takes no value: no owner asked
            ChangeFeed.Batch feed = container.changeFeed().batch();
            byte[] logicalPartition = Arrays.copyOfRange(lpPrefix, container.collIdBytes().length, lpPrefix.length);
            Set<String> deleted = count > 1 ? new HashSet<>(count * 2) : null;
            for (int e = 0; e < count; e++) {
                byte[] entry = entries.get(e);
                byte[] docKey = docKeys.get(e);
                String id = new String(docKey, lpPrefix.length, docKey.length - lpPrefix.length, StandardCharsets.UTF_8);
                boolean gone = deleted != null && deleted.contains(id); // a second entry of an item deleted above
                if (present != null && (present.get(e) == null || gone)) {
                    continue; // its entry moved (or went) since it was listed; a later round sees the new one
                }
                byte[] cur = gone ? null : stored.get(e);
                if (cur == null) {
                    staleExpiry.add(entry);
                    continue;
                }
                long at = ExpiryIndex.expiresAtOf(entry);
                ObjectNode tree = null;
                if (present == null) {
                    tree = store.codec().parse(cur);
                    at = rule.expiresAt(tree);
                    if (at != ExpiryIndex.expiresAtOf(entry)) {
                        staleExpiry.add(entry); // the item's own entry (if any) is at its real expiry
                    }
                }
                if (at > now) {
                    continue;
                }
                // the delete: item, index entries of the stored version, unique keys it owns, expiry entry, record
                CompiledIndexingPolicy policy = policies.policyFor(docKey);
                List<ByteBuffer> indexEntries = policy.enabled()
                        ? container.indexEntries(docKey, tree, tree.path("_ts").asLong(), policy) : List.of();
                for (ByteBuffer ie : indexEntries) {
                    indexDeletes.add(ie.array());
                }
                if (unique != null) {
                    unique.replace(id, UniqueKeyIndex.terms(uniqueKeys, lpPrefix, tree), List.of());
                }
                lsn++;
                ws.delete(Space.DOCS, docKey);
                feed.add(logicalPartition, id, lsn, null, cur, ItemCodec.lsn(cur), true);
                if (at != ExpiryRule.NEVER) {
                    ws.delete(Space.META, ExpiryIndex.key(docKey, at));
                }
                deltaBytes -= docKey.length + cur.length + ContainerStore.bytes(indexEntries);
                deltaItems--;
                if (deleted != null) {
                    deleted.add(id);
                }
                n++;
            }
            if (n == 0 && staleExpiry.isEmpty()) {
                return 0;
            }
            for (byte[] stale : staleExpiry) {
                ws.delete(Space.META, stale);
            }
            if (unique != null) {
                unique.addTo(ws);
            }
            indexDeletes.sort(Arrays::compareUnsigned); // in key order, as every write set hands them to the memtable
            for (byte[] key : indexDeletes) {
                ws.delete(Space.INDEX, key);
            }
            long items = stats.items() + deltaItems;
            if (stats.items() > 0 && items == 0) {
                deltaLogicalPartitions = -1;
            }
            if (lsn != stats.lsn()) {
                ws.put(Space.META, statsKey, new LogicalPartitionStats(stats.bytes() + deltaBytes, items, lsn).encode());
            }
            long ticket = feed.writeTo(ws, System.currentTimeMillis()); // last: nothing can fail after it
            try {
                // no wait for the fsync: nobody is acknowledged; the WAL sync that follows covers it
                PartitionCommit.apply(store.partitions(), lpPrefix, stats.lsn(), lsn, ws, true);
            } finally {
                container.changeFeed().release(ticket); // applied (or failed): feed readers may read past it
            }
            container.writeStamps().bump(pk); // expired items leave the caches above the core too
        } finally {
            lock.unlock();
        }
        map.route(pk.epk()).add(deltaBytes, deltaItems, deltaLogicalPartitions);
        store.ttlPurger().countFast(n);
        return n;
    }
}

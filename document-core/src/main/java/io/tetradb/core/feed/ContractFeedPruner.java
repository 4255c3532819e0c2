package io.tetradb.core.feed;

import io.tetradb.core.storage.partition.LogicalPartition;
import io.tetradb.core.storage.partition.PartitionStore;
import io.tetradb.core.storage.partition.PartitionVersion;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The feed pruner's pass over a container whose items (and change records) are on another engine, through the
 * logical-partition contract: per logical partition, the records that are no longer their item's latest version
 * and tombstones, once older than the container's all-versions retention (at once without one), are deleted with
 * {@link PartitionStore#deleteChanges}. Whether a record may go is a fact that only ever becomes true (a later record
 * of its item exists; its commit time left the retention), so passes on several servers never undo each other and
 * need no condition on the partition's version (which would contend with its writers); two servers pruning one
 * partition at once delete the same records twice. A partition whose version has not moved since a pass found
 * nothing held back in it is skipped by its version alone.
 */
final class ContractFeedPruner {
    private static final int CHUNK = 512;
    /** Per partition: the version a pass left it at with nothing held back (nothing to do until it moves). */
    private final Map<LogicalPartition, Long> clean = new ConcurrentHashMap<>();

    /** One pass over {@code feed}'s partitions; returns the records removed and counts the records read. */
    long prune(ChangeFeed feed, PartitionStore store, long now, java.util.concurrent.atomic.AtomicLong recordsRead) {
        long cutoff = now - feed.retention().toMillis();
        long removed = 0;
        for (PartitionVersion pv : store.partitions(feed.collId(), null, null)) {
            LogicalPartition p = pv.partition();
            Long at = clean.get(p);
            if (at != null && at == pv.version()) {
                continue;
            }
            List<ChangeRecord> records = new ArrayList<>();
            long after = 0;
            while (true) {
                List<ChangeRecord> page = store.changes(p, after, CHUNK);
                records.addAll(page);
                if (page.size() < CHUNK) {
                    break;
                }
                after = page.get(page.size() - 1).lsn();
            }
            recordsRead.addAndGet(records.size());
            Map<String, Long> newest = new HashMap<>();
            for (ChangeRecord r : records) {
                newest.merge(r.id(), r.lsn(), Math::max);
            }
            List<Long> drop = new ArrayList<>();
            boolean heldBack = false;
            for (ChangeRecord r : records) {
                boolean live = newest.get(r.id()) == r.lsn() && r.operationType() != ChangeRecord.OperationType.DELETE;
                if (live) {
                    continue; // the latest-version feed from the beginning needs one record per live item
                }
                if (r.crtsMillis() > cutoff) {
                    heldBack = true; // within the retention: a later pass
                } else {
                    drop.add(r.lsn());
                }
            }
            if (!drop.isEmpty()) {
                store.deleteChanges(p, drop);
                removed += drop.size();
            }
            if (heldBack) {
                clean.remove(p);
            } else {
                clean.put(p, pv.version());
            }
        }
        return removed;
    }
}

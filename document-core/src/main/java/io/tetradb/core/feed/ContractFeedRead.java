package io.tetradb.core.feed;

import io.tetradb.core.storage.partition.PartitionStore;
import io.tetradb.core.storage.partition.PartitionVersion;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * One change-feed page read through the logical-partition contract with a {@link FeedCursor}: the scope's logical
 * partitions ({@link PartitionStore#partitions}, with their versions) in key order, starting at the cursor's resume
 * point and wrapping around; each partition whose version passed the cursor's lsn is read with
 * {@link PartitionStore#changes} after that lsn. So a page costs one listing plus one read per changed partition,
 * and a partition the reader is caught up with is skipped by its version alone.
 *
 * <p>Order: within a logical partition, lsn order (Cosmos DB's guarantee for the change feed); across partitions
 * none is promised (here: key order from the resume point). Every change of a partition is read, because a
 * partition's records are a prefix of its versions: a record with lsn n is written by the conditional apply that
 * moves the partition to n, which began after version n-1 was committed.
 */
final class ContractFeedRead {
    /** Records fetched per {@code changes} call. */
    private static final int CHUNK = 256;

    private final ChangeFeed feed;
    private final PartitionStore store;
    private final ChangeFeedRequest request;
    private final byte[] fromPartition;
    private final byte[] toPartition;
    private final Predicate<ChangeRecord> inScope;
    private final long stable;

    ContractFeedRead(ChangeFeed feed, PartitionStore store, ChangeFeedRequest request, byte[] fromPartition,
                     byte[] toPartition, Predicate<ChangeRecord> inScope, long stable) {
        this.feed = feed;
        this.store = store;
        this.request = request;
        this.fromPartition = fromPartition;
        this.toPartition = toPartition;
        this.inScope = inScope;
        this.stable = stable;
    }

    /** A cursor at the scope's present: every partition at its current version (a "start from now" reader). */
    static FeedCursor now(PartitionStore store, int collId, byte[] fromPartition, byte[] toPartition) {
        FeedCursor c = FeedCursor.beginning();
        for (PartitionVersion pv : store.partitions(collId, fromPartition, toPartition)) {
            c.advance(pv.partition().key(), pv.version());
        }
        return c;
    }

    ChangeFeedPage read() {
        FeedCursor cursor = request.cursor().copy();
        List<PartitionVersion> parts = store.partitions(feed.collId(), fromPartition, toPartition);
        int start = 0;
        byte[] resume = cursor.resume();
        if (resume != null) {
            while (start < parts.size() && Arrays.compareUnsigned(parts.get(start).partition().key(), resume) < 0) {
                start++;
            }
            if (start == parts.size()) {
                start = 0;
            }
        }
        boolean latest = request.mode() == ChangeFeedMode.LATEST_VERSION;
        List<List<ChangeRecord>> perPartition = new ArrayList<>();
        int kept = 0;
        int looked = 0;
        boolean caughtUp = true;
        cursor.resumeAt(null);
        partitions:
        for (int i = 0; i < parts.size(); i++) {
            PartitionVersion pv = parts.get((start + i) % parts.size());
            byte[] key = pv.partition().key();
            long seen = cursor.lsn(key);
            if (pv.version() <= seen) {
                continue; // nothing new there: its version says so without reading a record
            }
            List<ChangeRecord> mine = new ArrayList<>();
            perPartition.add(mine);
            while (true) {
                List<ChangeRecord> records = store.changes(pv.partition(), seen, CHUNK);
                for (ChangeRecord r : records) {
                    feed.countRead();
                    looked++;
                    seen = r.lsn();
                    if (r.crtsMillis() >= request.notBeforeMillis() && inScope.test(r)
                            && (!latest || r.operationType() != ChangeRecord.OperationType.DELETE)) {
                        mine.add(r);
                        kept++;
                    }
                    if (kept >= request.maxItems()
                            || looked >= ChangeFeed.MAX_SCANNED_PER_PAGE) {
                        cursor.advance(key, seen);
                        cursor.resumeAt(key); // the next page goes on in this partition
                        caughtUp = false;
                        break partitions;
                    }
                }
                if (records.size() < CHUNK) {
                    break;
                }
            }
            // read to its end: every record up to the version listed is among them (or pruned)
            cursor.advance(key, Math.max(seen, pv.version()));
        }
        List<ChangeRecord> merged = merge(perPartition, kept);
        List<ChangeFeedPage.Change> out = new ArrayList<>(merged.size());
        if (!latest) {
            feed.allVersionsChanges(merged, out); // feed-images: a directory written embedded, read through the contract
        } else if (!merged.isEmpty()) {
            feed.latestItems(merged, out);
        }
        return new ChangeFeedPage(out, Math.max(stable, request.after()), caughtUp, cursor);
    }

    /**
     * The partitions' records as one list, each partition's in lsn order, interleaved by commit time (then by the
     * writing server's sequence, which orders one server's commits of one millisecond): close to commit order
     * within a page, which readers of several partitions expect, without giving up the per-partition order.
     */
    private static List<ChangeRecord> merge(List<List<ChangeRecord>> lists, int size) {
        List<ChangeRecord> out = new ArrayList<>(size);
        int[] at = new int[lists.size()];
        java.util.PriorityQueue<Integer> heads = new java.util.PriorityQueue<>((a, b) -> {
            ChangeRecord x = lists.get(a).get(at[a]);
            ChangeRecord y = lists.get(b).get(at[b]);
            int c = Long.compare(x.crtsMillis(), y.crtsMillis());
            return c != 0 ? c : Long.compare(x.seq(), y.seq());
        });
        for (int i = 0; i < lists.size(); i++) {
            if (!lists.get(i).isEmpty()) {
                heads.add(i);
            }
        }
        while (!heads.isEmpty()) {
            int i = heads.poll();
            out.add(lists.get(i).get(at[i]++));
            if (at[i] < lists.get(i).size()) {
                heads.add(i);
            }
        }
        return out;
    }
}

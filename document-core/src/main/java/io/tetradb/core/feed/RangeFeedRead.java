package io.tetradb.core.feed;

import io.tetradb.core.partition.EpkRange;
import io.tetradb.core.storage.KeyCursor;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.StorageEngine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.Predicate;

/**
 * One change-feed page of an EPK range scope (a feed range that is part of its container) read through the partition
 * index ({@code collId · 'P' · EPK · pk · seq}): each logical partition of the range is one seek from the continuation,
 * and the smallest numbers of their union make the page (merged in feed order, as a hierarchical key prefix's
 * partitions are), so the records looked at are the range's own, not the container's whole sequence.
 *
 * <p>The index costs a seek per logical partition of the range (two cursors: one finds the partition, one reads it
 * from the continuation), whether or not it has new records; the sequence scan costs one record per change of the
 * container since the continuation. So the index is taken only while its seeks stay below what the scan would read
 * ({@link #SEEK_WEIGHT} records per seek): a caught-up reader of a range with many partitions, or of most of the
 * container, scans; a reader behind on a narrow range seeks. {@link #read()} gives up (null) once the partitions it
 * met pass that budget, and the caller scans.
 */
final class RangeFeedRead {
    /**
     * Records the sequence scan decodes in the CPU time of one partition's seek (two cursor opens and seeks). Measured
     * (2026-11-26, loaded 2-core VM, thread CPU): 8–9 µs per partition over a range of ~1,000 partitions against
     * 0.5–0.6 µs per record decoded by a scan, about 15.
     */
    static final int SEEK_WEIGHT = 16;

    private final ChangeFeed feed;
    private final ChangeFeedRequest request;
    private final EpkRange range;
    private final long stable;
    private final StorageEngine engine;
    private final PartitionFeedRead pages;

    RangeFeedRead(ChangeFeed feed, ChangeFeedRequest request, EpkRange range, Predicate<ChangeRecord> inScope,
                  long stable) {
        this.feed = feed;
        this.request = request;
        this.range = range;
        this.stable = stable;
        this.engine = feed.feeds().engine();
        this.pages = new PartitionFeedRead(feed, request, inScope, stable);
    }

    /** Whether the index may pay for this range at all: never for the whole container's range. */
    static boolean narrow(EpkRange range) {
        return !range.equals(EpkRange.FULL);
    }

    /** The page, or null when the range has more logical partitions than the sequence scan has records to read. */
    ChangeFeedPage read() {
        long after = request.after();
        long scanCost = Math.min(stable - after, ChangeFeed.MAX_SCANNED_PER_PAGE);
        long maxPartitions = Math.max(1, scanCost / SEEK_WEIGHT);
        int cap = Math.max(1, Math.min(request.maxItems(), ChangeFeed.MAX_SCANNED_PER_PAGE));
        // the cap smallest numbers over the range's partitions (a max-heap: its head is the largest kept)
        PriorityQueue<Long> smallest = new PriorityQueue<>(Comparator.reverseOrder());
        boolean more = false;
        byte[] from = FeedKeys.partitionPrefix(feed.collId(), range.min());
        byte[] end = FeedKeys.partitionPrefix(feed.collId(), range.max());
        long partitions = 0;
        while (true) {
            byte[] first;
            try (KeyCursor c = engine.cursor(Space.FEED, from, end, false)) {
                if (!c.next()) {
                    break;
                }
                first = c.key();
            }
            if (++partitions > maxPartitions) {
                return null; // the scan reads less
            }
            byte[] lp = Arrays.copyOfRange(first, 5, first.length - 8);
            try (KeyCursor c = engine.cursor(Space.FEED, FeedKeys.partitionRecord(feed.collId(), lp, after + 1),
                    FeedKeys.partitionRecord(feed.collId(), lp, stable + 1), false)) {
                List<Long> run = new ArrayList<>();
                partition:
                while (c.next()) {
                    run.clear();
                    pages.addRun(c, after, run); // the records the key stands for, ascending
                    for (long seq : run) {
                        if (smallest.size() < cap) {
                            smallest.add(seq);
                        } else {
                            more = true;
                            if (seq >= smallest.peek()) {
                                break partition; // this partition's later numbers are larger still
                            }
                            smallest.poll();
                            smallest.add(seq);
                        }
                    }
                }
            }
            // past every key of this logical partition (numbers are positive, so none reaches all-0xFF)
            byte[] last = FeedKeys.partitionRecord(feed.collId(), lp, -1L);
            from = Arrays.copyOf(last, last.length + 1);
        }
        List<Long> seqs = new ArrayList<>(smallest);
        Collections.sort(seqs);
        return pages.page(seqs, more);
    }
}

package io.tetradb.core.feed;

import io.tetradb.core.storage.KeyCursor;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.WriteSet;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Keeps the feeds bounded, in the background: removes create/replace records that are no longer their item's latest
 * version, and tombstones, once they are older than the container's all-versions retention (at once when it keeps
 * the latest version only), plus records of the layout before the feed had readers. It deletes record keys only
 * (writers never touch an old record again), in small atomic chunks, so writers never wait for it.
 *
 * <p>Incremental: each pass reads only the records written since its previous pass of the container (plus those
 * still inside the retention) and remembers, per container, each item's newest record ({@link PruneProgress}); a
 * replace or delete of an item then names the record it supersedes without reading the item. The first pass after
 * the store opens reads the whole feed and checks each record that looks live against its item, as every pass did
 * before. Memory: about 170 bytes per tracked item; once the store's containers hold more than
 * {@code -Dtetradb.feed.prunerTrackedItems} (default 500,000) items, the container that passed it is no longer
 * tracked and each of its passes rereads its whole feed with one item read per record, as before.
 */
public final class FeedPruner implements AutoCloseable {
    private static final int CHUNK = 512;
    /** New records taken per step of a pass: bounds the memory of a long pass (the first one after a restart). */
    static final int STEP = 4_096;

    private final ChangeFeeds feeds;
    private final Duration interval;
    private final int maxTracked;
    private final Thread thread;
    private final Set<Integer> legacyChecked = new HashSet<>();
    /** Per open container; guarded by this. A container no longer tracked (see {@link #maxTracked}) maps to null. */
    private final Map<ChangeFeed, PruneProgress> progress = new HashMap<>();
    private final AtomicLong pruned = new AtomicLong();
    private final AtomicLong recordsRead = new AtomicLong();
    private final AtomicLong itemReads = new AtomicLong();
    private final AtomicLong recordsTold = new AtomicLong();
    private final ContractFeedPruner contractPruner = new ContractFeedPruner();

    private long countPruned(long n) {
        pruned.addAndGet(n);
        return n;
    }
    private volatile boolean closed;

    FeedPruner(ChangeFeeds feeds, Duration interval) {
        this.feeds = feeds;
        this.interval = interval;
        this.maxTracked = Integer.getInteger("tetradb.feed.prunerTrackedItems", 500_000);
        this.thread = new Thread(this::loop, "tetradb-feed-pruner");
        this.thread.setDaemon(true);
        if (!interval.isZero()) {
            thread.start();
        }
    }

    /** Records removed since the store opened. */
    public long prunedRecords() {
        return pruned.get();
    }

    /** Change records the passes have read since the store opened (what a pass costs grows with it). */
    public long recordsRead() {
        return recordsRead.get();
    }

    /**
     * feed-prune: change records the passes learnt from the commit path ({@link PrunerNotes}) instead of reading them.
     */
    public long recordsTold() {
        return recordsTold.get();
    }

    /** A container's notes are filling up: a pass takes them before they are dropped (a no-op without the thread). */
    void wake() {
        java.util.concurrent.locks.LockSupport.unpark(thread);
    }

    /** Item point reads the passes have made since the store opened (to tell a record live or superseded). */
    public long itemReads() {
        return itemReads.get();
    }

    private void loop() {
        while (!closed) {
            try {
                // woken early when a container's notes fill up (wake); close() interrupts, which ends the park too
                java.util.concurrent.locks.LockSupport.parkNanos(interval.toNanos());
                if (closed || Thread.currentThread().isInterrupted()) {
                    return;
                }
                pruneOnce();
            } catch (RuntimeException e) {
                if (closed) {
                    return;
                }
                // an engine hiccup (or a container deleted under the pass): the next pass tries again
            }
        }
    }

    /** One pass over every open feed that has something to prune; returns the records removed. */
    public long pruneOnce() {
        return pruneOnce(System.currentTimeMillis());
    }

    /** {@link #pruneOnce()} as if the clock read {@code now} (tests: records leaving the retention). */
    synchronized long pruneOnce(long now) {
        long removed = 0;
        Set<ChangeFeed> open = new HashSet<>();
        for (ChangeFeed feed : feeds.all()) {
            open.add(feed);
            removed += prune(feed, now);
        }
        progress.keySet().retainAll(open); // deleted containers
        sweepCursorTokens(now); // feed-tokens hook
        return removed;
    }

    // ---- feed-tokens hook: stored cursors past their lifetime go, at most once a minute ----
    private long cursorsSweptAt;

    private void sweepCursorTokens(long now) {
        FeedCursorTokens tokens = feeds.cursorTokens();
        if (tokens != null && now - cursorsSweptAt >= 60_000) {
            cursorsSweptAt = now;
            try {
                tokens.sweep(now);
            } catch (RuntimeException e) {
                // an engine hiccup: the next minute's pass sweeps them
            }
        }
    }
    // ---- end feed-tokens hook ----

    /** Items remembered over all containers. */
    private long tracked() {
        long n = 0;
        for (PruneProgress p : progress.values()) {
            n += p == null ? 0 : p.latest.size();
        }
        return n;
    }

    private long prune(ChangeFeed feed, long now) {
        if (feeds.pruneThroughContract() && feed.readsPerPartition()) { // shared-feed hook: records on another engine
            return countPruned(contractPruner.prune(feed, feed.contractStoreForPruner(),
                    now, recordsRead));
        }
        if (legacyChecked.add(feed.collId()) && feeds.engine().anyKey(Space.FEED, FeedKeys.legacyStart(feed.collId()),
                FeedKeys.legacyEnd(feed.collId()))) { // graph-load6: no tombstone over an empty range (bulk ingestion)
            feeds.engine().apply(new WriteSet().deleteRange(Space.FEED, FeedKeys.legacyStart(feed.collId()),
                    FeedKeys.legacyEnd(feed.collId())));
        }
        long dirty = feed.superseded.get();
        PruneProgress known = progress.get(feed);
        // retention-due: with nothing replaced or deleted since the last pass, one is due only once a record it held
        // within the retention (a tombstone, a superseded version) leaves it
        if (dirty == 0 && (known == null || now < known.dueAtMillis)) {
            PrunerNotes notes = feed.notes();
            if (notes == null || !notes.pressing()) {
                return 0;
            }
            if (progress.get(feed) == null) {
                notes.lost(0); // not tracked: its passes read the whole feed anyway, and only when needed
                return 0;
            }
            // nothing to remove yet, but the notes are filling up: register them (a pass that reads nothing)
        }
        long retentionMillis = feed.retention().toMillis();
        // without a retention nothing is kept for its age: a record of this very millisecond is as prunable as older
        long cutoff = retentionMillis > 0 ? now - retentionMillis : Long.MAX_VALUE;
        long stable = feeds.stablePosition();
        Pass pass = new Pass(feed, cutoff);
        try {
            PruneProgress p = progress.get(feed);
            if (p != null && p.retentionMillis != retentionMillis) {
                p = null; // the policy changed: what was decided under the old retention is decided again
                progress.remove(feed);
                forgetNotes(feed, stable); // the new progress starts from the beginning: it reads the feed
            }
            if (!progress.containsKey(feed)) {
                // feed-prune: with every record of the container noted since its birth, nothing predates the progress
                long trustedAfter = feed.notes() != null && feed.notes().coversFromStart() ? 0 : stable;
                p = tracked() < maxTracked ? new PruneProgress(trustedAfter, retentionMillis,
                        feeds.prunerNotesCapacity()) : null;
                progress.put(feed, p);
            }
            if (p == null) {
                pass.byItemReads(stable);
            } else {
                pass.incremental(p, stable);
                if (tracked() > maxTracked) {
                    progress.put(feed, null); // too many items to remember: item reads from now on
                    pass.keepsMark = p.pendingLeft(); // which remember no due time: pass again while any is held
                }
            }
        } catch (RuntimeException e) {
            progress.remove(feed); // a half-done pass: start over with a full one
            forgetNotes(feed, stable); // which reads what this one may have taken
            throw e;
        } finally {
            pass.flush();
            pruned.addAndGet(pass.removed);
        }
        // what was superseded before the pass is now gone, or held within the retention by a progress that knows
        // when its pass is due (dueAtMillis); the item-read path keeps the mark instead (it remembers nothing)
        feed.superseded.addAndGet(pass.keepsMark ? 0 : -dirty);
        return pass.removed;
    }

    private static void forgetNotes(ChangeFeed feed, long upTo) {
        if (feed.notes() != null) {
            feed.notes().lost(upTo);
        }
    }

    /** One container's pass: the records it removes, in chunks. */
    private final class Pass {
        private final ChangeFeed feed;
        private final long cutoff;
        private final PartitionRunKeys doomed;
        long removed;
        /** The item-read path met a record within the retention: it passes again at the next interval. */
        boolean keepsMark;
        /** The commit time of the first record a decision stopped at (within the retention), or -1. */
        long stoppedAtMillis = -1;

        Pass(ChangeFeed feed, long cutoff) {
            this.feed = feed;
            this.cutoff = cutoff;
            this.doomed = new PartitionRunKeys(feeds.engine(), feed.collId());
        }

        /**
         * Registers the records written since the last pass, step by step; each step removes the older records
         * they supersede, then decides the records that have left the retention.
         */
        void incremental(PruneProgress p, long stable) {
            boolean deciding = true; // until a record within the retention: everything after it is newer still
            PrunerNotes notes = feed.notes();
            while (p.seen < stable && !closed) {
                if (notes != null && notes.onlySkippedCreatesIn(p.seen, stable)) {
                    break; // graph-load: creates supersede nothing; the pass a later noted record makes reads them
                }
                long heldUpTo = p.seen; // records seen by earlier passes but still undecided (within the retention)
                // feed-prune: the commit path's notes when they cover every record after p.seen, else a read
                List<ChangeRecord> told = notes == null ? null : notes.take(p.seen, stable);
                // notes-ab: without them, read up to where they begin again (creates kept none, a dropped queue)
                long upTo = told != null || notes == null ? stable : Math.min(stable, notes.unnotedUpTo());
                List<ChangeRecord> fresh = told != null ? told : read(p.seen, upTo);
                if (told != null) {
                    recordsTold.addAndGet(told.size());
                }
                p.hold(fresh);
                for (ChangeRecord r : fresh) {
                    ByteBuffer item = PruneProgress.itemOf(r);
                    boolean delete = r.operationType() == ChangeRecord.OperationType.DELETE;
                    Long previous = delete ? p.latest.remove(item) : p.latest.put(item, r.seq());
                    if (delete || r.seq() <= p.trustedAfter) {
                        p.pending(r.seq()); // a tombstone goes, and an earlier run's record is checked, once out
                    }
                    if (previous != null && previous <= p.decided) {
                        doom(previous, logicalPartitionOf(item)); // kept as its item's latest version until now
                    } else if (previous != null) {
                        p.pending(previous); // superseded within the retention: removed once out of it
                    }
                }
                // a read of fewer than STEP records read everything up to upTo
                p.seen = told != null || fresh.size() < STEP ? upTo : fresh.get(fresh.size() - 1).seq();
                if (deciding && !(decideHeld(p, heldUpTo) && decide(p, fresh))) {
                    deciding = false;
                }
            }
            if (deciding && p.decided < p.seen) {
                deciding = decideHeld(p, p.seen);
            }
            p.holdAgainIfNoneHeld();
            // retention-due: held records that are their item's latest version need no pass of their own (the
            // replace or delete that supersedes one marks the container), so an insert-only workload makes none
            p.dueAtMillis = !deciding && p.pendingLeft() ? stoppedAtMillis + p.retentionMillis : Long.MAX_VALUE;
        }

        /** Decides the records of earlier passes that were still within the retention, up to {@code upTo}. */
        private boolean decideHeld(PruneProgress p, long upTo) {
            if (p.decided >= upTo) {
                return true;
            }
            if (p.held() != null) { // feed-prune: the undecided records are in memory (the held ones, imageless)
                for (ChangeRecord r; (r = p.held().peekFirst()) != null && r.seq() <= upTo; ) {
                    if (!decide(p, r)) {
                        return false;
                    }
                }
                return true;
            }
            try (KeyCursor c = feeds.engine().cursor(Space.FEED, FeedKeys.record(feed.collId(), p.decided + 1),
                    FeedKeys.record(feed.collId(), upTo + 1), false)) {
                List<ChangeRecord> run = new ArrayList<>();
                while (c.next()) {
                    run.clear(); // one record, or a transaction's run of them (ChangeRuns)
                    ChangeRuns.decode(FeedKeys.seqOf(c.key()), c.value(), p.decided, upTo, run);
                    recordsRead.addAndGet(run.size());
                    if (!decide(p, run)) {
                        return false;
                    }
                }
            }
            return true;
        }

        private boolean decide(PruneProgress p, List<ChangeRecord> records) {
            for (ChangeRecord r : records) {
                if (!decide(p, r)) {
                    return false;
                }
            }
            return true;
        }

        /** Removes {@code r} unless it is its item's latest version; false (undecided) while within the retention. */
        private boolean decide(PruneProgress p, ChangeRecord r) {
            if (r.seq() <= p.decided) {
                return true;
            }
            if (r.crtsMillis() >= cutoff) {
                if (stoppedAtMillis < 0) {
                    stoppedAtMillis = r.crtsMillis();
                }
                return false;
            }
            if (r.operationType() == ChangeRecord.OperationType.DELETE) {
                doom(r.seq(), r.logicalPartition());
            } else {
                ByteBuffer item = PruneProgress.itemOf(r);
                Long newest = p.latest.get(item);
                if (newest == null || newest != r.seq()) {
                    doom(r.seq(), r.logicalPartition()); // a later record of its item was seen
                } else if (r.seq() <= p.trustedAfter && superseded(r)) {
                    p.latest.remove(item); // written before this run: its item changed without a record seen here
                    doom(r.seq(), r.logicalPartition());
                }
            }
            p.decidedUpTo(r.seq());
            return true;
        }

        /** The records in (after, upTo], at most {@link #STEP}. */
        private List<ChangeRecord> read(long after, long upTo) {
            List<ChangeRecord> out = new ArrayList<>();
            try (KeyCursor c = feeds.engine().cursor(Space.FEED, FeedKeys.record(feed.collId(), after + 1),
                    FeedKeys.record(feed.collId(), upTo + 1), false)) {
                while (out.size() < STEP && c.next()) {
                    ChangeRuns.decode(FeedKeys.seqOf(c.key()), c.value(), after, upTo, out); // a run whole
                }
            }
            recordsRead.addAndGet(out.size());
            return out;
        }

        /** Without remembered progress: the whole feed, one item read per create/replace record. */
        void byItemReads(long stable) {
            try (KeyCursor c = feeds.engine().cursor(Space.FEED, FeedKeys.record(feed.collId(), 1),
                    FeedKeys.record(feed.collId(), stable + 1), false)) {
                scan:
                while (c.next() && !closed) {
                    for (ChangeRecord r : ChangeRuns.decode(FeedKeys.seqOf(c.key()), c.value())) {
                        recordsRead.incrementAndGet();
                        if (r.crtsMillis() >= cutoff) {
                            keepsMark = true;
                            break scan;
                        }
                        if (r.operationType() == ChangeRecord.OperationType.DELETE || superseded(r)) {
                            doom(r.seq(), r.logicalPartition());
                        }
                    }
                }
            }
        }

        /** A create/replace whose item has changed or gone since. */
        private boolean superseded(ChangeRecord r) {
            itemReads.incrementAndGet();
            byte[] stored = feeds.engine().get(Space.DOCS, feed.docKey(r));
            return stored == null || io.tetradb.core.store.ItemCodec.lsn(stored) != r.lsn();
        }

        /** {@code EPK · pk} of an item key ({@code EPK · pk · id}, {@link PruneProgress#itemOf}). */
        private byte[] logicalPartitionOf(ByteBuffer item) {
            int epk = 16 * feed.levels();
            byte[] key = item.array();
            return java.util.Arrays.copyOf(key, epk + io.tetradb.core.partition.PartitionKeyValue.encodedLength(key, epk,
                    feed.levels()));
        }

        private void doom(long seq, byte[] logicalPartition) {
            doomed.add(logicalPartition, seq); // with its partition index key once its run is gone
            if (doomed.size() == CHUNK) {
                flush();
            }
        }

        void flush() {
            if (doomed.size() == 0) {
                return;
            }
            WriteSet ws = new WriteSet();
            doomed.deleteInto(ws);
            feeds.engine().apply(ws);
            removed += doomed.size();
            doomed.clear();
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

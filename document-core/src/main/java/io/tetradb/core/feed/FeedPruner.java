package io.tetradb.core.feed;

import io.tetradb.core.storage.KeyCursor;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.WriteSet;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Keeps the feeds bounded, in the background: removes create/replace records that are no longer their item's latest
 * version, and tombstones, once they are older than the container's all-versions retention (at once when it keeps
 * the latest version only), plus records of the layout before the feed had readers. It deletes record keys only
 * (writers never touch an old record again), in small atomic chunks, so writers never wait for it.
 */
public final class FeedPruner implements AutoCloseable {
    private static final int CHUNK = 512;

    private final ChangeFeeds feeds;
    private final Duration interval;
    private final Thread thread;
    private final Set<Integer> legacyChecked = new HashSet<>();
    private final AtomicLong pruned = new AtomicLong();
    private volatile boolean closed;

    FeedPruner(ChangeFeeds feeds, Duration interval) {
        this.feeds = feeds;
        this.interval = interval;
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

    private void loop() {
        while (!closed) {
            try {
                Thread.sleep(interval.toMillis());
                pruneOnce();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (closed) {
                    return;
                }
                // an engine hiccup (or a container deleted under the pass): the next pass tries again
            }
        }
    }

    /** One pass over every open feed that has something to prune; returns the records removed. */
    public synchronized long pruneOnce() {
        long removed = 0;
        for (ChangeFeed feed : feeds.all()) {
            removed += prune(feed, System.currentTimeMillis());
        }
        return removed;
    }

    private long prune(ChangeFeed feed, long now) {
        long removed = 0;
        if (legacyChecked.add(feed.collId())) {
            feeds.engine().apply(new WriteSet().deleteRange(Space.FEED, FeedKeys.legacyStart(feed.collId()),
                    FeedKeys.legacyEnd(feed.collId())));
        }
        long dirty = feed.superseded.get();
        if (dirty == 0) {
            return 0;
        }
        long retentionMillis = feed.retention().toMillis();
        long cutoff = now - retentionMillis;
        long stable = feeds.stablePosition();
        boolean keptSomething = false;
        List<byte[]> doomed = new ArrayList<>();
        try (KeyCursor c = feeds.engine().cursor(Space.FEED, FeedKeys.record(feed.collId(), 1),
                FeedKeys.record(feed.collId(), stable + 1), false)) {
            while (c.next() && !closed) {
                ChangeRecord r = ChangeRecord.decode(FeedKeys.seqOf(c.key()), c.value());
                if (retentionMillis > 0 && r.crtsMillis() >= cutoff) {
                    // within the retention, and everything after it is newer still (without a retention nothing
                    // is kept for its age: a record written in this very millisecond is as prunable as older ones)
                    keptSomething = true;
                    break;
                }
                if (isPrunable(feed, r)) {
                    doomed.add(c.key());
                    if (doomed.size() == CHUNK) {
                        removed += delete(doomed);
                    }
                }
            }
        }
        removed += delete(doomed);
        // what was superseded before the pass is now gone (or still inside the retention, for a later pass)
        feed.superseded.addAndGet(keptSomething ? 0 : -dirty);
        pruned.addAndGet(removed);
        return removed;
    }

    /** A tombstone, or a create/replace whose item has changed or gone since. */
    private boolean isPrunable(ChangeFeed feed, ChangeRecord r) {
        if (r.operationType() == ChangeRecord.OperationType.DELETE) {
            return true;
        }
        byte[] stored = feeds.engine().get(Space.DOCS, feed.docKey(r));
        return stored == null || io.tetradb.core.store.ItemCodec.lsn(stored) != r.lsn();
    }

    private long delete(List<byte[]> keys) {
        if (keys.isEmpty()) {
            return 0;
        }
        WriteSet ws = new WriteSet();
        keys.forEach(k -> ws.delete(Space.FEED, k));
        feeds.engine().apply(ws);
        int n = keys.size();
        keys.clear();
        return n;
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

package io.tetradb.core.feed;

import io.tetradb.core.storage.KeyCursor;
import io.tetradb.core.storage.Space;
import io.tetradb.core.storage.StorageEngine;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The store's change feeds: the store-wide sequence, one {@link ChangeFeed} per open container, and the background
 * {@link FeedPruner}. The core store creates one at open and closes it at close.
 */
public final class ChangeFeeds implements AutoCloseable {
    private final StorageEngine engine;
    private final FeedSequencer sequencer;
    private final Map<Integer, ChangeFeed> feeds = new ConcurrentHashMap<>();
    private final FeedPruner pruner;
    /**
     * feed-prune: how many applied records' notes a container keeps for the pruner, {@code -Dtetradb.feed.prunerNotes}
     * (0: none, every pass reads the new records from the store as before; notes-ab: the switch
     * {@code tetradb.feed.prunerFromCommits} that did only that is removed).
     */
    private final int prunerNotesCapacity;

    /**
     * @param maxCollId the highest container id ever given out: recovery looks for the highest sequence number in
     *                  each container's feed (a reverse seek each)
     */
    public ChangeFeeds(StorageEngine engine, int maxCollId, Duration pruneInterval) {
        this.engine = engine;
        long last = 0;
        for (int collId = 1; collId <= maxCollId; collId++) {
            try (KeyCursor c = engine.cursor(Space.FEED, FeedKeys.record(collId, 0),
                    FeedKeys.record(collId, Long.MAX_VALUE), true)) {
                if (c.next()) {
                    last = Math.max(last, FeedKeys.seqOf(c.key()));
                }
            }
        }
        byte[] highWater = engine.get(Space.FEED, FeedKeys.highWater());
        if (highWater != null) {
            last = Math.max(last, java.nio.ByteBuffer.wrap(highWater).getLong());
        }
        this.sequencer = new FeedSequencer(last);
        this.prunerNotesCapacity = Math.max(0, Integer.getInteger("tetradb.feed.prunerNotes", 32_768));
        this.pruner = new FeedPruner(this, pruneInterval);
    }

    /** The feed of one container (made on first use; a container's store asks once). */
    public ChangeFeed open(int collId, int partitionKeyLevels) {
        return feeds.computeIfAbsent(collId, id -> new ChangeFeed(this, id, partitionKeyLevels));
    }

    /**
     * Adds the sequence's high-water mark to a container delete's write set: the deleted records may have held the
     * highest numbers, and positions handed out must never be reused.
     */
    public void keepHighWater(io.tetradb.core.storage.WriteSet ws) {
        ws.put(Space.FEED, FeedKeys.highWater(), java.nio.ByteBuffer.allocate(8).putLong(sequencer.last()).array());
    }

    /** A deleted container's feed is gone (its records went with the container's key range). */
    public void forget(int collId) {
        feeds.remove(collId);
    }

    /** The position every reader can see up to: every change numbered up to it is applied. */
    public long stablePosition() {
        return sequencer.stable();
    }

    /**
     * Waits until a change beyond {@code position} is visible (in any container) or {@code maxMillis} pass; returns
     * the stable position. Lets pollers (the change feed processor, REST long polls) react within a millisecond.
     */
    public long awaitBeyond(long position, long maxMillis) throws InterruptedException {
        return sequencer.awaitBeyond(position, maxMillis);
    }

    // ---- shared-feed hook: the change records are on another engine (the item store the core was given) ----
    private volatile boolean pruneThroughContract;

    /** The containers' change records live on the item store, not here: the pruner prunes them through it. */
    public void pruneThroughContract(boolean on) {
        this.pruneThroughContract = on;
    }

    boolean pruneThroughContract() {
        return pruneThroughContract;
    }
    // ---- end shared-feed hook ----

    // ---- feed-tokens hook: cursors as bounded face tokens (FeedCursorTokens), stored in the metadata ----
    private volatile FeedCursorTokens cursorTokens;

    public void cursorTokens(FeedCursorTokens tokens) {
        this.cursorTokens = tokens;
    }

    /** Encodes and decodes {@link FeedCursor}s for the faces' etags and resume tokens; null before the store sets it. */
    public FeedCursorTokens cursorTokens() {
        return cursorTokens;
    }
    // ---- end feed-tokens hook ----

    // ---- shared-policy hook: the feed policies in the metadata contract when it is shared (SharedFeedPolicies) ----
    private volatile SharedFeedPolicies sharedPolicies;

    public void sharedPolicies(SharedFeedPolicies policies) {
        this.sharedPolicies = policies;
    }

    SharedFeedPolicies sharedPolicies() {
        return sharedPolicies;
    }

    /** Another server may have changed a policy (the catalog stamp moved): the open feeds re-read them. */
    public void reloadSharedPolicies() {
        if (sharedPolicies != null) {
            sharedPolicies.reload(feeds.values());
        }
    }
    // ---- end shared-policy hook ----

    public FeedPruner pruner() {
        return pruner;
    }

    StorageEngine engine() {
        return engine;
    }

    int prunerNotesCapacity() {
        return prunerNotesCapacity;
    }

    FeedSequencer sequencer() {
        return sequencer;
    }

    Iterable<ChangeFeed> all() {
        return feeds.values();
    }

    @Override
    public void close() {
        pruner.close();
    }
}

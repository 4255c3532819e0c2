package io.tetradb.mongo.changestream;

import io.tetradb.core.feed.ChangeFeed;
import io.tetradb.core.feed.ChangeFeedMode;
import io.tetradb.core.feed.ChangeFeedPage;
import io.tetradb.core.feed.ChangeFeedPolicy;
import io.tetradb.core.feed.ChangeFeedRequest;
import io.tetradb.core.feed.ChangeFeeds;
import io.tetradb.core.feed.ChangeRecord;
import io.tetradb.core.store.ContainerStore;
import io.tetradb.core.store.CoreStore;
import io.tetradb.mongo.bson.DocumentMapper;
import org.bson.BsonDocument;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The one place the Mongo face touches the core's change feed ({@code io.tetradb.core.feed}): it turns the change
 * records of a collection's container into {@link FeedEvent}s with BSON images (through the face's own
 * {@link DocumentMapper}), and exposes the store-wide sequence's stable position and wake-up.
 *
 * <p>Change streams need deletes and the images before and after each change, which the core keeps only in its
 * all-versions-and-deletes mode; so every Mongo collection gets that policy with {@link #RETENTION} (MongoDB's
 * equivalent is the oplog window).
 */
public final class FeedAdapter {
    /** How long change events stay resumable: {@code -Dtetradb.mongo.changeStreamRetentionMinutes} (24 h). */
    public static final Duration RETENTION = Duration.ofMinutes(
            Long.getLong("tetradb.mongo.changeStreamRetentionMinutes", 24 * 60));

    private final ChangeFeeds feeds;

    public FeedAdapter(CoreStore store) {
        this.feeds = store.changeFeeds();
        this.store = store;
    }

    /** Makes the container keep every change with its images (idempotent; a collection created earlier gets it late). */
    public static void keepAllVersions(ContainerStore container) {
        ChangeFeed feed = container.changeFeed();
        if (!feed.policy().allVersionsAndDeletes() || feed.policy().retention().compareTo(RETENTION) < 0) {
            feed.setPolicy(new ChangeFeedPolicy(RETENTION));
        }
    }

    /** The position every change up to which is readable. */
    public long stablePosition() {
        return feeds.stablePosition();
    }

    /** Waits (on the calling thread, never spinning) until a change beyond {@code position} is readable. */
    public long awaitBeyond(long position, long maxMillis) throws InterruptedException {
        return feeds.awaitBeyond(position, maxMillis);
    }

    /**
     * The changes of {@code container} numbered in {@code (after, upTo]}, at most {@code max}, in order;
     * {@code notBeforeMillis} skips changes committed earlier.
     */
    public List<FeedEvent> read(ContainerStore container, long after, long upTo, int max, long notBeforeMillis) {
        return read(container, after, upTo, max, notBeforeMillis, ru -> { });
    }

    /**
     * As above; each feed page read is admitted and charged to the budgets of the partitions it reads, as the
     * change feed of the other faces is (1 RU per KB, at least 1; twice under a Strong or BoundedStaleness account,
     * a change stream reading at the account's level), and its charge goes to {@code charges}. A page over an empty
     * budget throws {@link io.tetradb.core.throughput.RequestRateTooLargeException} (16500 on the wire) before it
     * reads anything; the stream's position does not move, so the next getMore reads the same changes.
     */
    public List<FeedEvent> read(ContainerStore container, long after, long upTo, int max, long notBeforeMillis,
                                java.util.function.DoubleConsumer charges) {
        keepAllVersions(container);
        io.tetradb.core.store.ItemCodec mapper = container.codec();
        List<FeedEvent> out = new ArrayList<>();
        long position = after;
        while (position < upTo && out.size() < max) {
            io.tetradb.core.store.ChargedChangeFeedPage charged = container.readChangeFeed(new ChangeFeedRequest(
                    ChangeFeedMode.ALL_VERSIONS_AND_DELETES, null, null, position, notBeforeMillis, max - out.size()),
                    null); // throughput: metered as a change feed page at the account's level
            charges.accept(charged.requestCharge());
            ChangeFeedPage page = charged.page();
            for (ChangeFeedPage.Change c : page.changes()) {
                ChangeRecord r = c.record();
                byte[] current = ChangeFeed.imageJson(r.current()); // bridge: either stored format as JSON text
                if (r.seq() > upTo) {
                    return out;
                }
                out.add(new FeedEvent(r.seq(), kind(r.operationType()), r.crtsMillis(), r.ttlExpired(),
                        r.operationType() == ChangeRecord.OperationType.REPLACE && replacement(mapper, current),
                        image(mapper, current), image(mapper, ChangeFeed.imageJson(r.previous()))));
            }
            if (page.continuation() <= position) {
                break;
            }
            position = page.continuation();
            if (page.caughtUp()) {
                break;
            }
        }
        return out;
    }

    // ---- shared-engine hook: a stream's position per logical partition (FeedCursor), valid on every server ----
    private final CoreStore store;

    /** True when the store's feeds are read per logical partition with cursors (items and metadata shared). */
    public boolean perPartition() {
        return store.onSharedEngine();
    }

    /** The codec of cursors as bounded tokens (stored in the shared metadata when large). */
    io.tetradb.core.feed.FeedCursorTokens cursorTokens() {
        return feeds.cursorTokens();
    }

    /** A cursor at the present of {@code container}'s feed ("from now"). */
    io.tetradb.core.feed.FeedCursor cursorAtNow(ContainerStore container) {
        return container.changeFeed().cursorAtNow(new ChangeFeedRequest(ChangeFeedMode.ALL_VERSIONS_AND_DELETES,
                null, null, 0, 0, 1));
    }

    /** One event read through a cursor, with the logical partition and lsn it advances the cursor to. */
    record CursorEvent(FeedEvent event, byte[] partition, long lsn) {
    }

    /** A cursor page: its events in feed order, the cursor after all of them, and whether it caught up. */
    record CursorPage(List<CursorEvent> events, io.tetradb.core.feed.FeedCursor next, boolean caughtUp) {
    }

    /** One page of {@code container}'s changes after {@code cursor} (charged as {@link #read} is). */
    CursorPage readCursor(ContainerStore container, io.tetradb.core.feed.FeedCursor cursor, int max,
                          long notBeforeMillis, java.util.function.DoubleConsumer charges) {
        keepAllVersions(container);
        io.tetradb.core.store.ItemCodec mapper = container.codec();
        io.tetradb.core.store.ChargedChangeFeedPage charged = container.readChangeFeed(new ChangeFeedRequest(
                ChangeFeedMode.ALL_VERSIONS_AND_DELETES, null, null, 0, notBeforeMillis, max, cursor), null);
        charges.accept(charged.requestCharge());
        List<CursorEvent> out = new ArrayList<>();
        for (ChangeFeedPage.Change c : charged.page().changes()) {
            ChangeRecord r = c.record();
            byte[] current = ChangeFeed.imageJson(r.current());
            out.add(new CursorEvent(new FeedEvent(r.seq(), kind(r.operationType()), r.crtsMillis(), r.ttlExpired(),
                    r.operationType() == ChangeRecord.OperationType.REPLACE && replacement(mapper, current),
                    image(mapper, current), image(mapper, ChangeFeed.imageJson(r.previous()))),
                    r.logicalPartition(), r.lsn()));
        }
        return new CursorPage(out, charged.page().cursor(), charged.page().caughtUp());
    }
    // ---- end shared-engine hook ----

    private static FeedEvent.Kind kind(ChangeRecord.OperationType t) {
        return switch (t) {
            case CREATE -> FeedEvent.Kind.INSERT;
            case REPLACE -> FeedEvent.Kind.CHANGE;
            case DELETE -> FeedEvent.Kind.DELETE;
        };
    }

    /** Whether the stored image carries {@link DocumentMapper#REPLACED} (written by a replacement). */
    private static boolean replacement(io.tetradb.core.store.ItemCodec codec, byte[] image) {
        if (image == null) {
            return false;
        }
        if (io.tetradb.core.item.StoredItems.isBinaryBody(image)) {
            int at = io.tetradb.core.item.BinaryItemReader.find(image, 0, DocumentMapper.REPLACED);
            return at >= 0 && io.tetradb.core.item.BinaryItemReader.read(image, at).asBoolean();
        }
        try {
            com.fasterxml.jackson.databind.JsonNode marker = codec.mapper().readTree(image).get(DocumentMapper.REPLACED);
            return marker != null && marker.asBoolean();
        } catch (java.io.IOException e) {
            throw new IllegalStateException("a change record's image is not JSON", e);
        }
    }

    private static BsonDocument image(io.tetradb.core.store.ItemCodec codec, byte[] image) {
        return image == null ? null : DocumentMapper.fromImage(codec, image);
    }
}

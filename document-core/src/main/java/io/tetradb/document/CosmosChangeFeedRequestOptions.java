package io.tetradb.document;

import java.time.Instant;

/**
 * Where and how to read a container's change feed, as azure-cosmos' {@code CosmosChangeFeedRequestOptions}: from the
 * beginning, from now, from a point in time or from a continuation token, over a {@link FeedRange} (the whole
 * container, one of {@link CosmosContainer#getFeedRanges()}, or one partition key), in latest-version mode or, with
 * {@link #allVersionsAndDeletes()}, every create, replace and delete.
 */
public final class CosmosChangeFeedRequestOptions {
    enum Start { BEGINNING, NOW, POINT_IN_TIME, CONTINUATION }

    private final Start start;
    private final FeedRange feedRange;
    private final Instant pointInTime;
    private final String continuation;
    private int maxItemCount = 100;
    private boolean allVersionsAndDeletes;

    private CosmosChangeFeedRequestOptions(Start start, FeedRange feedRange, Instant pointInTime, String continuation) {
        this.start = start;
        this.feedRange = feedRange;
        this.pointInTime = pointInTime;
        this.continuation = continuation;
    }

    public static CosmosChangeFeedRequestOptions createForProcessingFromBeginning(FeedRange feedRange) {
        return new CosmosChangeFeedRequestOptions(Start.BEGINNING, requireRange(feedRange), null, null);
    }

    public static CosmosChangeFeedRequestOptions createForProcessingFromNow(FeedRange feedRange) {
        return new CosmosChangeFeedRequestOptions(Start.NOW, requireRange(feedRange), null, null);
    }

    public static CosmosChangeFeedRequestOptions createForProcessingFromPointInTime(Instant pointInTime,
                                                                                    FeedRange feedRange) {
        if (pointInTime == null) {
            throw new NullPointerException("Argument 'pointInTime' must not be null.");
        }
        return new CosmosChangeFeedRequestOptions(Start.POINT_IN_TIME, requireRange(feedRange), pointInTime, null);
    }

    /** Resumes where a {@link FeedResponse#getContinuationToken()} of an earlier read left off (its range and mode). */
    public static CosmosChangeFeedRequestOptions createForProcessingFromContinuation(String continuation) {
        if (continuation == null || continuation.isEmpty()) {
            throw new NullPointerException("Argument 'continuation' must not be null or empty.");
        }
        return new CosmosChangeFeedRequestOptions(Start.CONTINUATION, null, null, continuation);
    }

    private static FeedRange requireRange(FeedRange feedRange) {
        if (feedRange == null) {
            throw new NullPointerException("Argument 'feedRange' must not be null.");
        }
        return feedRange;
    }

    /**
     * Every create, replace and delete (Cosmos DB: all versions and deletes), within the container's retention
     * ({@link ChangeFeedPolicy#createAllVersionsAndDeletesPolicy}). As in Cosmos DB it starts from now or from a
     * continuation only.
     */
    public CosmosChangeFeedRequestOptions allVersionsAndDeletes() {
        if (start == Start.BEGINNING) {
            throw new IllegalStateException("All versions and deletes mode cannot start from the beginning; "
                    + "start from now or from a continuation.");
        }
        if (start == Start.POINT_IN_TIME) {
            throw new IllegalStateException("All versions and deletes mode cannot start from a point in time; "
                    + "start from now or from a continuation.");
        }
        allVersionsAndDeletes = true;
        return this;
    }

    public boolean isAllVersionsAndDeletes() {
        return allVersionsAndDeletes;
    }

    public int getMaxItemCount() {
        return maxItemCount;
    }

    public CosmosChangeFeedRequestOptions setMaxItemCount(int maxItemCount) {
        if (maxItemCount <= 0) {
            throw new IllegalArgumentException("maxItemCount must be positive");
        }
        this.maxItemCount = maxItemCount;
        return this;
    }

    /** The feed range (null for a continuation: the token carries its own). */
    public FeedRange getFeedRange() {
        return feedRange;
    }

    Start start() {
        return start;
    }

    Instant pointInTime() {
        return pointInTime;
    }

    String continuation() {
        return continuation;
    }
}

package io.tetradb.core.feed;

import io.tetradb.core.partition.EpkRange;
import io.tetradb.core.partition.PartitionKeyValue;

/**
 * One page request: the mode, the scope (an EPK range, or one logical partition / hierarchical key prefix), where to
 * start reading and how many changes at most.
 *
 * @param after           read changes numbered after this position (0: from the beginning of what is kept)
 * @param notBeforeMillis skip changes committed before this time (a point-in-time start), 0 for none
 * @param cursor          on the logical-partition contract: where the reader stands per logical partition
 *                        ({@link FeedCursor}, read instead of {@code after}); null: the store-wide sequence
 */
public record ChangeFeedRequest(ChangeFeedMode mode, EpkRange range, PartitionKeyValue partitionKey, long after,
                                long notBeforeMillis, int maxItems, FeedCursor cursor) {
    public ChangeFeedRequest(ChangeFeedMode mode, EpkRange range, PartitionKeyValue partitionKey, long after,
                             long notBeforeMillis, int maxItems) {
        this(mode, range, partitionKey, after, notBeforeMillis, maxItems, null);
    }

    public ChangeFeedRequest {
        if (maxItems <= 0) {
            throw new IllegalArgumentException("maxItems must be positive");
        }
        if (range == null) {
            range = EpkRange.FULL;
        }
    }
}

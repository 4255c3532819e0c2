package io.tetradb.core.feed;

import io.tetradb.core.partition.EpkRange;
import io.tetradb.core.partition.PartitionKeyValue;

/**
 * One page request: the mode, the scope (an EPK range, or one logical partition / hierarchical key prefix), where to
 * start reading and how many changes at most.
 *
 * @param after           read changes numbered after this position (0: from the beginning of what is kept)
 * @param notBeforeMillis skip changes committed before this time (a point-in-time start), 0 for none
 */
public record ChangeFeedRequest(ChangeFeedMode mode, EpkRange range, PartitionKeyValue partitionKey, long after,
                                long notBeforeMillis, int maxItems) {
    public ChangeFeedRequest {
        if (maxItems <= 0) {
            throw new IllegalArgumentException("maxItems must be positive");
        }
        if (range == null) {
            range = EpkRange.FULL;
        }
    }
}

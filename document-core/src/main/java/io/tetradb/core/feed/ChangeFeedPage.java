package io.tetradb.core.feed;

import java.util.List;

/**
 * One page of changes, in feed order (by sequence; within a logical partition that is lsn order).
 *
 * @param continuation the position to pass as the next request's {@code after}
 * @param caughtUp     true when the page read up to the stable end of the feed (nothing more to read now)
 */
public record ChangeFeedPage(List<Change> changes, long continuation, boolean caughtUp) {

    /**
     * One change. In latest-version mode {@code item} is the item's JSON with {@code _lsn} and {@code stored} the
     * stored item it was made from (the core's format, header included: typed trees are read from it,
     * {@link ChangeFeedJson#latestVersionItem}); in all-versions-and-deletes mode both are null and the record holds
     * the images.
     */
    public record Change(ChangeRecord record, byte[] item, byte[] stored) {
        public Change(ChangeRecord record, byte[] item) {
            this(record, item, null);
        }
    }
}

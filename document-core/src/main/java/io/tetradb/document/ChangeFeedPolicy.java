package io.tetradb.document;

import java.time.Duration;

/**
 * A container's change feed policy, as azure-cosmos' {@code ChangeFeedPolicy}: latest version only (the default), or
 * all versions and deletes kept for a retention.
 */
public final class ChangeFeedPolicy {
    private final Duration retention;

    private ChangeFeedPolicy(Duration retention) {
        this.retention = retention;
    }

    public static ChangeFeedPolicy createLatestVersionPolicy() {
        return new ChangeFeedPolicy(Duration.ZERO);
    }

    /** Every create, replace and delete (with the item's images) is kept for {@code retention} (at most 7 days). */
    public static ChangeFeedPolicy createAllVersionsAndDeletesPolicy(Duration retention) {
        if (retention == null || retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("the retention of all versions and deletes must be positive");
        }
        return new ChangeFeedPolicy(retention);
    }

    public Duration getRetentionDurationForAllVersionsAndDeletesPolicy() {
        return retention.isZero() ? null : retention;
    }

    io.tetradb.core.feed.ChangeFeedPolicy toCore() {
        return new io.tetradb.core.feed.ChangeFeedPolicy(retention);
    }

    static ChangeFeedPolicy of(io.tetradb.core.feed.ChangeFeedPolicy p) {
        return new ChangeFeedPolicy(p.retention());
    }
}

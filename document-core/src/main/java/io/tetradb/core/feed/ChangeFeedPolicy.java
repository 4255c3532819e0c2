package io.tetradb.core.feed;

import java.nio.ByteBuffer;
import java.time.Duration;

/**
 * A container's change feed policy, as Cosmos DB's {@code changeFeedPolicy}: the latest-version feed is always on;
 * a positive retention turns on the all-versions-and-deletes feed, which keeps every create, replace and delete (with
 * the item's images) for that long. Zero: latest version only.
 */
public record ChangeFeedPolicy(Duration retention) {
    public static final ChangeFeedPolicy LATEST_VERSION_ONLY = new ChangeFeedPolicy(Duration.ZERO);
    /** Cosmos DB's largest retention for all versions and deletes. */
    public static final Duration MAX_RETENTION = Duration.ofDays(7);

    public ChangeFeedPolicy {
        if (retention == null || retention.isNegative()) {
            throw new IllegalArgumentException("a change feed retention must be zero or positive");
        }
    }

    public boolean allVersionsAndDeletes() {
        return !retention.isZero();
    }

    byte[] encode() {
        return ByteBuffer.allocate(8).putLong(retention.toMillis()).array();
    }

    static ChangeFeedPolicy decode(byte[] b) {
        return b == null ? LATEST_VERSION_ONLY : new ChangeFeedPolicy(Duration.ofMillis(ByteBuffer.wrap(b).getLong()));
    }
}

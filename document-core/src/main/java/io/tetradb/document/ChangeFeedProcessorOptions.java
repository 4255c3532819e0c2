package io.tetradb.document;

import java.time.Duration;
import java.time.Instant;

/** Options of a change feed processor, as azure-cosmos' {@code ChangeFeedProcessorOptions} (same defaults). */
public final class ChangeFeedProcessorOptions {
    private Duration leaseRenewInterval = Duration.ofSeconds(17);
    private Duration leaseAcquireInterval = Duration.ofSeconds(13);
    private Duration leaseExpirationInterval = Duration.ofSeconds(60);
    private Duration feedPollDelay = Duration.ofSeconds(5);
    private String leasePrefix = "";
    private int maxItemCount = 100;
    private boolean startFromBeginning;
    private Instant startTime;

    public Duration getLeaseRenewInterval() {
        return leaseRenewInterval;
    }

    public ChangeFeedProcessorOptions setLeaseRenewInterval(Duration d) {
        leaseRenewInterval = positive(d);
        return this;
    }

    public Duration getLeaseAcquireInterval() {
        return leaseAcquireInterval;
    }

    public ChangeFeedProcessorOptions setLeaseAcquireInterval(Duration d) {
        leaseAcquireInterval = positive(d);
        return this;
    }

    /** How long a lease stays its owner's without a renewal; after that another host may take it. */
    public Duration getLeaseExpirationInterval() {
        return leaseExpirationInterval;
    }

    public ChangeFeedProcessorOptions setLeaseExpirationInterval(Duration d) {
        leaseExpirationInterval = positive(d);
        return this;
    }

    /**
     * How long a worker waits for new changes when its range has none. TetraDB wakes it as soon as a change commits,
     * so this bounds the wait rather than adding latency.
     */
    public Duration getFeedPollDelay() {
        return feedPollDelay;
    }

    public ChangeFeedProcessorOptions setFeedPollDelay(Duration d) {
        feedPollDelay = positive(d);
        return this;
    }

    public String getLeasePrefix() {
        return leasePrefix;
    }

    /** Lets several processors (different prefixes) share one lease container. */
    public ChangeFeedProcessorOptions setLeasePrefix(String prefix) {
        leasePrefix = prefix == null ? "" : prefix;
        return this;
    }

    public int getMaxItemCount() {
        return maxItemCount;
    }

    public ChangeFeedProcessorOptions setMaxItemCount(int n) {
        if (n <= 0) {
            throw new IllegalArgumentException("maxItemCount must be positive");
        }
        maxItemCount = n;
        return this;
    }

    /** For new leases only: read from the beginning instead of from now. */
    public boolean isStartFromBeginning() {
        return startFromBeginning;
    }

    public ChangeFeedProcessorOptions setStartFromBeginning(boolean b) {
        startFromBeginning = b;
        return this;
    }

    public Instant getStartTime() {
        return startTime;
    }

    /** For new leases only: read changes from this time on. */
    public ChangeFeedProcessorOptions setStartTime(Instant t) {
        startTime = t;
        return this;
    }

    private static Duration positive(Duration d) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("the interval must be positive");
        }
        return d;
    }
}

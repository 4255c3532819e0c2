package io.tetradb.document;

import java.util.Map;

/**
 * Reads a container's change feed and hands the changes to a handler, sharing the work with every other processor
 * (host) that uses the same lease container and prefix, as azure-cosmos' {@code ChangeFeedProcessor}. Built by
 * {@link ChangeFeedProcessorBuilder}. Delivery is at least once: a range's position is saved in its lease after the
 * handler returns, so a crash in between delivers that batch again.
 */
public interface ChangeFeedProcessor {
    /** Creates the leases if needed and starts acquiring them and processing their ranges. */
    void start();

    /** Stops processing and gives up this host's leases (their positions stay saved). */
    void stop();

    boolean isStarted();

    /** The changes not yet processed, per lease (feed range), as far as this host's leases are concerned. */
    Map<String, Integer> getEstimatedLag();
}

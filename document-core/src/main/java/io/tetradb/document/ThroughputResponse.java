package io.tetradb.document;

/**
 * The throughput of a container or database as read or replaced (azure-cosmos' {@code ThroughputResponse}).
 * {@link #isReplacePending()} is true while partitions split for a raise beyond 10,000 RU/s per partition.
 */
public final class ThroughputResponse {
    private final ThroughputProperties properties;
    private final boolean replacePending;
    private final int currentThroughput;

    ThroughputResponse(ThroughputProperties properties, boolean replacePending, int currentThroughput) {
        this.properties = properties;
        this.replacePending = replacePending;
        this.currentThroughput = currentThroughput;
    }

    public ThroughputProperties getProperties() {
        return properties;
    }

    public boolean isReplacePending() {
        return replacePending;
    }

    /** The smallest throughput it may be set to (Cosmos DB: 400 RU/s manual, 1,000 autoscale maximum). */
    public int getMinThroughput() {
        return properties.getManualThroughput() == null ? 1000 : 400;
    }

    /**
     * TetraDB extension: the RU/s in force now. Manual: the setting; autoscale: between 10 % and 100 % of the
     * maximum, following the busiest second of the last minute.
     */
    public int getCurrentThroughput() {
        return currentThroughput;
    }

    public double getRequestCharge() {
        return 1;
    }
}

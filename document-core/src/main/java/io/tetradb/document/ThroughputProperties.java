package io.tetradb.document;

import io.tetradb.core.throughput.ThroughputSettings;

/**
 * Provisioned throughput in RU/s, manual or autoscale (as in azure-cosmos). It sets the initial physical partition
 * count, max(1, ceil(RU/s / 10000)), and, with rate limiting on, each partition's budget.
 */
public final class ThroughputProperties {
    private final ThroughputSettings settings;

    private ThroughputProperties(ThroughputSettings settings) {
        this.settings = settings;
    }

    public static ThroughputProperties createManualThroughput(int throughput) {
        return new ThroughputProperties(ThroughputSettings.manual(throughput));
    }

    /** Autoscale: the RU/s follow load between 10 % and 100 % of {@code autoscaleMaxThroughput}. */
    public static ThroughputProperties createAutoscaledThroughput(int autoscaleMaxThroughput) {
        return new ThroughputProperties(ThroughputSettings.autoscale(autoscaleMaxThroughput));
    }

    static ThroughputProperties of(ThroughputSettings settings) {
        return new ThroughputProperties(settings);
    }

    /** The manual RU/s, or null for autoscale. */
    public Integer getManualThroughput() {
        return settings.manual();
    }

    /** The autoscale maximum, or 0 for manual throughput (as azure-cosmos reports it). */
    public int getAutoscaleMaxThroughput() {
        return settings.isAutoscale() ? settings.autoscaleMax() : 0;
    }

    ThroughputSettings settings() {
        return settings;
    }
}

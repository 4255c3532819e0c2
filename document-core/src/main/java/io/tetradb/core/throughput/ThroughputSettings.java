package io.tetradb.core.throughput;

/**
 * Provisioned throughput of a container or a database: manual RU/s, or autoscale with a maximum (the RU/s scale
 * between 10 % and 100 % of it following load, as Cosmos DB's autoscale does; the limiter grants the maximum, since
 * autoscale never throttles below it).
 *
 * @param manual       manual RU/s, or null for autoscale
 * @param autoscaleMax the autoscale maximum RU/s, or null for manual
 */
public record ThroughputSettings(Integer manual, Integer autoscaleMax) {
    /** Cosmos DB's smallest manual throughput and the default of a container created without any. */
    public static final int MIN_MANUAL = 400;
    /** Cosmos DB's smallest autoscale maximum (scaling 100 – 1,000 RU/s). */
    public static final int MIN_AUTOSCALE_MAX = 1000;
    /** The most RU/s one physical partition serves; more splits partitions. */
    public static final int MAX_PER_PARTITION = 10_000;

    public ThroughputSettings {
        if ((manual == null) == (autoscaleMax == null)) {
            throw new IllegalArgumentException("throughput is either manual or autoscale");
        }
    }

    public static ThroughputSettings manual(int ruPerSecond) {
        return new ThroughputSettings(ruPerSecond, null);
    }

    public static ThroughputSettings autoscale(int maxRuPerSecond) {
        return new ThroughputSettings(null, maxRuPerSecond);
    }

    public boolean isAutoscale() {
        return autoscaleMax != null;
    }

    /** The RU/s the limiter grants: the manual value or the autoscale maximum. */
    public int maxRuPerSecond() {
        return isAutoscale() ? autoscaleMax : manual;
    }

    /** The physical partitions this throughput needs at least: one per 10,000 RU/s. */
    public int partitionsNeeded() {
        return Math.max(1, (maxRuPerSecond() + MAX_PER_PARTITION - 1) / MAX_PER_PARTITION);
    }

    /** Cosmos DB's lower bounds: 400 RU/s manual, an autoscale maximum of at least 1,000 RU/s in steps of 1,000. */
    public String validationError() {
        if (isAutoscale()) {
            if (autoscaleMax < MIN_AUTOSCALE_MAX || autoscaleMax % 1000 != 0) {
                return "the autoscale maximum throughput must be at least " + MIN_AUTOSCALE_MAX
                        + " RU/s and a multiple of 1000, got " + autoscaleMax;
            }
        } else if (manual < MIN_MANUAL) {
            return "the throughput must be at least " + MIN_MANUAL + " RU/s, got " + manual;
        }
        return null;
    }
}

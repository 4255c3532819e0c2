package io.tetradb.core.throughput;

import java.util.Map;

/**
 * The RU budget of one physical partition: a token bucket that refills at the partition's share of the provisioned
 * RU/s and holds at most one second of it (Cosmos DB throttles any second that consumes more than the provisioned
 * RU/s). A request is admitted while the bucket is positive and pays its real charge afterwards, so the bucket may go
 * into debt, as Cosmos DB lets the request that crosses the budget finish. Alongside it keeps what the metrics show:
 * RU per second and throttled requests for the last {@link #WINDOW_SECONDS} seconds, and the RU per logical partition.
 *
 * <p>With {@linkplain #setBurstCapacity burst capacity} on (Cosmos DB's opt-in account feature), a partition of less
 * than {@value #BURST_RATE_LIMIT} RU/s banks what it leaves unused, up to {@value #BURST_RESERVE_SECONDS} seconds of
 * its share, and spends the bank when its bucket is empty, at a rate that keeps its total at most
 * {@value #BURST_RATE_LIMIT} RU/s (learn.microsoft.com/azure/cosmos-db/burst-capacity).
 */
public final class PartitionBudget {
    public static final int WINDOW_SECONDS = 300;
    private static final long NANOS = 1_000_000_000L;
    /** Burst capacity: the idle seconds a partition may bank, and the RU/s it may reach while spending them. */
    public static final int BURST_RESERVE_SECONDS = 300;
    public static final int BURST_RATE_LIMIT = 3000;

    private final String name;
    private double ruPerSecond;
    private double tokens;
    private long refilledAt;
    private boolean burst;
    /** Banked idle RU (burst capacity), at most {@link #BURST_RESERVE_SECONDS} × the share. */
    private double burstReserve;
    /** Bucket of the extra rate burst may add (3,000 RU/s minus the share), so a burst never exceeds 3,000 RU/s. */
    private double burstRateTokens;
    private final double[] ruBySecond = new double[WINDOW_SECONDS];
    private final long[] throttledBySecond = new long[WINDOW_SECONDS];
    private final long[] secondOfSlot = new long[WINDOW_SECONDS];
    private long throttledTotal;
    private double ruTotal;
    /** Keyed by the partition key value itself (its text is made only when the metrics are read); under the monitor. */
    private final TopLogicalPartitions ruByLogicalPartition = new TopLogicalPartitions();

    /** A full bucket at {@code now} (nanoseconds of the limiter's clock). */
    public PartitionBudget(String name, double ruPerSecond, long now) {
        this.name = name;
        this.ruPerSecond = ruPerSecond;
        this.tokens = ruPerSecond;
        this.refilledAt = now;
        java.util.Arrays.fill(secondOfSlot, Long.MIN_VALUE);
    }

    public String name() {
        return name;
    }

    public synchronized double ruPerSecond() {
        return ruPerSecond;
    }

    /** A new share (throughput replaced, or partitions added): the tokens already earned stay, capped at a second. */
    public synchronized void setRuPerSecond(double rate, long now) {
        refill(now);
        ruPerSecond = rate;
        tokens = Math.min(tokens, rate);
        burstReserve = Math.min(burstReserve, rate * BURST_RESERVE_SECONDS);
        burstRateTokens = Math.min(burstRateTokens, burstRate());
    }

    /** Turns burst capacity on or off; turning it off forgets the bank, turning it on starts an empty one. */
    public synchronized void setBurstCapacity(boolean on, long now) {
        refill(now);
        if (on != burst) {
            burst = on;
            burstReserve = 0;
            burstRateTokens = burstRate();
        }
    }

    /** The banked RU burst capacity may still spend (0 when burst capacity is off). */
    public synchronized double burstReserve(long now) {
        refill(now);
        return burstReserve;
    }

    /** The extra RU/s a burst may add to the share: up to 3,000 RU/s in all, none for partitions at or above it. */
    private double burstRate() {
        return burst ? Math.max(0, BURST_RATE_LIMIT - ruPerSecond) : 0;
    }

    private boolean canBurst() {
        return burst && burstReserve > 0 && burstRateTokens > 0;
    }

    /** The RU in the bucket at {@code now} (negative: debt). */
    public synchronized double tokens(long now) {
        refill(now);
        return tokens;
    }

    /**
     * 0 when a request may run now; otherwise the milliseconds until the bucket is positive again (at least 1), and
     * the refusal is counted.
     */
    public synchronized long admit(long now) {
        refill(now);
        if (tokens > 0 || canBurst()) {
            return 0;
        }
        long slot = slot(now);
        throttledBySecond[(int) slot]++;
        throttledTotal++;
        double seconds = (-tokens + 1e-9) / ruPerSecond;
        if (burst && burstReserve > 0 && burstRate() > 0) {
            // the bank has RU left: the wait is until the burst rate has room again, if that comes first
            seconds = Math.min(seconds, (-burstRateTokens + 1e-9) / burstRate());
        }
        return Math.max(1, (long) Math.ceil(seconds * 1000));
    }

    /**
     * Pays a finished request's real charge; {@code logicalPartition} (may be null; any value with equals, hashCode
     * and a readable toString) is counted for the top list.
     */
    public synchronized void settle(double charge, Object logicalPartition, long now) {
        refill(now);
        pay(charge);
        ruBySecond[(int) slot(now)] += charge;
        ruTotal += charge;
        if (logicalPartition != null) {
            ruByLogicalPartition.add(logicalPartition, charge);
        }
    }

    /** The bucket pays first; what it cannot pay comes from the burst bank while it may spend; the rest is debt. */
    private void pay(double charge) {
        double fromBucket = Math.max(0, Math.min(tokens, charge));
        tokens -= fromBucket;
        double rest = charge - fromBucket;
        if (rest > 0 && canBurst()) {
            double fromBank = Math.min(rest, burstReserve);
            burstReserve -= fromBank;
            burstRateTokens -= fromBank; // may go into debt: the next burst waits for the rate to recover
            rest -= fromBank;
        }
        tokens -= rest;
    }

    private void refill(long now) {
        long elapsed = now - refilledAt;
        if (elapsed > 0) {
            double seconds = (double) elapsed / NANOS;
            double filled = tokens + ruPerSecond * seconds;
            if (filled > ruPerSecond) {
                if (burstRate() > 0) { // burst capacity: what the full bucket cannot hold is banked
                    burstReserve = Math.min(ruPerSecond * BURST_RESERVE_SECONDS,
                            burstReserve + filled - Math.max(ruPerSecond, tokens));
                }
                filled = ruPerSecond;
            }
            tokens = filled;
            burstRateTokens = Math.min(burstRate(), burstRateTokens + burstRate() * seconds);
            refilledAt = now;
        }
    }

    /** The ring slot of the second {@code now} falls in, cleared when it last held an older second. */
    private long slot(long now) {
        long second = Math.floorDiv(now, NANOS);
        int slot = (int) Math.floorMod(second, WINDOW_SECONDS);
        if (secondOfSlot[slot] != second) {
            secondOfSlot[slot] = second;
            ruBySecond[slot] = 0;
            throttledBySecond[slot] = 0;
        }
        return slot;
    }

    /** What the metrics show about the last {@code seconds} seconds (the current one excluded, it is not over). */
    public synchronized Usage usage(long now, int seconds) {
        seconds = Math.max(1, Math.min(WINDOW_SECONDS - 1, seconds));
        long current = Math.floorDiv(now, NANOS);
        double sum = 0;
        double hottest = 0;
        long throttled = 0;
        for (long s = current - seconds; s < current; s++) {
            int slot = (int) Math.floorMod(s, WINDOW_SECONDS);
            if (secondOfSlot[slot] == s) {
                sum += ruBySecond[slot];
                hottest = Math.max(hottest, ruBySecond[slot]);
                throttled += throttledBySecond[slot];
            }
        }
        return new Usage(name, ruPerSecond, sum / seconds, hottest, ruPerSecond <= 0 ? 0 : hottest / ruPerSecond,
                throttled, throttledTotal, ruTotal);
    }

    /**
     * The logical partitions that consumed the most RU since this budget was made, highest first (estimates of a
     * fixed-size sketch, see {@link TopLogicalPartitions}: exact while few keys are seen, never below the real RU).
     */
    public synchronized java.util.List<Map.Entry<String, Double>> topLogicalPartitions(int n) {
        return ruByLogicalPartition.top(n);
    }

    /**
     * @param budgetRuPerSecond    the partition's share of the provisioned RU/s
     * @param averageRuPerSecond   RU consumed per second over the window
     * @param hottestSecondRu      the RU of the busiest second in the window
     * @param normalizedUtilization the hottest second's RU / the budget (Cosmos DB's "normalized RU consumption")
     */
    public record Usage(String partition, double budgetRuPerSecond, double averageRuPerSecond, double hottestSecondRu,
                        double normalizedUtilization, long throttledInWindow, long throttledTotal, double ruTotal) {
    }
}

package io.tetradb.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The measurements of one operation on one side at one store size: per-operation latencies (pooled over all
 * rounds) and one throughput per round. The reported throughput is the median of the rounds.
 */
public final class Samples {
    private long[] latencies = new long[4096];
    private int count;
    private final List<Double> rates = new ArrayList<>();
    private long units;
    private long cpuNanos;

    /** One operation took {@code nanos}. */
    public void latency(long nanos) {
        if (count == latencies.length) {
            latencies = Arrays.copyOf(latencies, count * 2);
        }
        latencies[count++] = nanos;
    }

    /** One round did {@code units} (operations or items) in {@code nanos} of measured time. */
    public void round(long units, long nanos) {
        if (nanos <= 0) {
            throw new IllegalArgumentException("a round needs a positive duration");
        }
        rates.add(units * 1e9 / nanos);
    }

    /**
     * One round did {@code units} in {@code nanos} of measured time, of which the measuring thread spent
     * {@code threadCpuNanos} on a CPU (user and system).
     */
    public void round(long units, long nanos, long threadCpuNanos) {
        round(units, nanos);
        this.units += units;
        this.cpuNanos += threadCpuNanos;
    }

    /** CPU time of the measuring thread per unit, in microseconds (NaN if not recorded). */
    public double cpuMicrosPerUnit() {
        return units == 0 ? Double.NaN : cpuNanos / 1000.0 / units;
    }

    public int rounds() {
        return rates.size();
    }

    public List<Double> rates() {
        return List.copyOf(rates);
    }

    /** Median of the per-round throughputs (units per second). */
    public double medianRate() {
        if (rates.isEmpty()) {
            return Double.NaN;
        }
        double[] r = rates.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = r.length;
        return n % 2 == 1 ? r[n / 2] : (r[n / 2 - 1] + r[n / 2]) / 2;
    }

    /** The latency at quantile {@code q} (0..1, nearest rank) over every round, in microseconds. */
    public double percentileMicros(double q) {
        if (count == 0) {
            return Double.NaN;
        }
        long[] sorted = Arrays.copyOf(latencies, count);
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(q * count);
        return sorted[Math.max(0, Math.min(count - 1, rank - 1))] / 1000.0;
    }
}

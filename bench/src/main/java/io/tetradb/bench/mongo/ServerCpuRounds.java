package io.tetradb.bench.mongo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The server threads' CPU time per unit in each recorded round of one side (insert: each batch), by thread
 * group, and the minor page faults the server's threads took in it. The figure is the median of the rounds, not
 * their sum: on this shared machine a thread's CPU time for the same work swings up to ~8x from one 100 ms window
 * to the next, for both sides alike, and a sum lets one or two such windows decide the ratio. For insert the
 * figure is the lower quartile: its dear batches are the same work made dear by this VM's first touch of heap
 * pages (bench README, session 22), and when they are about half the batches the median flips between the modes.
 */
final class ServerCpuRounds {
    private final List<Double> rounds = new ArrayList<>();
    private final List<Double> faults = new ArrayList<>();
    private final List<Double> faultsPerUnit = new ArrayList<>();
    private final Map<String, List<Double>> groupRounds = new TreeMap<>();
    private long units;
    private long nanos;

    /**
     * A recorded round: its units, the server's CPU per thread group before and after it, and the minor page faults
     * its threads took in it.
     */
    void add(long roundUnits, Map<String, Long> before, Map<String, Long> after, long minorFaults) {
        faults.add((double) minorFaults);
        faultsPerUnit.add((double) minorFaults / roundUnits);
        long total = 0;
        for (Map.Entry<String, Long> g : after.entrySet()) {
            long d = g.getValue() - before.getOrDefault(g.getKey(), 0L);
            total += d;
            groupRounds.computeIfAbsent(g.getKey(), k -> new ArrayList<>()).add(d / 1000.0 / roundUnits);
        }
        rounds.add(total / 1000.0 / roundUnits);
        units += roundUnits;
        nanos += total;
    }

    /** Median µs per unit of each thread group, e.g. {@code command=18.2 core=0.4 event-loop=1.5}. */
    String byGroup() {
        StringBuilder b = new StringBuilder();
        groupRounds.forEach((group, v) -> b.append(b.length() == 0 ? "" : " ").append(group).append('=')
                .append(String.format(Locale.ROOT, "%.1f", median(v))));
        return b.toString();
    }

    /**
     * The reported server CPU per unit of {@code op}, the same rule for both sides: insert's lower quartile over its
     * batches, every other operation's median over its rounds.
     */
    double figure(String op) {
        return op.equals("insert") ? lowerQuartileMicrosPerUnit() : microsPerUnit();
    }

    /** The median over the recorded rounds of the server's CPU per unit. */
    double microsPerUnit() {
        return median(rounds);
    }

    /**
     * The lower quartile over the recorded rounds of the server's CPU per unit (linear between the two nearest
     * ranks, as NumPy's default): a side's cost in its windows where the machine did not inflate it.
     */
    double lowerQuartileMicrosPerUnit() {
        return quantile(rounds, 0.25);
    }

    /** The median and range of the minor page faults per round, e.g. {@code 11 (0-1655)}. */
    String faults() {
        return faults.isEmpty() ? "-" : String.format(Locale.ROOT, "%.0f (%.0f-%.0f)", median(faults),
                quantile(faults, 0), quantile(faults, 1));
    }

    /** The median over the recorded rounds of the server threads' minor page faults per unit. */
    double faultsPerUnit() {
        return median(faultsPerUnit);
    }

    /** All recorded rounds' CPU over all their units (the figure before session 21). */
    double meanMicrosPerUnit() {
        return units == 0 ? Double.NaN : nanos / 1000.0 / units;
    }

    /** The lowest and highest round, e.g. {@code 6.6-61.9}. */
    String range() {
        return rounds.isEmpty() ? "-" : String.format(Locale.ROOT, "%.1f-%.1f",
                rounds.stream().mapToDouble(Double::doubleValue).min().orElseThrow(),
                rounds.stream().mapToDouble(Double::doubleValue).max().orElseThrow());
    }

    int count() {
        return rounds.size();
    }

    private static double median(List<Double> values) {
        return quantile(values, 0.5);
    }

    /** The {@code p} quantile, linear between the nearest ranks (an even count's median is its middle two's mean). */
    private static double quantile(List<Double> values, double p) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        double h = (v.length - 1) * p;
        int i = (int) Math.floor(h);
        return i + 1 < v.length ? v[i] + (h - i) * (v[i + 1] - v[i]) : v[i];
    }

    void reset() {
        rounds.clear();
        faults.clear();
        faultsPerUnit.clear();
        groupRounds.clear();
        units = 0;
        nanos = 0;
    }
}

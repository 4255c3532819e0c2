package io.tetradb.bench.mongo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The server threads' CPU time per unit in each recorded round of one side (insert: each batch), by thread
 * group. The figure is the median of the rounds, not their sum: on this shared machine a thread's CPU time for
 * the same work swings up to ~8x from one 100 ms window to the next (other processes' bursts), for both sides
 * alike, and a sum lets one or two such windows decide the ratio.
 */
final class ServerCpuRounds {
    private final List<Double> rounds = new ArrayList<>();
    private final Map<String, List<Double>> groupRounds = new TreeMap<>();
    private long units;
    private long nanos;

    /** A recorded round: its units and the server's CPU per thread group before and after it. */
    void add(long roundUnits, Map<String, Long> before, Map<String, Long> after) {
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

    /** The median over the recorded rounds of the server's CPU per unit. */
    double microsPerUnit() {
        return median(rounds);
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
        if (values.isEmpty()) {
            return Double.NaN;
        }
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    void reset() {
        rounds.clear();
        groupRounds.clear();
        units = 0;
        nanos = 0;
    }
}

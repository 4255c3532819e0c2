package io.tetradb.bench.mongo;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The per-round figures of a CPU probe ({@link InsertCpuProbe}, {@link FindCpuProbe}): each round's server thread
 * CPU per unit by thread group, kept for the rounds from {@code warm} on, and their medians.
 */
final class ProbeRounds {
    private final int warm;
    private final Map<String, List<Double>> byGroup = new TreeMap<>();

    ProbeRounds(int warm) {
        this.warm = warm;
    }

    /**
     * Appends each group's µs per unit over {@code units} (from the CPU nanoseconds {@code before} and {@code after})
     * to {@code line}, keeps them for a measured round, and returns their total.
     */
    double add(int round, Map<String, Long> before, Map<String, Long> after, double units, StringBuilder line) {
        double total = 0;
        for (Map.Entry<String, Long> g : after.entrySet()) {
            double us = (g.getValue() - before.getOrDefault(g.getKey(), 0L)) / 1000.0 / units;
            total += us;
            line.append(String.format(" %s=%.2f", g.getKey(), us));
            keep(round, g.getKey(), us);
        }
        keep(round, "total", total);
        return total;
    }

    /** Keeps another figure of a measured round (counted from {@code warm}) under {@code name}. */
    void keep(int round, String name, double value) {
        if (round >= warm) {
            byGroup.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        }
    }

    /** {@code head} followed by each kept figure's median. */
    String medians(String head) {
        StringBuilder medians = new StringBuilder(head);
        byGroup.forEach((g, v) -> {
            v.sort(Double::compare);
            medians.append(String.format(" %s=%.2f", g, v.get(v.size() / 2)));
        });
        return medians.toString();
    }
}

package io.tetradb.core.throughput;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The logical partitions that consumed the most RU, in a fixed-size sketch: a set-associative Space-Saving summary
 * (Metwally et al.) of {@value #SETS} sets of {@value #WAYS} counters. A key is counted in the set its hash picks;
 * when its set is full, it takes over the set's smallest counter and adds its charge to that count, so a key's count
 * is never below what it consumed and over-counts by at most the count it took over. A key that consumed more than
 * its set's share of the RU is always present, wherever in the stream it first came.
 *
 * <p>Every operation is a hash, at most {@value #WAYS} comparisons and no allocation once a key is in, so it costs
 * about the same with ten keys or ten million (a map with an entry per key cost most of a point read's own time).
 * Not thread-safe: {@link PartitionBudget} calls it under its monitor.
 */
final class TopLogicalPartitions {
    static final int SETS = 64; // a power of two
    static final int WAYS = 4;

    private final Object[] keys = new Object[SETS * WAYS];
    private final int[] hashes = new int[SETS * WAYS];
    private final double[] counts = new double[SETS * WAYS];

    /** Adds {@code charge} RU to {@code key} (any value with equals, hashCode and a readable toString). */
    void add(Object key, double charge) {
        int h = key.hashCode();
        int base = (mix(h) & (SETS - 1)) * WAYS;
        int smallest = base;
        for (int i = base; i < base + WAYS; i++) {
            Object k = keys[i];
            if (k == null) { // the set's counters fill in order: the key is not in it
                keys[i] = key;
                hashes[i] = h;
                counts[i] = charge;
                return;
            }
            if (hashes[i] == h && (k == key || k.equals(key))) {
                counts[i] += charge;
                return;
            }
            if (counts[i] < counts[smallest]) {
                smallest = i;
            }
        }
        keys[smallest] = key; // Space-Saving: the newcomer inherits the smallest count
        hashes[smallest] = h;
        counts[smallest] += charge;
    }

    /** The {@code n} keys with the highest counts, highest first, as text. */
    List<Map.Entry<String, Double>> top(int n) {
        List<Map.Entry<String, Double>> all = new ArrayList<>();
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != null) {
                all.add(Map.entry(String.valueOf(keys[i]), counts[i]));
            }
        }
        all.sort((a, b) -> Double.compare(b.getValue(), a.getValue()));
        return all.size() <= n ? all : List.copyOf(all.subList(0, n));
    }

    /** Spreads the hash's high bits into the set index (String and byte-array hashes vary most in low bits). */
    private static int mix(int h) {
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        return h ^ (h >>> 13);
    }
}

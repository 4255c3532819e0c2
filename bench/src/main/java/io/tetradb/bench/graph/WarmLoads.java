package io.tetradb.bench.graph;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The same load repeated in one JVM, each into a fresh graph, until its rate settles (issue 18, graph-load2): a
 * JVM's first loads carry the JIT's compilations (15–40 µs per element in its 2nd–4th loads), which a server that
 * has run for a while no longer pays. Settled = the last {@link #LAST} loads' rates lie within {@link #SPREAD} of
 * their median, after at least {@code min} loads; at most {@code max} loads. The figure is the median of the last
 * {@link #LAST} loads (wall and process-CPU rates alike).
 */
final class WarmLoads {
    static final int LAST = 3;
    /** The last loads' rates may differ from their median by this fraction at most. */
    static final double SPREAD = 0.10;

    /** One load: {elements, wall nanos, process CPU nanos}. */
    interface Load {
        long[] run(int index) throws Exception;
    }

    /** What the loads gave: elements per load, how many loads, the medians of the last ones, and every load's rate. */
    record Result(long elements, int loads, boolean settled, double rate, double cpuRate, List<Double> rates) {
    }

    private WarmLoads() {
    }

    static Result run(int min, int max, Load load, Consumer<String> progress) throws Exception {
        if (min < LAST || max < min) {
            throw new IllegalArgumentException("warm loads need " + LAST + " <= min <= max, got " + min + ", " + max);
        }
        List<Double> rates = new ArrayList<>();
        List<Double> cpuRates = new ArrayList<>();
        long elements = -1;
        for (int i = 0; i < max; i++) {
            long[] r = load.run(i);
            if (elements >= 0 && r[0] != elements) {
                throw new IllegalStateException("load " + i + " gave " + r[0] + " elements, the first " + elements);
            }
            elements = r[0];
            rates.add(r[0] * 1e9 / r[1]);
            cpuRates.add(r[0] * 1e9 / Math.max(1, r[2]));
            progress.accept(String.format(java.util.Locale.ROOT, "warm load %d: %.0f el/s (%.0f per CPU-second)", i,
                    rates.get(i), cpuRates.get(i)));
            if (i + 1 >= min && settled(rates)) {
                return new Result(elements, i + 1, true, lastMedian(rates), lastMedian(cpuRates), rates);
            }
        }
        return new Result(elements, max, false, lastMedian(rates), lastMedian(cpuRates), rates);
    }

    /** True when the last {@link #LAST} rates lie within {@link #SPREAD} of their median. */
    static boolean settled(List<Double> rates) {
        if (rates.size() < LAST) {
            return false;
        }
        double median = lastMedian(rates);
        for (double r : rates.subList(rates.size() - LAST, rates.size())) {
            if (Math.abs(r - median) > SPREAD * median) {
                return false;
            }
        }
        return true;
    }

    /** The median of the last {@link #LAST} values (all of them when fewer). */
    static double lastMedian(List<Double> values) {
        List<Double> last = new ArrayList<>(values.subList(Math.max(0, values.size() - LAST), values.size()));
        last.sort(Double::compare);
        int n = last.size();
        return n % 2 == 1 ? last.get(n / 2) : (last.get(n / 2 - 1) + last.get(n / 2)) / 2;
    }
}

package io.tetradb.bench;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Where a benchmark writes its results. Result lines go to {@code out} and are meant to be grepped:
 * <pre>
 * BENCH &lt;benchmark&gt;.&lt;operation&gt;.&lt;side&gt; items=&lt;store size&gt; &lt;rate&gt;=&lt;n&gt; p50_us=&lt;x&gt; p99_us=&lt;x&gt;
 * RATIO &lt;name&gt; &lt;x&gt;
 * # a comment (header, notes)
 * </pre>
 * Progress goes to {@code log} (stderr), so that stdout holds only results.
 */
public final class Report {
    private final PrintStream out;
    private final PrintStream log;

    public Report(PrintStream out, PrintStream log) {
        this.out = out;
        this.log = log;
    }

    /** A comment line: what is measured, how, notes. */
    public void note(String text) {
        out.println("# " + text);
        out.flush();
    }

    /**
     * One result line.
     *
     * @param metric    e.g. {@code core.point-read.core}
     * @param items     the number of items in the store when it was measured
     * @param rateField {@code ops_per_s} or {@code items_per_s}
     */
    public void bench(String metric, long items, String rateField, Samples s) {
        out.println(String.format(Locale.ROOT, "BENCH %s items=%d %s=%.0f p50_us=%.1f p99_us=%.1f",
                metric, items, rateField, s.medianRate(), s.percentileMicros(0.50), s.percentileMicros(0.99)));
        out.flush();
        progress(metric + " items=" + items + String.format(Locale.ROOT, " thread_cpu_us_per_unit=%.1f",
                s.cpuMicrosPerUnit()) + " per-round " + rateField + ": " + s.rates().stream()
                .map(r -> String.format(Locale.ROOT, "%.0f", r)).collect(java.util.stream.Collectors.joining(" ")));
    }

    /** A result line in a benchmark's own format (it must start with {@code BENCH} or {@code RATIO}). */
    public void result(String line) {
        out.println(line);
        out.flush();
    }

    public void ratio(String name, double value) {
        out.println(String.format(Locale.ROOT, "RATIO %s %.2f", name, value));
        out.flush();
    }

    /** Progress, to stderr. */
    public void progress(String text) {
        log.println("[bench] " + text);
        log.flush();
    }
}

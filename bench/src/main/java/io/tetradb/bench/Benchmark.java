package io.tetradb.bench;

/**
 * One benchmark, run by {@code bench/run NAME}. To add one, write a class implementing this interface and list it
 * in {@link Benchmarks#ALL}.
 */
public interface Benchmark {
    /** The name given to {@code bench/run}: lower case, no spaces. */
    String name();

    /** One line for {@code bench/run --list}. */
    String description();

    /**
     * Runs the benchmark and prints its {@code BENCH}/{@code RATIO} lines to {@code out}.
     *
     * @param quick the smaller configuration (must finish in under two minutes on a 2-core machine)
     */
    void run(boolean quick, Report out) throws Exception;
}

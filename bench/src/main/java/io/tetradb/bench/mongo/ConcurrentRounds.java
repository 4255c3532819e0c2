package io.tetradb.bench.mongo;

import io.tetradb.bench.Samples;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Runs one operation from a fixed number of client threads in timed rounds; every call's latency is recorded.
 */
final class ConcurrentRounds implements AutoCloseable {
    /** One call of the measured operation; throws (and so fails the benchmark) when the answer is wrong. */
    @FunctionalInterface
    interface Op {
        void call(SplittableRandom random) throws Exception;
    }

    private final int threads;
    private final ExecutorService pool;
    private final SplittableRandom seeds = new SplittableRandom(42);

    ConcurrentRounds(int threads) {
        this.threads = threads;
        this.pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "bench-mongo-client");
            t.setDaemon(true);
            return t;
        });
    }

    int threads() {
        return threads;
    }

    /**
     * One round: every thread calls {@code op} back to back until {@code millis} have passed; recorded into
     * {@code into} unless it is null (a warm-up round). Rounds are timed rather than counted so that a slow path on
     * one side cannot stretch the run past its time budget.
     *
     * @return the number of calls made
     */
    long round(long millis, Op op, Samples into) throws Exception {
        List<Future<long[]>> done = new ArrayList<>();
        long start = System.nanoTime();
        long deadline = start + millis * 1_000_000L;
        for (int t = 0; t < threads; t++) {
            SplittableRandom random = seeds.split();
            done.add(pool.submit(() -> {
                long[] lat = new long[1024];
                int n = 0;
                long now = System.nanoTime();
                while (now < deadline) {
                    op.call(random);
                    long end = System.nanoTime();
                    if (n == lat.length) {
                        lat = Arrays.copyOf(lat, n * 2);
                    }
                    lat[n++] = end - now;
                    now = end;
                }
                return Arrays.copyOf(lat, n);
            }));
        }
        List<long[]> latencies = new ArrayList<>();
        for (Future<long[]> f : done) {
            latencies.add(f.get());
        }
        long elapsed = System.nanoTime() - start;
        long calls = latencies.stream().mapToLong(l -> l.length).sum();
        if (into != null) {
            into.round(calls, elapsed);
            for (long[] lat : latencies) {
                for (long l : lat) {
                    into.latency(l);
                }
            }
        }
        return calls;
    }

    @Override
    public void close() throws InterruptedException {
        pool.shutdownNow();
        pool.awaitTermination(10, TimeUnit.SECONDS);
    }
}

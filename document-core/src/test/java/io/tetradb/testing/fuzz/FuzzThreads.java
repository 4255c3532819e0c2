package io.tetradb.testing.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The threads of a fuzzer that sends each input on a connection of its own: thread {@code t} draws from
 * {@code new Random(seed + t)} until the settings' inputs are sent or their time is up. An input is a seed (one time
 * in {@code plainOneIn}) or a mutation of one; its outcome is tallied, the first hang runs {@code onFirstHang}
 * before it is counted, and {@code realClient} must succeed every 500 inputs and at the end (the face still serves).
 */
public final class FuzzThreads {
    /** How an input's connection ended. */
    public enum Outcome { ANSWERED, CLOSED, HUNG }

    /** Sends input number {@code n} (counted over all threads, from 1). */
    @FunctionalInterface
    public interface Sender {
        Outcome send(long n, byte[] input) throws Exception;
    }

    /** The tally's line for a hung input. */
    @FunctionalInterface
    public interface HangLabel {
        String of(long n, byte[] input);
    }

    /** One fuzzing thread's work: thread {@code t} of the run, its {@code random} seeded {@code seed + t}. */
    @FunctionalInterface
    public interface ThreadBody {
        void run(int t, Random random) throws Exception;
    }

    private FuzzThreads() {
    }

    /** Runs {@code body} on {@code threads} threads and waits for all; the first failure is thrown. */
    public static void each(int threads, long seed, ThreadBody body) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Random random = new Random(seed + t);
                int thread = t;
                done.add(pool.submit(() -> {
                    body.run(thread, random);
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Runs the threads, then the last {@code realClient} check, and reports the tally. */
    public static void run(FuzzTally tally, FuzzSettings settings, int threads, List<byte[]> seeds, int plainOneIn,
                           Sender sender, HangLabel hangLabel, Runnable onFirstHang, Runnable realClient)
            throws Exception {
        AtomicBoolean hung = new AtomicBoolean();
        AtomicLong sent = new AtomicLong();
        long deadline = System.nanoTime() + settings.budget().toNanos();
        each(threads, settings.seed(), (t, random) -> {
            ByteMutator mutator = new ByteMutator(random);
            while (System.nanoTime() < deadline) {
                long n = sent.incrementAndGet();
                if (n > settings.inputs()) {
                    return;
                }
                byte[] seed = seeds.get(random.nextInt(seeds.size()));
                byte[] input = random.nextInt(plainOneIn) == 0 ? seed : mutator.mutate(seed);
                synchronized (tally) {
                    tally.input();
                }
                Outcome outcome = sender.send(n, input);
                if (outcome == Outcome.HUNG && hung.compareAndSet(false, true)) {
                    onFirstHang.run();
                }
                synchronized (tally) {
                    switch (outcome) {
                        case ANSWERED -> tally.answered();
                        case CLOSED -> tally.closedByServer();
                        default -> tally.hang(hangLabel.of(n, input));
                    }
                }
                if (n % 500 == 0) {
                    realClient.run();
                }
            }
        });
        realClient.run();
        tally.report();
    }
}

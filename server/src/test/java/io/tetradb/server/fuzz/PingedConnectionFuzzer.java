package io.tetradb.server.fuzz;

import io.tetradb.testing.fuzz.ByteMutator;
import io.tetradb.testing.fuzz.FuzzSettings;
import io.tetradb.testing.fuzz.FuzzTally;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Mutated inputs from several threads on connections kept while the server keeps them: a whole input is followed by
 * a ping, whose answer (or the connection's end) must come within {@link #BOUND_MILLIS} (else a hang); an input
 * whose declared length is not what was sent ends its connection (the server waits for the rest, bounded by its
 * read timeout). Thread {@code t}'s inputs derive from {@code seed + t}; every 500 inputs {@code realClient} must
 * succeed. A protocol says how to connect, what a whole input and a ping are, and how to await the answer.
 */
abstract class PingedConnectionFuzzer {
    static final int BOUND_MILLIS = 15_000;

    enum Outcome { ANSWERED, CLOSED, HUNG }

    /** The tally's and the progress lines' name. */
    abstract String name();

    /** A connection ready for inputs, or null if the server refused it. */
    abstract Socket open(InetSocketAddress target) throws IOException;

    /** The input sent for {@code seed}: the seed itself now and then, else a mutation. */
    abstract byte[] input(byte[] seed, ByteMutator mutator, Random random);

    /** Whether {@code input} is exactly what its header declares (then a ping may follow it). */
    abstract boolean whole(byte[] input);

    abstract byte[] ping();

    /** Reads what the server sends until the ping's answer, or the end of the stream, within the bound. */
    abstract Outcome awaitAnswer(InputStream in);

    final FuzzTally fuzzAll(InetSocketAddress target, List<byte[]> seeds, FuzzSettings settings, int threads,
                            Runnable realClient) throws Exception {
        FuzzTally tally = new FuzzTally(name(), settings.seed());
        AtomicLong sent = new AtomicLong();
        long deadline = System.nanoTime() + settings.budget().toNanos();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Random random = new Random(settings.seed() + t);
                done.add(pool.submit(() -> {
                    fuzz(target, seeds, random, settings, sent, deadline, tally, realClient);
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        realClient.run();
        return tally;
    }

    private void fuzz(InetSocketAddress target, List<byte[]> seeds, Random random, FuzzSettings settings,
                      AtomicLong sent, long deadline, FuzzTally tally, Runnable realClient) throws IOException {
        ByteMutator mutator = new ByteMutator(random);
        Socket socket = null;
        try {
            while (System.nanoTime() < deadline) {
                long n = sent.incrementAndGet();
                if (n > settings.inputs()) {
                    return;
                }
                byte[] input = input(seeds.get(random.nextInt(seeds.size())), mutator, random);
                synchronized (tally) {
                    tally.input();
                }
                if (socket == null) {
                    socket = open(target);
                }
                Outcome outcome;
                if (socket == null) {
                    outcome = Outcome.CLOSED;
                } else {
                    try {
                        socket.getOutputStream().write(input);
                        if (!whole(input)) {
                            close(socket);
                            socket = null;
                            continue;
                        }
                        socket.getOutputStream().write(ping());
                        socket.getOutputStream().flush();
                        outcome = awaitAnswer(socket.getInputStream());
                    } catch (IOException closedWhileSending) {
                        outcome = Outcome.CLOSED;
                    }
                }
                synchronized (tally) {
                    switch (outcome) {
                        case ANSWERED -> tally.answered();
                        case CLOSED -> tally.closedByServer();
                        default -> tally.hang(name() + " input " + n + " of seed " + settings.seed());
                    }
                }
                if (outcome != Outcome.ANSWERED && socket != null) {
                    close(socket);
                    socket = null;
                }
                if (n % 500 == 0) {
                    realClient.run();
                }
                if (n % 100_000 == 0) {
                    System.out.printf("FUZZ %s progress inputs=%d%n", name(), n);
                }
            }
        } finally {
            if (socket != null) {
                close(socket);
            }
        }
    }

    /** A socket without TIME_WAIT (a long run opens hundreds of thousands of connections), bounded in time. */
    static Socket connect(InetSocketAddress target) throws IOException {
        Socket s = new Socket();
        s.setSoLinger(true, 0);
        s.connect(target, BOUND_MILLIS);
        s.setSoTimeout(BOUND_MILLIS);
        return s;
    }

    static void close(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // already reset by the server
        }
    }
}

package io.tetradb.server.fuzz;

import io.tetradb.testing.fuzz.ByteMutator;
import io.tetradb.testing.fuzz.FuzzSettings;
import io.tetradb.testing.fuzz.FuzzTally;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Mongo wire inputs from several threads, each on its own connection: a whole input is followed by a {@code ping},
 * which must be answered or the connection closed within {@link #BOUND_MILLIS} (else a hang); an input whose
 * declared length is not what was sent ends its connection (the server waits for the rest, bounded by its read
 * timeout). Thread {@code t}'s inputs derive from {@code seed + t}; every 500 inputs {@code realClient} must succeed.
 */
final class MongoWireFuzzer {
    static final int BOUND_MILLIS = 15_000;

    private MongoWireFuzzer() {
    }

    static FuzzTally run(InetSocketAddress target, FuzzSettings settings, int threads, Runnable realClient)
            throws Exception {
        List<byte[]> seeds = MongoFuzzInputs.seeds();
        FuzzTally tally = new FuzzTally("mongo", settings.seed());
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

    private static void fuzz(InetSocketAddress target, List<byte[]> seeds, Random random, FuzzSettings settings,
                             AtomicLong sent, long deadline, FuzzTally tally, Runnable realClient) throws IOException {
        ByteMutator mutator = new ByteMutator(random);
        byte[] ping = MongoFuzzInputs.ping();
        Socket socket = null;
        try {
            while (System.nanoTime() < deadline) {
                long n = sent.incrementAndGet();
                if (n > settings.inputs()) {
                    return;
                }
                byte[] seed = seeds.get(random.nextInt(seeds.size()));
                byte[] input = random.nextInt(10) == 0 ? seed : mutator.mutate(seed);
                synchronized (tally) {
                    tally.input();
                }
                if (socket == null) {
                    socket = connect(target);
                }
                try {
                    socket.getOutputStream().write(input);
                    if (!MongoFuzzInputs.whole(input)) {
                        close(socket);
                        socket = null;
                        continue;
                    }
                    socket.getOutputStream().write(ping);
                    socket.getOutputStream().flush();
                } catch (IOException closedWhileSending) {
                    synchronized (tally) {
                        tally.closedByServer();
                    }
                    close(socket);
                    socket = null;
                    continue;
                }
                Outcome outcome = awaitPing(socket.getInputStream());
                synchronized (tally) {
                    switch (outcome) {
                        case ANSWERED -> tally.answered();
                        case CLOSED -> tally.closedByServer();
                        default -> tally.hang("mongo input " + n + " of seed " + settings.seed());
                    }
                }
                if (outcome != Outcome.ANSWERED) {
                    close(socket);
                    socket = null;
                }
                if (n % 500 == 0) {
                    realClient.run();
                }
                if (n % 100_000 == 0) {
                    System.out.printf("FUZZ mongo progress inputs=%d%n", n);
                }
            }
        } finally {
            if (socket != null) {
                close(socket);
            }
        }
    }

    private enum Outcome { ANSWERED, CLOSED, HUNG }

    private static Socket connect(InetSocketAddress target) throws IOException {
        Socket s = new Socket();
        s.setSoLinger(true, 0); // no TIME_WAIT: a long run opens hundreds of thousands of connections
        s.connect(target, BOUND_MILLIS);
        s.setSoTimeout(BOUND_MILLIS);
        return s;
    }

    private static void close(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // already reset by the server
        }
    }

    /** Reads replies until the ping's, or the end of the stream, within the bound. */
    private static Outcome awaitPing(InputStream in) {
        long until = System.nanoTime() + BOUND_MILLIS * 1_000_000L;
        DataInputStream data = new DataInputStream(in);
        byte[] header = new byte[16];
        try {
            while (System.nanoTime() < until) {
                data.readFully(header);
                ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
                int length = h.getInt(0);
                int responseTo = h.getInt(8);
                if (length < 16 || length > 64 * 1024 * 1024) {
                    return Outcome.CLOSED; // not a reply we can read: treat the stream as over
                }
                data.skipNBytes(length - 16);
                if (responseTo == MongoFuzzInputs.PING_ID) {
                    return Outcome.ANSWERED;
                }
            }
            return Outcome.HUNG;
        } catch (SocketTimeoutException e) {
            return Outcome.HUNG;
        } catch (IOException | RuntimeException e) {
            return Outcome.CLOSED;
        }
    }
}

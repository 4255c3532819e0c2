package io.tetradb.server.fuzz;

import io.tetradb.testing.TestTime;
import io.tetradb.testing.fuzz.ByteMutator;
import io.tetradb.testing.fuzz.FuzzSettings;
import io.tetradb.testing.fuzz.FuzzTally;
import io.tetradb.testing.fuzz.FuzzThreads;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Mutated inputs from several threads on connections kept while the server keeps them: a whole input is followed by
 * a ping, whose answer (or the connection's end) must come within {@link #BOUND_MILLIS} (else a hang); an input
 * whose declared length is not what was sent ends its connection (the server waits for the rest, bounded by its
 * read timeout). Thread {@code t}'s inputs derive from {@code seed + t}; every 500 inputs {@code realClient} must
 * succeed. A protocol says how to connect, what a whole input and a ping are, and how to await the answer.
 */
abstract class PingedConnectionFuzzer {
    static final int BOUND_MILLIS = (int) TestTime.scaled(java.time.Duration.ofSeconds(15)).toMillis();
    /**
     * Replay controls: each thread draws and skips its first {@code tetradb.fuzz.skipPerThread} inputs (a thread's
     * inputs do not depend on the server's answers, so its k-th input is the same in every run of the seed), and
     * {@code tetradb.fuzz.onHang} is run once, with the server's pid, at the first hang (e.g. a thread dump).
     */
    static final int SKIP_PER_THREAD = Integer.getInteger("tetradb.fuzz.skipPerThread", 0);

    /** Called once at the first hang, before the hang is counted (a thread dump of the server, in the long form). */
    private volatile Runnable onFirstHang = () -> { };
    private final java.util.concurrent.atomic.AtomicBoolean hungOnce = new java.util.concurrent.atomic.AtomicBoolean();

    final PingedConnectionFuzzer onFirstHang(Runnable action) {
        this.onFirstHang = action;
        return this;
    }

    /**
     * {@code tetradb.fuzz.slowMillis}: the first ping not answered within this long runs the first-hang action at
     * once, while the server is still stalled (at the hang itself, 15 s later, the stall may be over).
     */
    static final long SLOW_MILLIS = Long.getLong("tetradb.fuzz.slowMillis", BOUND_MILLIS);
    private final java.util.concurrent.ScheduledExecutorService watchdog =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "fuzz-slow-ping-watchdog");
                t.setDaemon(true);
                return t;
            });

    private void firstHang() {
        if (hungOnce.compareAndSet(false, true)) {
            System.out.printf("FUZZ %s first ping unanswered for %d ms, at %s%n", label(), SLOW_MILLIS,
                    java.time.Instant.now());
            onFirstHang.run();
        }
    }

    enum Outcome { ANSWERED, CLOSED, HUNG }

    /** The tally's and the progress lines' name. */
    abstract String name();

    /** The tally's name: the protocol's, and "-tls" over TLS. */
    private String label() {
        return name() + (sockets instanceof javax.net.ssl.SSLSocketFactory ? "-tls" : "");
    }

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
        FuzzTally tally = new FuzzTally(label(), settings.seed());
        AtomicLong sent = new AtomicLong();
        long deadline = System.nanoTime() + settings.budget().toNanos();
        try {
            FuzzThreads.each(threads, settings.seed(),
                    (thread, random) -> fuzz(target, seeds, thread, random, settings, sent, deadline, tally, realClient));
        } finally {
            watchdog.shutdownNow();
        }
        realClient.run();
        slowest.print(label());
        return tally;
    }

    private final SlowestInputs slowest = new SlowestInputs();

    /** The inputs whose ping took longest to be answered (or the connection to end): where the server was busy. */
    private static final class SlowestInputs {
        private static final int KEEP = 5;
        private final java.util.PriorityQueue<Object[]> top = new java.util.PriorityQueue<>(
                java.util.Comparator.comparingLong(a -> (Long) a[0]));

        synchronized void offer(long nanos, int thread, long own, byte[] input) {
            if (top.size() < KEEP || nanos > (Long) top.peek()[0]) {
                top.add(new Object[] {nanos, thread, own, input});
                if (top.size() > KEEP) {
                    top.poll();
                }
            }
        }

        synchronized void print(String name) {
            top.stream().sorted(java.util.Comparator.comparingLong(a -> -(Long) a[0])).forEach(a -> {
                byte[] in = (byte[]) a[3];
                System.out.printf("FUZZ %s slow: %d ms, thread %d input %d, %d bytes: %s%n", name,
                        (Long) a[0] / 1_000_000, a[1], a[2], in.length,
                        java.util.HexFormat.of().formatHex(in, 0, Math.min(in.length, 64)));
            });
        }
    }

    private void fuzz(InetSocketAddress target, List<byte[]> seeds, int thread, Random random, FuzzSettings settings,
                      AtomicLong sent, long deadline, FuzzTally tally, Runnable realClient) throws IOException {
        ByteMutator mutator = new ByteMutator(random);
        for (int i = 0; i < SKIP_PER_THREAD; i++) {
            input(seeds.get(random.nextInt(seeds.size())), mutator, random);
        }
        Socket socket = null;
        List<byte[]> sentOnConnection = new ArrayList<>();
        long ownInputs = SKIP_PER_THREAD;
        try {
            while (System.nanoTime() < deadline) {
                long n = sent.incrementAndGet();
                if (n > settings.inputs()) {
                    return;
                }
                byte[] input = input(seeds.get(random.nextInt(seeds.size())), mutator, random);
                long own = ++ownInputs;
                synchronized (tally) {
                    tally.input();
                }
                if (socket == null) {
                    socket = open(target);
                    sentOnConnection.clear();
                }
                sentOnConnection.add(input);
                Outcome outcome;
                if (socket == null) {
                    outcome = Outcome.CLOSED;
                } else {
                    long sentAt = System.nanoTime();
                    try {
                        socket.getOutputStream().write(input);
                        if (!whole(input)) {
                            close(socket);
                            socket = null;
                            continue;
                        }
                        socket.getOutputStream().write(ping());
                        socket.getOutputStream().flush();
                        java.util.concurrent.ScheduledFuture<?> slow = SLOW_MILLIS < BOUND_MILLIS
                                ? watchdog.schedule(this::firstHang, SLOW_MILLIS,
                                        java.util.concurrent.TimeUnit.MILLISECONDS) : null;
                        outcome = awaitAnswer(socket.getInputStream());
                        if (slow != null) {
                            slow.cancel(false);
                        }
                        slowest.offer(System.nanoTime() - sentAt, thread, own, input);
                        if (outcome == Outcome.HUNG) {
                            firstHang();
                        }
                    } catch (IOException closedWhileSending) {
                        outcome = Outcome.CLOSED;
                    }
                }
                synchronized (tally) {
                    switch (outcome) {
                        case ANSWERED -> tally.answered();
                        case CLOSED -> tally.closedByServer();
                        default -> {
                            describeHang(thread, own, sentOnConnection);
                            tally.hang(label() + " input " + n + " of seed " + settings.seed() + " (thread "
                                + thread + "'s input " + own + ")");
                        }
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
                    System.out.printf("FUZZ %s progress inputs=%d%n", label(), n);
                }
            }
        } finally {
            if (socket != null) {
                close(socket);
            }
        }
    }

    /** What the hung connection was sent since it opened (a replay needs those inputs, in order). */
    private void describeHang(int thread, long own, List<byte[]> inputs) {
        StringBuilder b = new StringBuilder();
        b.append(String.format("FUZZ %s hang: thread %d input %d, %d inputs on the connection:%n", label(), thread, own,
                inputs.size()));
        for (byte[] in : inputs) {
            b.append("  ").append(in.length).append(" bytes: ")
                    .append(java.util.HexFormat.of().formatHex(in, 0, Math.min(in.length, 96))).append('\n');
        }
        System.out.print(b);
    }

    /** Plain TCP, or TLS ({@link TlsFuzzInputs#sockets()}): the inputs then travel inside TLS records. */
    private javax.net.SocketFactory sockets = javax.net.SocketFactory.getDefault();

    final PingedConnectionFuzzer over(javax.net.SocketFactory sockets) {
        this.sockets = sockets;
        return this;
    }

    /** A socket without TIME_WAIT (a long run opens hundreds of thousands of connections), bounded in time. */
    Socket connect(InetSocketAddress target) throws IOException {
        Socket s = sockets.createSocket();
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

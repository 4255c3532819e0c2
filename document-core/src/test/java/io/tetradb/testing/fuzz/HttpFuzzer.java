package io.tetradb.testing.fuzz;

import io.tetradb.testing.TestTime;
import io.tetradb.testing.fuzz.FuzzThreads.Outcome;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Sends mutated HTTP requests, one per connection, from a few threads. Each connection must be answered (any bytes
 * back) or, once the client has finished sending, closed by the server within {@link #BOUND_MILLIS}; otherwise it
 * counts as a hang. Every 500 inputs, and at the end, {@code realClient} must succeed: the face still serves.
 * Thread {@code t}'s inputs derive from {@code seed + t}, so a seed replays the same inputs.
 */
public final class HttpFuzzer {
    public static final int BOUND_MILLIS = (int) TestTime.scaled(java.time.Duration.ofSeconds(15)).toMillis();
    /** How long to wait for an answer before finishing the request by closing the sending side. */
    private static final int ANSWER_WAIT_MILLIS = 100;
    private static final int THREADS = 16;

    private HttpFuzzer() {
    }

    /** Runs the fuzz and returns its tally (already reported); throws if the face stopped serving. */
    public static FuzzTally run(String face, InetSocketAddress target, List<byte[]> seeds, FuzzSettings settings,
                                Runnable realClient) throws Exception {
        return run(face, target, null, seeds, settings, realClient);
    }

    /**
     * As above, with a {@code preamble} sent unmutated on each connection first, whose HTTP answer (through its blank
     * line) is read before the input goes: a WebSocket upgrade, so that the inputs are frames.
     */
    public static FuzzTally run(String face, InetSocketAddress target, byte[] preamble, List<byte[]> seeds,
                                FuzzSettings settings, Runnable realClient) throws Exception {
        return run(face, target, preamble, seeds, settings, realClient, THREADS);
    }

    /** As above, from {@code threads} threads (a server in its own process is fuzzed from more to keep it busy). */
    public static FuzzTally run(String face, InetSocketAddress target, byte[] preamble, List<byte[]> seeds,
                                FuzzSettings settings, Runnable realClient, int threads) throws Exception {
        return run(face, target, preamble, seeds, settings, realClient, threads, javax.net.SocketFactory.getDefault());
    }

    /** As above, each connection made by {@code sockets} (an {@code SSLSocketFactory}: the inputs go inside TLS). */
    public static FuzzTally run(String face, InetSocketAddress target, byte[] preamble, List<byte[]> seeds,
                                FuzzSettings settings, Runnable realClient, int threads,
                                javax.net.SocketFactory sockets) throws Exception {
        return run(face, EphemeralPortBudget.single(target), preamble, seeds, settings, realClient, threads, sockets,
                () -> { });
    }

    /**
     * As above, each connection to the destination {@code ports} gives (a long run spreads them over several
     * addresses of the server's port, {@link EphemeralPortBudget}); {@code onFirstHang} runs once, at the first input
     * that passes the bound, before it is counted (a thread dump of the server while it is still stalled).
     */
    public static FuzzTally run(String face, EphemeralPortBudget ports, byte[] preamble, List<byte[]> seeds,
                                FuzzSettings settings, Runnable realClient, int threads,
                                javax.net.SocketFactory sockets, Runnable onFirstHang) throws Exception {
        FuzzTally tally = new FuzzTally(face, settings.seed());
        PathTimes times = new PathTimes();
        FuzzThreads.run(tally, settings, threads, seeds, 10, (n, input) -> {
            long began = System.nanoTime();
            LAST_PATH.set(Path.CONNECT_OR_HANDSHAKE_REFUSED);
            InetSocketAddress target = ports.next();
            Outcome outcome = send(sockets, target, preamble, input);
            times.add(LAST_PATH.get(), System.nanoTime() - began);
            if (LAST_PATH.get() == Path.AFTER_HALF_CLOSE) {
                ports.held(target); // the client's FIN went first: its end is in TIME_WAIT
            }
            if (HALF_CLOSED_AT.get() != 0) {
                times.afterHalfClose(System.nanoTime() - HALF_CLOSED_AT.get());
                HALF_CLOSED_AT.set(0L);
            }
            return outcome;
        }, (n, input) -> face + " input " + n + ": "
                + new String(input, 0, Math.min(120, input.length), StandardCharsets.ISO_8859_1),
                onFirstHang, realClient);
        System.out.println("HTTP-FUZZ " + face + " seed=" + settings.seed() + " paths:" + times.summary() + " ports: "
                + ports.summary());
        return tally;
    }

    /** How an input's connection ended, to tell where a run's time goes (printed with the tally). */
    private enum Path { CONNECT_OR_HANDSHAKE_REFUSED, CLOSED_WHILE_SENDING, ANSWERED_AT_ONCE, CLOSED_AT_ONCE,
        AFTER_HALF_CLOSE, TLS_WITHOUT_HALF_CLOSE, HUNG }

    /** Inputs and wall time per {@link Path} in one run. */
    private static final class PathTimes {
        private final long[] count = new long[Path.values().length];
        private final long[] nanos = new long[Path.values().length];
        /** From the client's half-close to the connection's end: the server's part of the after-half-close path. */
        private long halfCloses;
        private long halfCloseNanos;

        synchronized void afterHalfClose(long took) {
            halfCloses++;
            halfCloseNanos += took;
        }

        synchronized void add(Path path, long took) {
            count[path.ordinal()]++;
            nanos[path.ordinal()] += took;
        }

        synchronized String summary() {
            StringBuilder b = new StringBuilder();
            for (Path p : Path.values()) {
                if (count[p.ordinal()] > 0) {
                    b.append(' ').append(p.name().toLowerCase(java.util.Locale.ROOT)).append('=')
                            .append(count[p.ordinal()]).append(" (avg ")
                            .append(nanos[p.ordinal()] / count[p.ordinal()] / 1_000_000).append(" ms)");
                }
            }
            if (halfCloses > 0) {
                b.append(" half_close_to_end=").append(halfCloses).append(" (avg ")
                        .append(halfCloseNanos / halfCloses / 1_000_000).append(" ms; the rest of the after-half-close "
                        + "time is the ").append(ANSWER_WAIT_MILLIS).append(" ms answer wait)");
            }
            return b.toString();
        }
    }

    private static final ThreadLocal<Path> LAST_PATH = new ThreadLocal<>();
    private static final ThreadLocal<Long> HALF_CLOSED_AT = ThreadLocal.withInitial(() -> 0L);

    private static Outcome ended(Path path, Outcome outcome) {
        LAST_PATH.set(path);
        return outcome;
    }

    private static Outcome send(javax.net.SocketFactory sockets, InetSocketAddress target, byte[] preamble,
                                byte[] input) throws IOException {
        try (Socket s = sockets.createSocket()) {
            // the client's close is an RST, so no TIME_WAIT — except after a half-close, when the server's FIN has
            // already put the client's end in TIME_WAIT (EphemeralPortBudget spreads those over destinations)
            s.setSoLinger(true, 0);
            s.connect(target, BOUND_MILLIS);
            try {
                if (preamble != null && !exchangePreamble(s, preamble)) {
                    return ended(Path.CONNECT_OR_HANDSHAKE_REFUSED, Outcome.CLOSED);
                }
            } catch (SocketTimeoutException e) {
                return ended(Path.HUNG, Outcome.HUNG);
            } catch (IOException e) {
                return ended(Path.CONNECT_OR_HANDSHAKE_REFUSED, Outcome.CLOSED); // a refused TLS handshake, a reset
            }
            s.setSoTimeout(BOUND_MILLIS); // a TLS handshake reads during the first write
            try {
                s.getOutputStream().write(input);
                s.getOutputStream().flush();
            } catch (SocketTimeoutException e) {
                return ended(Path.HUNG, Outcome.HUNG); // the server never finished the TLS handshake
            } catch (IOException e) {
                return ended(Path.CLOSED_WHILE_SENDING, Outcome.CLOSED); // the server closed first (e.g. a 413)
            }
            InputStream in = s.getInputStream();
            s.setSoTimeout(ANSWER_WAIT_MILLIS);
            try {
                return in.read() >= 0 ? ended(Path.ANSWERED_AT_ONCE, Outcome.ANSWERED)
                        : ended(Path.CLOSED_AT_ONCE, Outcome.CLOSED);
            } catch (SocketTimeoutException e) {
                // not answered yet: the request may be incomplete, so finish sending and wait for answer or close
            } catch (IOException e) {
                return ended(Path.CLOSED_AT_ONCE, Outcome.CLOSED);
            }
            Path path = Path.AFTER_HALF_CLOSE;
            try {
                try {
                    s.shutdownOutput(); // over TLS: a close_notify, then the TCP half-close
                    HALF_CLOSED_AT.set(System.nanoTime());
                } catch (UnsupportedOperationException tlsWithoutHalfClose) {
                    path = Path.TLS_WITHOUT_HALF_CLOSE; // the answer or the server's read timeout ends it
                }
                s.setSoTimeout(BOUND_MILLIS);
                return ended(path, in.read() >= 0 ? Outcome.ANSWERED : Outcome.CLOSED);
            } catch (SocketTimeoutException e) {
                return ended(Path.HUNG, Outcome.HUNG);
            } catch (IOException e) {
                return ended(path, Outcome.CLOSED);
            }
        }
    }

    /** Sends the preamble and reads its answer's head; false if the server closed instead. */
    private static boolean exchangePreamble(Socket s, byte[] preamble) throws IOException {
        s.getOutputStream().write(preamble);
        s.setSoTimeout(BOUND_MILLIS);
        InputStream in = s.getInputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                return false;
            }
            matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        return true;
    }

    /** A masked client WebSocket frame (RFC 6455) of this opcode and payload, with the length in the shortest form. */
    public static byte[] webSocketFrame(int opcode, byte[] payload, long declaredLength) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.write(0x80 | opcode);
        if (declaredLength < 126) {
            out.write(0x80 | (int) declaredLength);
        } else if (declaredLength <= 0xffff) {
            out.write(0x80 | 126);
            out.write((int) (declaredLength >> 8));
            out.write((int) declaredLength & 0xff);
        } else {
            out.write(0x80 | 127);
            for (int i = 7; i >= 0; i--) {
                out.write((int) (declaredLength >> (8 * i)) & 0xff);
            }
        }
        byte[] mask = {0x11, 0x22, 0x33, 0x44};
        out.writeBytes(mask);
        for (int i = 0; i < payload.length; i++) {
            out.write(payload[i] ^ mask[i % 4]);
        }
        return out.toByteArray();
    }

    /** {@code {"a":{"a":...}}} nested {@code levels} deep. */
    public static String deepJson(int levels) {
        return "{\"a\":".repeat(levels) + "1" + "}".repeat(levels);
    }

    /** A raw HTTP/1.1 request with these headers (each "Name: value") and body; Content-Length is added. */
    public static byte[] request(String method, String target, List<String> headers, byte[] body) {
        StringBuilder head = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n");
        for (String h : headers) {
            head.append(h).append("\r\n");
        }
        head.append("Content-Length: ").append(body.length).append("\r\n\r\n");
        byte[] h = head.toString().getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[h.length + body.length];
        System.arraycopy(h, 0, out, 0, h.length);
        System.arraycopy(body, 0, out, h.length, body.length);
        return out;
    }

    /** A request that declares more than it sends: Content-Length, or a chunk size, far over any limit. */
    public static List<byte[]> oversizedDeclarations(String method, String target, List<String> headers) {
        StringBuilder head = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n");
        for (String h : headers) {
            head.append(h).append("\r\n");
        }
        return List.of(
                (head + "Content-Length: 2147483647\r\n\r\n{\"id\":").getBytes(StandardCharsets.UTF_8),
                (head + "Content-Length: 99999999999999999999\r\n\r\n{").getBytes(StandardCharsets.UTF_8),
                (head + "Transfer-Encoding: chunked\r\n\r\n7fffffff\r\n{\"id\":").getBytes(StandardCharsets.UTF_8),
                (head + "Transfer-Encoding: chunked\r\n\r\n" + "100000\r\n" + "x".repeat(1024))
                        .getBytes(StandardCharsets.UTF_8));
    }
}

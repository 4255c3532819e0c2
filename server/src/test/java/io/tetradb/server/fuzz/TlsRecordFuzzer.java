package io.tetradb.server.fuzz;

import io.tetradb.testing.fuzz.EphemeralPortBudget;
import io.tetradb.testing.fuzz.FuzzSettings;
import io.tetradb.testing.fuzz.FuzzTally;
import io.tetradb.testing.fuzz.FuzzThreads;
import io.tetradb.testing.fuzz.FuzzThreads.Outcome;

import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * Mangled TLS records after a complete handshake: each input is a fresh connection whose TLS handshake completes
 * (the JDK's client over the plain socket), then mutated records ({@link TlsFuzzInputs#recordsAfterHandshake()})
 * are written in the clear under the TLS layer and the sending side is closed. The server must answer (an alert)
 * or close within {@link PingedConnectionFuzzer#BOUND_MILLIS}; a handshake that does not complete in that time is
 * a hang too. Thread {@code t}'s inputs derive from {@code seed + t}; every 500 inputs {@code realClient} must
 * succeed.
 */
final class TlsRecordFuzzer {
    private TlsRecordFuzzer() {
    }

    static FuzzTally run(String face, InetSocketAddress target, FuzzSettings settings, int threads,
                         Runnable realClient) throws Exception {
        return run(face, EphemeralPortBudget.single(target), settings, threads, realClient, () -> { });
    }

    /**
     * As above, to the destinations {@code ports} rotates over (every input half-closes, so each may hold its port a
     * minute); {@code onFirstHang} runs once, at the first hang, before it is counted.
     */
    static FuzzTally run(String face, EphemeralPortBudget ports, FuzzSettings settings, int threads,
                         Runnable realClient, Runnable onFirstHang) throws Exception {
        FuzzTally tally = new FuzzTally(face + "-tls-records", settings.seed());
        FuzzThreads.run(tally, settings, threads, TlsFuzzInputs.recordsAfterHandshake(), 5, (n, input) -> {
            InetSocketAddress target = ports.next();
            Outcome outcome = send(target, input);
            if (HALF_CLOSED.get()) {
                ports.held(target);
                HALF_CLOSED.set(false);
            }
            return outcome;
        }, (n, input) -> face + " TLS record input " + n + " of seed " + settings.seed(), onFirstHang, realClient);
        System.out.println("TLS-RECORD-FUZZ " + face + " seed=" + settings.seed() + " ports: " + ports.summary());
        return tally;
    }

    /** Whether this thread's last input half-closed its connection (then its end may sit in TIME_WAIT). */
    private static final ThreadLocal<Boolean> HALF_CLOSED = ThreadLocal.withInitial(() -> false);

    private static Outcome send(InetSocketAddress target, byte[] input) throws IOException {
        try (Socket plain = new Socket()) {
            plain.setSoLinger(true, 0);
            plain.connect(target, PingedConnectionFuzzer.BOUND_MILLIS);
            plain.setSoTimeout(PingedConnectionFuzzer.BOUND_MILLIS);
            try {
                SSLSocket tls = (SSLSocket) TlsFuzzInputs.sockets().createSocket(plain,
                        target.getHostString(), target.getPort(), false);
                tls.startHandshake();
            } catch (SocketTimeoutException e) {
                return Outcome.HUNG;
            } catch (IOException e) {
                return Outcome.CLOSED;
            }
            try {
                plain.getOutputStream().write(input);
                plain.getOutputStream().flush();
                plain.shutdownOutput();
                HALF_CLOSED.set(true);
            } catch (IOException e) {
                return Outcome.CLOSED;
            }
            InputStream in = plain.getInputStream();
            try {
                return in.read() >= 0 ? Outcome.ANSWERED
                        : Outcome.CLOSED;
            } catch (SocketTimeoutException e) {
                return Outcome.HUNG;
            } catch (IOException e) {
                return Outcome.CLOSED;
            }
        }
    }
}

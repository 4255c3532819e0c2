package io.tetradb.server.fuzz;

import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicLong;

/**
 * TLS sockets for the long fuzz runs, where a full handshake per input was most of an input's cost: one connection
 * in {@link #FULL_EVERY} offers TLS 1.3 only, a full handshake (the server's JDK TLS resumes no TLS 1.3 session:
 * measured, every reconnection was a new session), the others TLS 1.2, which resumes the session an earlier
 * connection to the port left in the client's cache (RFC 5246 session IDs; the server's session cache) — unless a
 * fatal alert invalidated it, then that connection is a full handshake too. The inputs inside TLS are the same.
 * {@code -Dtetradb.fuzz.tlsFullEvery=1} makes every connection a full TLS 1.3 handshake, as before.
 */
final class ResumingTlsSockets extends SSLSocketFactory {
    static final int FULL_EVERY = Integer.getInteger("tetradb.fuzz.tlsFullEvery", 10);
    private static final String[] FULL = {"TLSv1.3"};
    private static final String[] RESUMING = {"TLSv1.2"};

    private final SSLSocketFactory tls;
    private final AtomicLong made = new AtomicLong();

    ResumingTlsSockets(SSLSocketFactory tls) {
        this.tls = tls;
    }

    private Socket chosen(Socket s) {
        ((SSLSocket) s).setEnabledProtocols(made.getAndIncrement() % FULL_EVERY == 0 ? FULL : RESUMING);
        return s;
    }

    @Override
    public Socket createSocket() throws IOException {
        return chosen(tls.createSocket());
    }

    @Override
    public Socket createSocket(Socket s, String host, int port, boolean autoClose) throws IOException {
        return chosen(tls.createSocket(s, host, port, autoClose));
    }

    // The connecting forms: the fuzzers never call them (they connect an unconnected socket, or layer TLS over a
    // plain one); they connect one of this factory's unconnected sockets, so every socket is chosen the same way.
    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return createSocket(host, port, null, 0);
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return createSocket(host, port, null, 0);
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return connected(new InetSocketAddress(host, port), localHost, localPort);
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
            throws IOException {
        return connected(new InetSocketAddress(address, port), localAddress, localPort);
    }

    /** One of this factory's sockets, bound to the local address when one is given, connected to {@code remote}. */
    private Socket connected(InetSocketAddress remote, InetAddress localAddress, int localPort) throws IOException {
        Socket s = createSocket();
        if (localAddress != null || localPort != 0) {
            s.bind(new InetSocketAddress(localAddress, localPort));
        }
        s.connect(remote);
        return s;
    }

    @Override
    public String[] getDefaultCipherSuites() {
        return tls.getDefaultCipherSuites();
    }

    @Override
    public String[] getSupportedCipherSuites() {
        return tls.getSupportedCipherSuites();
    }
}

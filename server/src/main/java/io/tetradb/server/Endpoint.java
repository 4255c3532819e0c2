package io.tetradb.server;

import java.net.InetSocketAddress;

/** One listening face of the server: admin HTTP, Gremlin Server, the Mongo wire or the Azure Tables endpoint. */
public interface Endpoint extends AutoCloseable {
    /** Short name printed at start, e.g. {@code admin}. */
    String name();

    /** The address actually bound (the real port when 0 was asked for). */
    InetSocketAddress address();

    /** How a client reaches it, e.g. {@code http://127.0.0.1:8081}. */
    String url();

    /** Stops accepting, closes connections and waits for in-flight requests; must not throw. */
    @Override
    void close();

    /** {@code host:port} with IPv6 hosts bracketed, for building URLs. */
    static String hostPort(InetSocketAddress address) {
        String host = address.getAddress().getHostAddress();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + address.getPort();
    }
}

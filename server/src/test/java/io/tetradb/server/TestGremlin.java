package io.tetradb.server;

import io.tetradb.testing.TestTime;
import org.apache.tinkerpop.gremlin.driver.Cluster;

import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * The TinkerPop driver for the server tests, with its connection waits (16 s to borrow a connection, 15 s to set one
 * up by default) raised to {@link TestTime#patience}: a loaded machine may take that long to open a WebSocket, and no
 * test here times it.
 */
public final class TestGremlin {
    private static final int WAIT_MILLIS = (int) TestTime.patience(Duration.ofSeconds(16)).toMillis();

    private TestGremlin() {
    }

    /** A cluster builder for {@code host}:{@code port} with patient connection waits. */
    public static Cluster.Builder cluster(String host, int port) {
        return patient(Cluster.build(host).port(port));
    }

    /** A cluster builder for {@code address} with patient connection waits. */
    public static Cluster.Builder cluster(InetSocketAddress address) {
        return cluster(address.getAddress().getHostAddress(), address.getPort());
    }

    /** {@code b} with patient connection waits (e.g. a builder read from a YAML file). */
    public static Cluster.Builder patient(Cluster.Builder b) {
        return b.maxWaitForConnection(WAIT_MILLIS).connectionSetupTimeoutMillis(WAIT_MILLIS);
    }
}

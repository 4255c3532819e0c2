package io.tetradb.cassandra.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * The ports of each node of a local cluster. Every node listens on 127.0.0.1 with ports of its own (Cassandra 4.0+
 * tells nodes apart by address and port), so no loopback aliases are needed (macOS has none beyond 127.0.0.1).
 * {@link #DEFAULT}: consecutive ports from 17000 (storage), 19042 (CQL) and 17191 (local JMX), not Cassandra's defaults
 * (7000, 9042, 7199), so that a Cassandra the developer already runs is left alone. {@link #free}: ports the system
 * reports free, for tests that must not collide with another run.
 */
public abstract class Ports {
    public static final Ports DEFAULT = consecutive(17000, 19042, 17191);

    /** The ports of node {@code index} (1-based). */
    public abstract NodePorts node(int index);

    /** One node's ports. */
    public record NodePorts(int storage, int nativeCql, int jmx) {
    }

    /** Node {@code i} gets {@code storage + i - 1}, {@code nativeCql + i - 1} and {@code jmx + i - 1}. */
    public static Ports consecutive(int storage, int nativeCql, int jmx) {
        return new Ports() {
            @Override
            public NodePorts node(int index) {
                return new NodePorts(storage + index - 1, nativeCql + index - 1, jmx + index - 1);
            }
        };
    }

    /**
     * Three ports per node for {@code size} nodes, each one the system just handed out as free on 127.0.0.1 (all held
     * open until every one is picked, so no two are the same).
     */
    public static Ports free(int size) {
        List<ServerSocket> held = new ArrayList<>();
        try {
            List<NodePorts> nodes = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                nodes.add(new NodePorts(open(held), open(held), open(held)));
            }
            return new Ports() {
                @Override
                public NodePorts node(int index) {
                    return nodes.get(index - 1);
                }
            };
        } finally {
            for (ServerSocket s : held) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // the port is still free for the node once closed
                }
            }
        }
    }

    private static int open(List<ServerSocket> held) {
        try {
            ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
            held.add(s);
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on 127.0.0.1", e);
        }
    }
}

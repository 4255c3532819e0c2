package io.tetradb.server;

import io.tetradb.server.gremlin.GraphSpec;
import io.tetradb.server.gremlin.GremlinEndpoint;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What one server process is started with. A face's port is null when the face is disabled.
 *
 * @param dataDirectory absolute data directory (one RocksDB)
 * @param bindAddress   the address every endpoint binds to
 * @param httpPort      admin HTTP port; 0 picks a free port
 * @param gremlinPort   Gremlin Server port; 0 picks a free port, null disables Gremlin Server
 * @param graphs        the graphs Gremlin Server serves: {@link GraphSpec#DEFAULT} unless a graph of that name is
 *                      given, then the others in order (names are unique)
 * @param mongoPort     MongoDB wire protocol port; 0 picks a free port, null disables the Mongo face
 * @param tablePort     Azure Tables HTTP port; 0 picks a free port, null disables the table endpoint
 * @param gremlinScriptTimeout how long one Gremlin request may run before it is answered 598 and stopped
 */
public record ServerConfig(Path dataDirectory, InetAddress bindAddress, int httpPort, Integer gremlinPort,
                           List<GraphSpec> graphs, Integer mongoPort, Integer tablePort,
                           Duration gremlinScriptTimeout) {
    public static final int DEFAULT_HTTP_PORT = 8081;
    public static final int DEFAULT_GREMLIN_PORT = 8182;
    public static final int DEFAULT_MONGO_PORT = 27017;
    public static final int DEFAULT_TABLE_PORT = 10002;

    public ServerConfig {
        checkPort(httpPort);
        for (Integer port : new Integer[] {gremlinPort, mongoPort, tablePort}) {
            if (port != null) {
                checkPort(port);
            }
        }
        if (gremlinScriptTimeout == null) {
            gremlinScriptTimeout = GremlinEndpoint.DEFAULT_SCRIPT_TIMEOUT;
        } else if (gremlinScriptTimeout.isNegative() || gremlinScriptTimeout.isZero()) {
            throw new IllegalArgumentException("the Gremlin script timeout must be positive");
        }
        dataDirectory = dataDirectory.toAbsolutePath().normalize();
        graphs = withDefaultGraph(graphs == null ? List.of() : graphs);
    }

    /** The faces given, Gremlin scripts with the default timeout. */
    public ServerConfig(Path dataDirectory, InetAddress bindAddress, int httpPort, Integer gremlinPort,
                        List<GraphSpec> graphs, Integer mongoPort, Integer tablePort) {
        this(dataDirectory, bindAddress, httpPort, gremlinPort, graphs, mongoPort, tablePort, null);
    }

    /** Admin endpoint only (no Gremlin, Mongo or table endpoint). */
    public ServerConfig(Path dataDirectory, InetAddress bindAddress, int httpPort) {
        this(dataDirectory, bindAddress, httpPort, null, List.of(), null, null);
    }

    /**
     * Defaults for tests and embedding: loopback, a free admin port, no other face (see {@link #withGremlinPort},
     * {@link #withMongoPort}, {@link #withTablePort}).
     */
    public static ServerConfig ephemeral(Path dataDirectory) {
        return new ServerConfig(dataDirectory, InetAddress.getLoopbackAddress(), 0);
    }

    /** The same configuration with Gremlin Server on {@code port} (0 = a free port). */
    public ServerConfig withGremlinPort(int port) {
        return new ServerConfig(dataDirectory, bindAddress, httpPort, port, graphs, mongoPort, tablePort,
                gremlinScriptTimeout);
    }

    /** The same configuration serving these graphs (besides the default one, unless one of them is named like it). */
    public ServerConfig withGraphs(List<GraphSpec> more) {
        return new ServerConfig(dataDirectory, bindAddress, httpPort, gremlinPort, more, mongoPort, tablePort,
                gremlinScriptTimeout);
    }

    /** The same configuration with the Mongo wire endpoint on {@code port} (0 = a free port). */
    public ServerConfig withMongoPort(int port) {
        return new ServerConfig(dataDirectory, bindAddress, httpPort, gremlinPort, graphs, port, tablePort,
                gremlinScriptTimeout);
    }

    /** The same configuration with the Azure Tables endpoint on {@code port} (0 = a free port). */
    public ServerConfig withTablePort(int port) {
        return new ServerConfig(dataDirectory, bindAddress, httpPort, gremlinPort, graphs, mongoPort, port,
                gremlinScriptTimeout);
    }

    /** The same configuration with Gremlin requests bounded by {@code timeout}. */
    public ServerConfig withGremlinScriptTimeout(Duration timeout) {
        return new ServerConfig(dataDirectory, bindAddress, httpPort, gremlinPort, graphs, mongoPort, tablePort,
                timeout);
    }

    private static void checkPort(int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
    }

    private static List<GraphSpec> withDefaultGraph(List<GraphSpec> given) {
        Set<String> names = new HashSet<>();
        for (GraphSpec g : given) {
            if (!names.add(g.name())) {
                throw new IllegalArgumentException("graph " + g.name() + " is declared twice");
            }
        }
        List<GraphSpec> all = new ArrayList<>();
        if (!names.contains(GraphSpec.DEFAULT.name())) {
            all.add(GraphSpec.DEFAULT);
        }
        all.addAll(given);
        return List.copyOf(all);
    }
}

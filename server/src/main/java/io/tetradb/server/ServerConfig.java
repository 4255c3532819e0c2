package io.tetradb.server;

import io.tetradb.server.config.SecurityConfig;
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
 * @param httpPort      a separate admin HTTP port; 0 picks a free port, null serves the admin routes only on the
 *                      Cosmos port
 * @param gremlinPort   Gremlin Server port; 0 picks a free port, null disables Gremlin Server
 * @param graphs        the graphs Gremlin Server serves: {@link GraphSpec#DEFAULT} unless a graph of that name is
 *                      given, then the others in order (names are unique)
 * @param mongoPort     MongoDB wire protocol port; 0 picks a free port, null disables the Mongo face
 * @param tablePort     Azure Tables HTTP port; 0 picks a free port, null disables the table endpoint
 * @param gremlinScriptTimeout how long one Gremlin request may run before it is answered 598 and stopped
 * @param cosmosPort    Cosmos DB REST port (TLS and plain HTTP), which also serves the admin routes; 0 picks a free
 *                      port, null disables it
 * @param cosmosKey     the Cosmos master key (base64); null is the emulator's well-known key
 * @param cosmosReadOnlyKey a second Cosmos key (base64) that may only read and query; null: none
 * @param gremlinAuth   Gremlin Server requires SASL PLAIN credentials (the server's users, or the Cosmos form)
 * @param security      Tables accounts, the TLS certificate and the file they are re-read from
 *                      ({@code tetradb.yaml}); null: the development defaults
 */
public record ServerConfig(Path dataDirectory, InetAddress bindAddress, Integer httpPort, Integer gremlinPort,
                           List<GraphSpec> graphs, Integer mongoPort, Integer tablePort,
                           Duration gremlinScriptTimeout, Integer cosmosPort, String cosmosKey,
                           String cosmosReadOnlyKey, boolean gremlinAuth, SecurityConfig security) {
    /** The Cosmos DB emulator's port, which SDK users already have in their settings. */
    public static final int DEFAULT_COSMOS_PORT = 8081;
    public static final int DEFAULT_GREMLIN_PORT = 8182;
    public static final int DEFAULT_MONGO_PORT = 27017;
    public static final int DEFAULT_TABLE_PORT = 10002;

    public ServerConfig {
        for (Integer port : new Integer[] {httpPort, gremlinPort, mongoPort, tablePort, cosmosPort}) {
            if (port != null) {
                checkPort(port);
            }
        }
        if (gremlinScriptTimeout == null) {
            gremlinScriptTimeout = GremlinEndpoint.DEFAULT_SCRIPT_TIMEOUT;
        } else if (gremlinScriptTimeout.isNegative() || gremlinScriptTimeout.isZero()) {
            throw new IllegalArgumentException("the Gremlin script timeout must be positive");
        }
        if (cosmosKey != null && !validKey(cosmosKey)) {
            throw new IllegalArgumentException("the Cosmos key must be base64 (as the emulator's key is)");
        }
        if (cosmosReadOnlyKey != null && !validKey(cosmosReadOnlyKey)) {
            throw new IllegalArgumentException("the Cosmos read-only key must be base64 (as the emulator's key is)");
        }
        dataDirectory = dataDirectory.toAbsolutePath().normalize();
        security = security == null ? SecurityConfig.none() : security;
        graphs = withDefaultGraph(graphs == null ? List.of() : graphs);
    }

    /** Admin endpoint only (no Gremlin, Mongo, table or Cosmos endpoint). */
    public ServerConfig(Path dataDirectory, InetAddress bindAddress, int httpPort) {
        this(dataDirectory, bindAddress, httpPort, null, List.of(), null, null, null, null, null, null, false, null);
    }

    /**
     * Defaults for tests and embedding: loopback, a free admin port, no other face (see {@link #withGremlinPort},
     * {@link #withMongoPort}, {@link #withTablePort}, {@link #withCosmosPort}).
     */
    public static ServerConfig ephemeral(Path dataDirectory) {
        return new ServerConfig(dataDirectory, InetAddress.getLoopbackAddress(), 0);
    }

    /** The same configuration with Gremlin Server on {@code port} (0 = a free port). */
    public ServerConfig withGremlinPort(int port) {
        return new ServerConfig(dataDirectory, bindAddress, httpPort, port, graphs, mongoPort, tablePort,
                gremlinScriptTimeout, cosmosPort, cosmosKey, cosmosReadOnlyKey, gremlinAuth, security);
    }

    /** The same configuration serving these graphs (besides the default one, unless one of them is named like it). */
    public ServerConfig withGraphs(List<GraphSpec> more) {
        return new ServerConfig(dataDirectory, bindAddress, httpPort, gremlinPort, more, mongoPort, tablePort,
                gremlinScriptTimeout, cosmosPort, cosmosKey, cosmosReadOnlyKey, gremlinAuth, security);
    }

    /** The same configuration with the Mongo wire endpoint on {@code port} (0 = a free port). */
    public ServerConfig withMongoPort(int port) {
        return new ServerConfig(dataDirectory, bindAddress, httpPort, gremlinPort, graphs, port, tablePort,
                gremlinScriptTimeout, cosmosPort, cosmosKey, cosmosReadOnlyKey, gremlinAuth, security);
    }

    /** The same configuration with the Azure Tables endpoint on {@code port} (0 = a free port). */
    public ServerConfig withTablePort(int port) {
        return new ServerConfig(dataDirectory, bindAddress, httpPort, gremlinPort, graphs, mongoPort, port,
                gremlinScriptTimeout, cosmosPort, cosmosKey, cosmosReadOnlyKey, gremlinAuth, security);
    }

    /** The same configuration with Gremlin requests bounded by {@code timeout}. */
    public ServerConfig withGremlinScriptTimeout(Duration timeout) {
        return new ServerConfig(dataDirectory, bindAddress, httpPort, gremlinPort, graphs, mongoPort, tablePort,
                timeout, cosmosPort, cosmosKey, cosmosReadOnlyKey, gremlinAuth, security);
    }

    /** The same configuration with the Cosmos DB REST endpoint on {@code port} (0 = a free port). */
    public ServerConfig withCosmosPort(int port) {
        return new ServerConfig(dataDirectory, bindAddress, httpPort, gremlinPort, graphs, mongoPort, tablePort,
                gremlinScriptTimeout, port, cosmosKey, cosmosReadOnlyKey, gremlinAuth, security);
    }

    /** The same configuration with these Cosmos keys (null: the emulator's key; null read-only key: none). */
    public ServerConfig withCosmosKeys(String key, String readOnlyKey) {
        return new ServerConfig(dataDirectory, bindAddress, httpPort, gremlinPort, graphs, mongoPort, tablePort,
                gremlinScriptTimeout, cosmosPort, key, readOnlyKey, gremlinAuth, security);
    }

    /** The same configuration with Gremlin Server requiring credentials (true) or not. */
    public ServerConfig withGremlinAuth(boolean required) {
        return new ServerConfig(dataDirectory, bindAddress, httpPort, gremlinPort, graphs, mongoPort, tablePort,
                gremlinScriptTimeout, cosmosPort, cosmosKey, cosmosReadOnlyKey, required, security);
    }

    /** The same configuration with these Tables accounts, TLS certificate and configuration file. */
    public ServerConfig withSecurity(SecurityConfig security) {
        return new ServerConfig(dataDirectory, bindAddress, httpPort, gremlinPort, graphs, mongoPort, tablePort,
                gremlinScriptTimeout, cosmosPort, cosmosKey, cosmosReadOnlyKey, gremlinAuth, security);
    }

    /** The same configuration bound to {@code address} (every endpoint). */
    public ServerConfig withBindAddress(InetAddress address) {
        return new ServerConfig(dataDirectory, address, httpPort, gremlinPort, graphs, mongoPort, tablePort,
                gremlinScriptTimeout, cosmosPort, cosmosKey, cosmosReadOnlyKey, gremlinAuth, security);
    }

    /** The same configuration without the separate admin port (its routes stay on the Cosmos port). */
    public ServerConfig withoutHttpPort() {
        return new ServerConfig(dataDirectory, bindAddress, null, gremlinPort, graphs, mongoPort, tablePort,
                gremlinScriptTimeout, cosmosPort, cosmosKey, cosmosReadOnlyKey, gremlinAuth, security);
    }

    private static boolean validKey(String key) {
        try {
            return java.util.Base64.getDecoder().decode(key).length > 0;
        } catch (IllegalArgumentException e) {
            return false;
        }
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
